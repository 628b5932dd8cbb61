"""``run_diff``: parse both sides, build the shared workspace, generate probes, compare."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager

from ..engine.selection import ToolPolicy, gc_paused
from .compare import Ahead, DiffReport, compare
from .probes import generate_probes
from .recorded import read_recorded_calls
from .scratch import Workspace, find_escape_link, scratch_workspace
from .sides import load_sides, parse_side
from .twin import Here, second_hand

__all__ = ["TWIN_RULES", "diff_hand", "run_diff"]

TWIN_RULES = 200  # from this many rules on both sides together, a twin decides a share


def run_diff(
    left: str,
    right: str,
    *,
    profile: str = "P03",
    calls: str | None = None,
    workspace: str | None = None,
) -> DiffReport:
    """Compare the effective decisions of two sides (presets, profiles, ``PROFILE@PRESET``
    or policy files) on every argument region, the physical probes and the recorded
    ``calls``.

    ``profile`` serves sides that name only a preset. Both sides are decided in the same
    workspace: ``workspace`` when given, else a scratch one removed afterwards. Raises
    ``UnknownSide``, ``RecordedCallsError``, ``PolicyLoadError`` or ``ConfigurationError``.
    """
    left_side = parse_side(left, default_profile=profile)
    right_side = parse_side(right, default_profile=profile)
    recorded = read_recorded_calls(calls) if calls is not None else None
    # Hundreds of thousands of objects (automata, memos, results) live to the end: a
    # collection would only scan them again and again (about a sixth of a large diff).
    with gc_paused(), _workspace(workspace) as ws:
        left_policy, right_policy = load_sides(left_side, right_side, ws.root)
        with diff_hand(left_policy, right_policy) as hand:
            # The file tools' probes are decided while the command lines are searched.
            ahead = Ahead(hand)
            probes = generate_probes(
                left_policy,
                right_policy,
                escape_link=ws.escape_link,
                recorded=recorded.probes if recorded is not None else (),
                hand=hand,
                early=ahead.start,
            )
            report = compare(
                left_policy,
                right_policy,
                probes,
                labels=(left_side.label, right_side.label),
                hand=hand,
                ahead=ahead,
            )
    if recorded is None:
        return report
    return dataclasses.replace(
        report,
        calls_file=recorded.path,
        replayed=len(recorded.probes),
        skipped=recorded.skipped,
    )


def diff_hand(left: ToolPolicy, right: ToolPolicy) -> Here:
    """What decides a share of the work: a twin process, on a second core, for a large
    diff (:data:`TWIN_RULES`); this process for a small one."""
    rules = len(left.compiled.rules) + len(right.compiled.rules)
    return second_hand((left, right), fork=rules >= TWIN_RULES)


@contextmanager
def _workspace(root: str | None) -> Iterator[Workspace]:
    if root is None:
        with scratch_workspace() as scratch:
            yield scratch
    else:
        yield Workspace(root, find_escape_link(root))
