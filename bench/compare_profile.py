"""Profile toolpolicy's timed rows with cProfile: where a decision's time goes.

Run from the repository root::

    python bench/compare_profile.py [read|write|escape|shell|gate|scale|internal] [--calls N]

Every row is the public call of ``compare.py``'s row of that name (``policy.check``, the
gate as ``gate.decide(policy.request(...))``); ``internal`` is the pre-prepared
``engine.evaluate`` of the read.

Prints the functions by their own time (``tottime``) for N calls of the row, so the share of
each function in one decision can be read directly. cProfile's own overhead inflates the
totals (roughly 2-3x for code made of many small calls); compare shares, not absolutes.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
from collections.abc import Callable, Sequence

from compare_cases import CASES, Workspace, workspace
from compare_scale import matched_path, write_policy
from compare_toolpolicy import ToolPolicySubject

__all__ = ["ROWS", "main", "profile_call"]

ROWS = ("read", "write", "escape", "shell", "gate", "scale", "internal")
_CASES = {"read": "read", "write": "write-inside", "escape": "write-symlink", "shell": "shell"}


def _call(row: str, ws: Workspace) -> Callable[[], object]:
    cases = {case.key: case for case in CASES}
    subject = ToolPolicySubject(ws)
    if row in _CASES:
        return subject.bind_check(cases[_CASES[row]])
    if row == "internal":
        return subject.bind(cases["read"])
    if row == "gate":
        gate, _ = subject.gate(fsync=False)
        return subject.bind_public_gate(gate, cases["read"])
    scaled = ToolPolicySubject(ws, write_policy(ws.scratch, 10_000))
    return scaled.bind_check_call("read_file", {"path": matched_path(10_000)})


def profile_call(call: Callable[[], object], calls: int, limit: int = 25) -> str:
    """The cProfile table (by own time) of ``calls`` calls of ``call``."""
    for _ in range(min(calls, 1000)):
        call()
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        call()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(limit)
    return out.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    """Profile one row; prints the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("row", choices=ROWS)
    parser.add_argument("--calls", type=int, default=20_000)
    args = parser.parse_args(argv)
    with workspace() as ws:
        print(profile_call(_call(args.row, ws), args.calls))
    return 0


if __name__ == "__main__":
    sys.exit(main())
