"""Benchmarks side by side: toolpolicy against casbin, cedarpy, tollgate, agentpolicy, permitd.

Run from the repository root::

    pip install -e . -r bench/requirements.txt
    python bench/compare.py

One logical policy is expressed in every engine (see ``compare_cases``). Before anything is
timed, every engine must return the expected decision for every request of the mix (and
every scale policy for its two reads); a single mismatch prints the differences and exits 1.
Then each row is timed (warm-up, median of chunk means over several runs) and one markdown
table is printed, followed by the scale rows, the start-up rows and the targets of issue 8.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from compare_cases import CASES, Workspace, workspace
from compare_peers import PEER_NAMES, Peer, available_peers
from compare_scale import SCALE_SIZES, UNMATCHED_PATH, matched_path, scale_rules, write_policy
from compare_startup import StartupRow, time_startup
from compare_timing import Settings, Timing, measure_all
from compare_toolpolicy import ToolPolicySubject, label, write_command_policy

__all__ = [
    "Row",
    "ScaleRow",
    "ScaleSubject",
    "format_rows",
    "format_scale",
    "format_startup",
    "main",
    "precheck",
    "scale_subjects",
    "targets",
]

Call = Callable[[], object]
US = 1e6
READ = CASES[0]
WRITE = next(case for case in CASES if case.key == "write-inside")
ESCAPE = next(case for case in CASES if case.key == "write-symlink")
SHELL = next(case for case in CASES if case.key == "shell")
MIX_NAME = f"mix of {len(CASES)} requests"


@dataclass(frozen=True, slots=True)
class Row:
    """One timed row of the main table."""

    engine: str
    what: str
    timing: Timing
    includes: str
    baseline: str | None = None
    """The toolpolicy row this one is compared with (``read`` or ``mix``)."""
    whole_policy: bool = True
    """False for a peer that cannot express the whole policy (no boundary)."""


@dataclass(frozen=True, slots=True)
class ScaleRow:
    """One engine at one policy size: the unmatched and the matched read."""

    engine: str
    rules: int
    unmatched: Timing
    matched: Timing


def _check(label_of: Callable[[object], str], call: Call, expected: str, where: str) -> str:
    try:
        got = label_of(call())
    except Exception as exc:
        got = f"error {type(exc).__name__}: {exc}"
    return "" if got == expected else f"{where}: expected {expected}, got {got}"


@dataclass(frozen=True, slots=True)
class ScaleSubject:
    """One engine loaded with one N-rule policy: its unmatched and matched read calls."""

    engine: str
    rules: int
    unmatched: Call
    matched: Call
    label_of: Callable[[object], str]


def scale_subjects(ws: Workspace, count: int, peers: Sequence[Peer]) -> list[ScaleSubject]:
    """toolpolicy and every peer that can express path rules, loaded with ``count`` rules."""
    subject = ToolPolicySubject(ws, write_policy(ws.scratch, count))
    matched = matched_path(count)
    found = [
        ScaleSubject(
            "toolpolicy",
            count,
            subject.bind_call("read_file", {"path": UNMATCHED_PATH}),
            subject.bind_call("read_file", {"path": matched}),
            label,
        )
    ]
    rules = scale_rules(count)
    queries = [("read_file", UNMATCHED_PATH), ("read_file", matched)]
    for peer in peers:
        if peer.scales:
            unmatched_call, matched_call = peer.bind_scale(rules, queries)
            found.append(ScaleSubject(peer.name, count, unmatched_call, matched_call, str))
    return found


def precheck(
    subject: ToolPolicySubject,
    peers: Sequence[Peer],
    scale: Sequence[ScaleSubject] = (),
    commands: ToolPolicySubject | None = None,
) -> list[str]:
    """Every mismatch between an engine's decision and the expected one (empty: all agree).

    ``commands`` is toolpolicy with the bench's command rule: the compound shell command
    must still ask, and a line that hides ``rm -rf`` behind ``&&`` must be denied.
    """
    problems: list[str] = []
    if commands is not None:
        problems.append(_check(label, commands.bind(SHELL), "ask", "toolpolicy commands shell"))
        hidden = commands.bind_call("shell", {"command": "ls && rm -rf build"})
        problems.append(_check(label, hidden, "deny", "toolpolicy commands rm -rf"))
    for case in CASES:
        where = f"toolpolicy {case.key}"
        expected = subject.expected(case)
        problems.append(_check(label, subject.bind(case), expected, where))
        problems.append(_check(label, subject.bind_check(case), expected, f"{where} check"))
        for peer in peers:
            where = f"{peer.name} {case.key}"
            problems.append(_check(str, peer.bind(case), peer.expected(case), where))
    for fsync in (False, True):
        gate, sink = subject.gate(fsync=fsync)
        with sink:
            problems.append(
                _check(label, subject.bind_gate(gate, READ), "allow", "toolpolicy gate")
            )
    for item in scale:
        where = f"{item.engine} {item.rules} rules"
        problems.append(_check(item.label_of, item.unmatched, "allow", f"{where} unmatched read"))
        problems.append(_check(item.label_of, item.matched, "deny", f"{where} matched read"))
    return [problem for problem in problems if problem]


@dataclass(frozen=True, slots=True)
class _Plan:
    engine: str
    what: str
    calls: Sequence[Call]
    includes: str
    baseline: str | None = None
    whole_policy: bool = True


def _decision_rows(
    subject: ToolPolicySubject,
    commands: ToolPolicySubject,
    peers: Sequence[Peer],
    settings: Settings,
) -> list[Row]:
    plans = [
        _Plan(
            "toolpolicy",
            "read decision (read_file src/a.py -> allow)",
            [subject.bind(READ)],
            "engine.evaluate on a prepared request, knobs folded once; no path or command rule "
            "for read_file in P03, so the evaluation is memoized per (tool, effect, knobs)",
            "read",
        ),
        _Plan(
            "toolpolicy",
            "write decision, symlink-safe boundary (src/new.py -> ask)",
            [subject.bind(WRITE)],
            "boundary resolves every component (lstat/readlink), then the rules",
        ),
        _Plan(
            "toolpolicy",
            "write through an escaping symlink (link/escape.txt -> deny)",
            [subject.bind(ESCAPE)],
            "as above; the boundary denies",
        ),
        _Plan(
            "toolpolicy",
            "shell decision, P03 alone -> ask",
            [subject.bind(SHELL)],
            "no shell rule in P03: the line is not parsed, the evaluation is memoized",
        ),
        _Plan(
            "toolpolicy",
            "shell decision, compound command, with a command rule -> ask",
            [commands.bind(SHELL)],
            f"P03 + a `rm -rf` deny rule: splits `{SHELL.arguments['command']}` into "
            "3 simple commands and matches each",
        ),
        _Plan(
            "toolpolicy",
            MIX_NAME,
            [subject.bind(case) for case in CASES],
            "the eight requests in turn; the unknown tool is denied by ToolSnapshot.prepare",
            "mix",
        ),
        _Plan(
            "toolpolicy",
            "policy.check(read_file, {path})",
            [subject.bind_check(READ)],
            "public API: argument preparation + knob fold + decision",
        ),
    ]
    with contextlib.ExitStack() as stack:
        for fsync in (False, True):
            gate, sink = subject.gate(fsync=fsync)
            stack.enter_context(sink)
            plans.append(
                _Plan(
                    "toolpolicy",
                    f"full gate, read, JSONL audit {'with' if fsync else 'without'} fsync",
                    [subject.bind_gate(gate, READ)],
                    "Gate.decide: decision + AuditRecord (timestamp, sha256 of the arguments) "
                    f"+ one O_APPEND write{' + fsync' if fsync else ''}",
                )
            )
        for peer in peers:
            plans.append(
                _Plan(
                    peer.title,
                    "read decision",
                    [peer.bind(READ)],
                    "the read_file request of the mix alone",
                    "read",
                    peer.sees_paths,
                )
            )
            plans.append(
                _Plan(
                    peer.title,
                    MIX_NAME,
                    [peer.bind(case) for case in CASES],
                    peer.includes,
                    "mix",
                    peer.sees_paths,
                )
            )
        timings = measure_all([plan.calls for plan in plans], settings)
    return [
        Row(plan.engine, plan.what, timing, plan.includes, plan.baseline, plan.whole_policy)
        for plan, timing in zip(plans, timings, strict=True)
    ]


def _scale_rows(scale: Sequence[ScaleSubject], settings: Settings) -> list[ScaleRow]:
    timings = measure_all(
        [calls for item in scale for calls in ([item.unmatched], [item.matched])], settings
    )
    return [
        ScaleRow(item.engine, item.rules, timings[2 * index], timings[2 * index + 1])
        for index, item in enumerate(scale)
    ]


def _us(seconds: float) -> str:
    value = seconds * US
    if value >= 1000:
        return f"{value:,.0f}"
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


def _span(timing: Timing) -> str:
    return f"{_us(timing.low)}-{_us(timing.high)}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def format_rows(rows: Sequence[Row]) -> list[str]:
    """The main markdown table."""
    base = {row.baseline: row.timing.median for row in rows if row.engine == "toolpolicy"}
    out = [
        "| engine | what | median µs/decision | min-max over runs | x toolpolicy | includes |",
        "|---|---|---:|---:|---:|---|",
    ]
    for row in rows:
        ratio = ""
        if row.baseline is not None and row.baseline in base:
            ratio = f"{row.timing.median / base[row.baseline]:.1f}x"
        out.append(
            f"| {row.engine} | {_cell(row.what)} | {_us(row.timing.median)} | "
            f"{_span(row.timing)} | {ratio} | {_cell(row.includes)} |"
        )
    return out


def format_scale(rows: Sequence[ScaleRow]) -> list[str]:
    """The scale table: one line per engine and size, growth against the smallest size."""
    smallest: dict[str, ScaleRow] = {}
    out = [
        "| engine | rules | unmatched read µs | min-max | matched read µs | min-max | growth |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in sorted(rows, key=lambda r: (r.engine != "toolpolicy", r.engine, r.rules)):
        first = smallest.setdefault(row.engine, row)
        growth = (
            f"{row.unmatched.median / first.unmatched.median:.1f}x / "
            f"{row.matched.median / first.matched.median:.1f}x"
        )
        out.append(
            f"| {row.engine} | {row.rules:,} | {_us(row.unmatched.median)} | "
            f"{_span(row.unmatched)} | {_us(row.matched.median)} | {_span(row.matched)} | "
            f"{growth} |"
        )
    return out


def format_startup(rows: Sequence[StartupRow]) -> list[str]:
    """The start-up table."""
    out = ["| command | median ms | min-max ms | x bare Python |", "|---|---:|---:|---:|"]
    for row in rows:
        out.append(
            f"| `{row.label}` | {row.median * 1000:.1f} | "
            f"{row.low * 1000:.1f}-{row.high * 1000:.1f} | {row.ratio:.1f}x |"
        )
    return out


def targets(rows: Sequence[Row], scale: Sequence[ScaleRow]) -> list[str]:
    """Issue 8's targets, each met or missed, from this run's medians."""
    tp = {row.what: row.timing.median * US for row in rows if row.engine == "toolpolicy"}
    read = tp[_decision_what(rows, "read")]
    found: list[tuple[str, float, float]] = [
        ("read decision <= 1.5 µs", read, 1.5),
        ("write decision with the boundary <= 8 µs", tp[_what(rows, "write decision")], 8.0),
        ("full gate, JSONL without fsync <= 15 µs", tp[_what(rows, "without fsync")], 15.0),
    ]
    largest = [r for r in scale if r.engine == "toolpolicy" and r.rules == max(SCALE_SIZES)]
    if largest:
        worst = max(largest[0].unmatched.median, largest[0].matched.median) * US
        found.append((f"{max(SCALE_SIZES):,}-rule policy: read <= 3 µs", worst, 3.0))
    out = [
        f"- {name}: {value:.2f} µs — {'met' if value <= limit else 'MISSED'}"
        for name, value, limit in found
    ]
    for baseline in ("read", "mix"):
        out.extend(_versus_peers(rows, baseline))
    return out


def _versus_peers(rows: Sequence[Row], baseline: str) -> list[str]:
    ours = next(r for r in rows if r.engine == "toolpolicy" and r.baseline == baseline)
    theirs = [r for r in rows if r.engine != "toolpolicy" and r.baseline == baseline]
    out: list[str] = []
    for scope, peers in (
        ("any peer", theirs),
        ("peers that express the whole policy", [r for r in theirs if r.whole_policy]),
    ):
        if not peers:
            continue
        fastest = min(peers, key=lambda r: r.timing.median)
        ratio = fastest.timing.median / ours.timing.median
        out.append(
            f"- >= 2x faster than the fastest of {scope} on the {baseline} row "
            f"({fastest.engine}): {ratio:.1f}x — {'met' if ratio >= 2 else 'MISSED'}"
        )
    return out


def _what(rows: Sequence[Row], fragment: str) -> str:
    return next(row.what for row in rows if row.engine == "toolpolicy" and fragment in row.what)


def _decision_what(rows: Sequence[Row], baseline: str) -> str:
    return next(row.what for row in rows if row.engine == "toolpolicy" and row.baseline == baseline)


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--engines",
        default=",".join(PEER_NAMES),
        help="comma-separated peers to include (toolpolicy always runs; 'none' for none)",
    )
    parser.add_argument("--check-only", action="store_true", help="run the pre-check only")
    parser.add_argument("--quick", action="store_true", help="short runs (smoke test)")
    parser.add_argument("--no-scale", action="store_true", help="skip the scale rows")
    parser.add_argument("--no-startup", action="store_true", help="skip the start-up rows")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall clock (default) or this thread's CPU time (steadier on a busy machine; "
        "does not count waiting, e.g. for fsync)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Pre-check, time, print; 0 when every engine agreed, 1 on a mismatch."""
    args = _arguments(argv)
    wanted = {name.strip() for name in args.engines.split(",") if name.strip()}
    unknown = wanted - set(PEER_NAMES) - {"none"}
    if unknown:
        print(f"unknown engines: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    cpu = args.clock == "cpu"
    settings = Settings(runs=3, chunks=5, cpu=cpu)
    scale_settings = settings
    if not args.quick:
        settings = Settings(cpu=cpu)
        scale_settings = Settings(runs=3, chunks=9, max_calls_per_chunk=20_000, cpu=cpu)
    with workspace() as ws:
        subject = ToolPolicySubject(ws)
        commands = ToolPolicySubject(ws, [write_command_policy(ws.scratch)])
        installed, missing = available_peers(ws)
        peers = [peer for peer in installed if peer.name in wanted]
        skipped = sorted(name for name in missing if name in wanted)
        if skipped:
            print(f"not installed, skipped: {', '.join(skipped)}")
        scale_set: list[ScaleSubject] = []
        if not args.no_scale:
            for count in SCALE_SIZES:
                scale_set.extend(scale_subjects(ws, count, peers))
        problems = precheck(subject, peers, scale_set, commands)
        if problems:
            print("pre-check FAILED: an engine gave the wrong decision", file=sys.stderr)
            for problem in problems:
                print(f"  {problem}", file=sys.stderr)
            return 1
        engines = ", ".join(["toolpolicy", *(peer.name for peer in peers)])
        print(f"pre-check passed: every engine ({engines}) decided all {len(CASES)} requests")
        if args.check_only:
            return 0
        print(
            f"\nPython {platform.python_version()} on {platform.machine()}, "
            f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; "
            f"{args.clock} clock; median of {settings.runs} runs x {settings.chunks} "
            "chunk means\n"
        )
        rows = _decision_rows(subject, commands, peers, settings)
        print("\n".join(format_rows(rows)))
        scale = _scale_rows(scale_set, scale_settings)
        if scale:
            print("\n" + "\n".join(format_scale(scale)))
        if not args.no_startup:
            startup = time_startup(ws.root, repeats=5 if args.quick else 20)
            print("\n" + "\n".join(format_startup(startup)))
        print("\nTargets (issue 8):\n" + "\n".join(targets(rows, scale)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
