"""Benchmark of ``toolpolicy diff``: two 1,000-rule policies (targets: 2 s, issue 13, and
1 s, issue 14, as a process), and the everyday comparisons (P02 → P03, the presets;
target: 200 ms each in process).

Run from the repository root::

    python bench/bench_diff.py [--rules 1000] [--runs 5] [--scoped] [--no-process]
                               [--clock wall|cpu]

Both policies extend P03 and have ``--rules`` rules: three in four are path rules on the
file tools (two globs each), one in four a command rule (two prefixes; on every tool, as
people write them, or only on ``shell`` with ``--scoped``); behaviors cycle deny, ask,
allow. The right policy flips the behavior of every 100th rule and of the command rule
three after it, so the diff has real differences to find, among paths and commands. A run
is what ``toolpolicy diff LEFT RIGHT --format json`` does (minus process start-up), timed
in phases: load (read, validate, compile both sides), regions (the symbolic search of both
sides' rules, plus the physical probes; with a twin, the file tools' probes are decided
meanwhile), decide (every other witness and probe on both sides, in a scratch workspace)
and render. Then the same diff as a process
(``python -m toolpolicy diff ...``, start-up included), and the everyday comparisons in
process. Prints medians; exits 1 when a median is over its target.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from toolpolicy.diff import generate_probes, parse_side, render_json, run_diff
from toolpolicy.diff.compare import Ahead, compare
from toolpolicy.diff.run import diff_hand
from toolpolicy.diff.scratch import scratch_workspace
from toolpolicy.diff.sides import load_sides
from toolpolicy.engine.selection import gc_paused

TARGETS = ((2.0, "issue 13"), (1.0, "issue 14"))
"""Seconds for the process, and the issue that sets each target."""
EVERYDAY_TARGET_SECONDS = 0.2
EVERYDAY = (("P02", "P03"), ("workspace-write", "danger-full-access"), ("P03", "read-only"))
PHASES = ("load", "regions", "decide", "render")
_BEHAVIORS = ("deny", "ask", "allow")


def write_policy(path: str, rules: int, *, flip_every: int | None, scoped: bool) -> None:
    """A Policy extending P03 with ``rules`` rules; every ``flip_every``-th is flipped, and
    the command rule three after it."""
    lines = ["apiVersion: toolpolicy/v1", "kind: Policy", f"name: bench-{rules}", "extends: P03"]
    lines.append("rules:")
    for i in range(rules):
        behavior = _BEHAVIORS[i % 3]
        if flip_every and i % flip_every in (0, 3):
            behavior = "allow" if behavior == "deny" else "deny"
        lines += [f"  - name: rule-{i}", f"    behavior: {behavior}"]
        lines += [f"    reason: Benchmark rule {i}", "    match:"]
        if i % 4 == 3:
            if scoped:
                lines.append("      tools: [shell]")
            lines.append(f'      commands: ["tool{i} run", "tool{i} * --force"]')
        else:
            lines.append("      tools: [write_file, edit_file, read_file]")
            lines.append(f'      paths: ["area{i}/**/*.c", "docs{i}/*.md"]')
    with open(path, "w", encoding="utf-8") as stream:
        stream.write("\n".join(lines) + "\n")


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = CLOCKS["wall"]


def one_run(left: str, right: str) -> tuple[dict[str, float], str]:
    """The phase times of one diff, and a one-line summary of its result."""
    times: dict[str, float] = {}
    with gc_paused(), scratch_workspace() as ws:  # as run_diff does
        start = clock()
        left_policy, right_policy = load_sides(parse_side(left), parse_side(right), ws.root)
        times["load"] = clock() - start
        with diff_hand(left_policy, right_policy) as hand:  # as run_diff does
            start = clock()
            ahead = Ahead(hand)
            probes = generate_probes(
                left_policy, right_policy, escape_link=ws.escape_link, hand=hand, early=ahead.start
            )
            times["regions"] = clock() - start
            start = clock()
            report = compare(left_policy, right_policy, probes, hand=hand, ahead=ahead)
            times["decide"] = clock() - start
    with gc_paused():  # as the CLI writes it out (``cli/diff_cmd.py``)
        start = clock()
        render_json(report)
        times["render"] = clock() - start
    summary = (
        f"regions: {report.regions}, calls: {len(report.results)}, "
        f"differences: {len(report.differences)}, verdict: {report.verdict.value}"
    )
    return times, summary


def process_run(left: str, right: str) -> float:
    """Seconds for ``python -m toolpolicy diff LEFT RIGHT --format json`` as a process (with
    ``--clock cpu``: the user and system time of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "toolpolicy", "diff", left, right, "--format", "json"],
        capture_output=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if clock is CLOCKS["cpu"]:
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        elapsed = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if done.returncode not in (0, 1):
        raise SystemExit(f"toolpolicy diff failed: {done.stderr.decode()}")
    return elapsed


def everyday_run(left: str, right: str) -> float:
    """Seconds for one in-process ``run_diff`` (sides already cached by a first run)."""
    start = clock()
    run_diff(left, right)
    return clock() - start


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; 0 when the median total is under the target."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scoped", action="store_true", help="command rules name tools: [shell]")
    parser.add_argument("--no-process", action="store_true", help="skip the process timing")
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="wall", help="cpu: steadier on a busy machine"
    )
    args = parser.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    runs: list[dict[str, float]] = []
    processes: list[float] = []
    with tempfile.TemporaryDirectory() as top:
        left = os.path.join(top, "left.yaml")
        right = os.path.join(top, "right.yaml")
        write_policy(left, args.rules, flip_every=None, scoped=args.scoped)
        write_policy(right, args.rules, flip_every=100, scoped=args.scoped)
        summary = ""
        for _ in range(args.runs):
            times, summary = one_run(left, right)
            runs.append(times)
        if not args.no_process:
            processes = [process_run(left, right) for _ in range(args.runs)]
    median = statistics.median(sum(r.values()) for r in runs)
    scope = "scoped to shell" if args.scoped else "on every tool"
    print(
        f"toolpolicy diff of two {args.rules}-rule policies (command rules {scope}; "
        f"{args.clock} clock)"
    )
    print(f"  {summary}")
    for phase in PHASES:
        print(f"  {phase:<8} {statistics.median(r[phase] for r in runs):7.3f} s")
    print(f"  total    {median:7.3f} s median of {args.runs} in process")
    over = False
    if processes:
        process = statistics.median(processes)
        targets = ", ".join(
            f"{issue} < {seconds} s: {'OVER' if process >= seconds else 'ok'}"
            for seconds, issue in TARGETS
        )
        over = process >= min(seconds for seconds, _ in TARGETS)
        print(f"  process  {process:7.3f} s median of {args.runs} ({targets})")
    print("everyday comparisons, in process")
    for left_side, right_side in EVERYDAY:
        everyday_run(left_side, right_side)  # the built-in sides are cached after this
        seconds = statistics.median(everyday_run(left_side, right_side) for _ in range(args.runs))
        slow = seconds >= EVERYDAY_TARGET_SECONDS
        over = over or slow
        print(
            f"  {left_side} -> {right_side}: {seconds * 1000:6.1f} ms median of {args.runs} "
            f"(target < {EVERYDAY_TARGET_SECONDS * 1000:.0f} ms): {'OVER' if slow else 'ok'}"
        )
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
