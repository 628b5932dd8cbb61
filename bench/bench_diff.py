"""Benchmark of issue 6: ``toolpolicy diff`` of two 1,000-rule policies (target under 2 s).

Run from the repository root::

    python bench/bench_diff.py [--rules 1000] [--runs 3] [--scoped]

Both policies extend P03 and have ``--rules`` rules: three in four are path rules on the
file tools (two globs each), one in four a command rule (two prefixes; on every tool, as
people write them, or only on ``shell`` with ``--scoped``); behaviors cycle deny, ask,
allow. The right policy flips every 100th rule's behavior, so the diff has real differences
to find. A run is what ``toolpolicy diff LEFT RIGHT --format json`` does (minus process
start-up), timed in phases: load (read, validate, compile both sides), probes (generate and
verify), decide (every probe on both sides, in a scratch workspace) and render. Prints the
median of each phase and of the total; exits 1 when the median total is over the target.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

from toolpolicy.diff import generate_probes, parse_side, render_json
from toolpolicy.diff.compare import compare
from toolpolicy.diff.scratch import scratch_workspace
from toolpolicy.diff.sides import load_sides

TARGET_SECONDS = 2.0
PHASES = ("load", "probes", "decide", "render")
_BEHAVIORS = ("deny", "ask", "allow")


def write_policy(path: str, rules: int, *, flip_every: int | None, scoped: bool) -> None:
    """A Policy extending P03 with ``rules`` rules; every ``flip_every``-th is flipped."""
    lines = ["apiVersion: toolpolicy/v1", "kind: Policy", f"name: bench-{rules}", "extends: P03"]
    lines.append("rules:")
    for i in range(rules):
        behavior = _BEHAVIORS[i % 3]
        if flip_every and i % flip_every == 0:
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


def one_run(left: str, right: str) -> tuple[dict[str, float], str]:
    """The phase times of one diff, and a one-line summary of its result."""
    times: dict[str, float] = {}
    with scratch_workspace() as ws:
        start = time.perf_counter()
        left_policy, right_policy = load_sides(parse_side(left), parse_side(right), ws.root)
        times["load"] = time.perf_counter() - start
        start = time.perf_counter()
        probes = generate_probes(left_policy, right_policy, escape_link=ws.escape_link)
        times["probes"] = time.perf_counter() - start
        start = time.perf_counter()
        report = compare(left_policy, right_policy, probes)
        times["decide"] = time.perf_counter() - start
    start = time.perf_counter()
    render_json(report)
    times["render"] = time.perf_counter() - start
    summary = (
        f"probes: {len(report.results)}, differences: {len(report.differences)}, "
        f"verdict: {report.verdict.value}"
    )
    return times, summary


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; 0 when the median total is under the target."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--scoped", action="store_true", help="command rules name tools: [shell]")
    args = parser.parse_args(argv)
    runs: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as top:
        left = os.path.join(top, "left.yaml")
        right = os.path.join(top, "right.yaml")
        write_policy(left, args.rules, flip_every=None, scoped=args.scoped)
        write_policy(right, args.rules, flip_every=100, scoped=args.scoped)
        summary = ""
        for _ in range(args.runs):
            times, summary = one_run(left, right)
            runs.append(times)
    totals = [sum(r.values()) for r in runs]
    median = statistics.median(totals)
    scope = "scoped to shell" if args.scoped else "on every tool"
    print(f"toolpolicy diff of two {args.rules}-rule policies (command rules {scope})")
    print(f"  {summary}")
    for phase in PHASES:
        print(f"  {phase:<7} {statistics.median(r[phase] for r in runs):7.3f} s")
    verdict = "ok" if median < TARGET_SECONDS else "OVER"
    print(
        f"  total   {median:7.3f} s median of {args.runs} (target < {TARGET_SECONDS} s): {verdict}"
    )
    return 0 if median < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
