"""Benchmarks side by side: toolpolicy's public calls against casbin, cedarpy, tollgate,
agentpolicy and permitd, processes, scale, and the targets of issue 14, in one report.

Run from the repository root::

    pip install -e . -r bench/requirements.txt
    python bench/compare.py --json bench/results/latest.json --write-readme README.md

One logical policy is expressed in every engine (see ``compare_cases``). Before anything is
timed, every engine must return the expected decision for every request of the mix (and
every scale policy for its two reads, every rule shape for its two calls); a mismatch prints
the differences and exits 1. Then the rows are timed (peers' public calls interleaved with
toolpolicy's), the processes are run, and one Markdown report is printed: ``render`` builds
it from the results alone, so the README's Performance section (``--write-readme``) and the
stored JSON (``--json``) can be checked against each other (``--from-json`` re-renders).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import gc
import json
import os
import platform
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from compare_cases import CASES, Case, Workspace, workspace
from compare_peers import PEER_NAMES, Peer, available_peers
from compare_processes import ProcessRow, time_processes
from compare_scale import (
    SCALE_SIZES,
    SHAPE_SIZES,
    UNMATCHED_PATH,
    ShapeRow,
    format_shapes,
    matched_path,
    measure_shapes,
    scale_rules,
    write_policy,
)
from compare_timing import Settings, Timing, measure_all
from compare_toolpolicy import (
    ToolPolicySubject,
    label,
    write_command_policy,
    write_path_policy,
)

__all__ = [
    "BEGIN",
    "END",
    "Row",
    "ScaleRow",
    "ScaleSubject",
    "main",
    "precheck",
    "readme_section",
    "render",
    "replace_section",
    "scale_subjects",
    "targets",
]

BEGIN = "<!-- bench:begin -->"
END = "<!-- bench:end -->"
Call = Callable[[], object]
US = 1e6
READ = CASES[0]
WRITE = next(case for case in CASES if case.key == "write-inside")
ESCAPE = next(case for case in CASES if case.key == "write-symlink")
SHELL = next(case for case in CASES if case.key == "shell")
MIX_NAME = f"mix of {len(CASES)} requests"
KB = 1024


@dataclass(frozen=True, slots=True)
class Row:
    """One timed row: ``section`` is ``public`` or ``internal``; ``key`` names the
    toolpolicy rows the targets read; ``baseline`` (``read`` or ``mix``) pairs a peer row
    with toolpolicy's public row of the same request."""

    section: str
    engine: str
    what: str
    timing: Timing
    includes: str
    key: str = ""
    baseline: str | None = None
    whole_policy: bool = True
    """False for a peer that cannot express the whole policy (no boundary)."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the timing in seconds)."""
        return asdict(self)

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Row:
        """The inverse of :meth:`to_json`."""
        return cls(**{**value, "timing": Timing(**value["timing"])})


@dataclass(frozen=True, slots=True)
class ScaleRow:
    """One engine at one size of the peers' scale policy: the unmatched and matched read."""

    engine: str
    rules: int
    unmatched: Timing
    matched: Timing

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> ScaleRow:
        """The inverse of :meth:`to_json`."""
        return cls(
            value["engine"],
            value["rules"],
            Timing(**value["unmatched"]),
            Timing(**value["matched"]),
        )


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
    """toolpolicy (public ``check``, a new file name in the same folder on every call, so
    its memo does not answer) and every peer that can express path rules, loaded with the
    ``count``-rule scale policy."""
    subject = ToolPolicySubject(ws, write_policy(ws.scratch, count))
    matched = matched_path(count)
    found = [
        ScaleSubject(
            "toolpolicy",
            count,
            subject.bind_fresh_check(Case("unmatched", "read_file", {"path": UNMATCHED_PATH}, "")),
            subject.bind_fresh_check(Case("matched", "read_file", {"path": matched}, "")),
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
    paths: ToolPolicySubject | None = None,
) -> list[str]:
    """Every mismatch between an engine's decision and the expected one (empty: all agree).

    ``commands`` is toolpolicy with the bench's command rule: the compound shell command
    must still ask, and a line that hides ``rm -rf`` behind ``&&`` must be denied.
    ``paths`` is toolpolicy with one read path rule: the read is still allowed, a read of
    ``secrets/`` is denied. Every request with a new path (``fresh_arguments``) must be
    decided as the request itself.
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
    for loaded in (found for found in (subject, commands, paths) if found is not None):
        for case in CASES:
            same = label(loaded.bind_check(case)())
            where = f"toolpolicy {case.key} with a new path"
            problems.append(_check(label, loaded.bind_fresh_check(case), same, where))
    if paths is not None:
        problems.append(_check(label, paths.bind_check(READ), "allow", "toolpolicy paths read"))
        secret = paths.bind_check_call("read_file", {"path": "secrets/key"})
        problems.append(_check(label, secret, "deny", "toolpolicy paths secrets"))
    for fsync in (False, True):
        gate, sink = subject.gate(fsync=fsync)
        with sink:
            problems.append(
                _check(label, subject.bind_gate(gate, READ), "allow", "toolpolicy gate")
            )
            public = subject.bind_public_gate(gate, READ)
            problems.append(_check(label, public, "allow", "toolpolicy public gate"))
    for item in scale:
        where = f"{item.engine} {item.rules} rules"
        problems.append(_check(item.label_of, item.unmatched, "allow", f"{where} unmatched read"))
        problems.append(_check(item.label_of, item.matched, "deny", f"{where} matched read"))
    return [problem for problem in problems if problem]


@dataclass(frozen=True, slots=True)
class _Plan:
    section: str
    key: str
    engine: str
    what: str
    calls: Sequence[Call]
    includes: str
    baseline: str | None = None
    whole_policy: bool = True


def _public_plans(
    subject: ToolPolicySubject, commands: ToolPolicySubject, paths: ToolPolicySubject
) -> list[_Plan]:
    """toolpolicy's public rows: each request with a new path (command) on every call, and
    for the read, the write, the shell line under a rule and the mix the same call again."""
    check = "policy.check(tool, arguments)"
    fresh = "a new path each call"
    return [
        _Plan(
            "public",
            "read",
            "toolpolicy",
            f"read: check(read_file, src/a<k>.py) -> allow, {fresh}",
            [subject.bind_fresh_check(READ)],
            f"{check} on P03: argument preparation, knob fold, decision",
            "read",
        ),
        _Plan(
            "public",
            "read-same",
            "toolpolicy",
            "read: check(read_file, src/a.py) -> allow, the same call again",
            [subject.bind_check(READ)],
            f"{check} on P03, the same arguments on every call",
        ),
        _Plan(
            "public",
            "read-path-rules",
            "toolpolicy",
            f"read under a path rule -> allow, {fresh}",
            [paths.bind_fresh_check(READ)],
            f"{check} on P03 + one read rule (deny secrets/**)",
        ),
        _Plan(
            "public",
            "write",
            "toolpolicy",
            f"write: check(write_file, src/new<k>.py) -> ask, {fresh}",
            [subject.bind_fresh_check(WRITE)],
            f"{check}: the workspace boundary, then the rules",
        ),
        _Plan(
            "public",
            "write-same",
            "toolpolicy",
            "write: check(write_file, src/new.py) -> ask, the same call again",
            [subject.bind_check(WRITE)],
            f"{check}, the same arguments on every call",
        ),
        _Plan(
            "public",
            "write-escape",
            "toolpolicy",
            f"write through an escaping symlink: check(write_file, link/escape<k>.txt), {fresh}",
            [subject.bind_fresh_check(ESCAPE)],
            f"{check}; link -> a folder outside the workspace",
        ),
        _Plan(
            "public",
            "shell",
            "toolpolicy",
            f"shell: check(shell, compound line) -> ask, {fresh}",
            [subject.bind_fresh_check(SHELL)],
            f"{check} for `{SHELL.arguments['command']}` (src<k>) on P03, no command rule",
        ),
        _Plan(
            "public",
            "shell-rules",
            "toolpolicy",
            f"shell under a command rule -> ask, {fresh}",
            [commands.bind_fresh_check(SHELL)],
            f"{check} on P03 + a `rm -rf` deny rule: the line is split, each command matched",
        ),
        _Plan(
            "public",
            "shell-rules-same",
            "toolpolicy",
            "shell under a command rule -> ask, the same call again",
            [commands.bind_check(SHELL)],
            f"{check}, the same line on every call",
        ),
        _Plan(
            "public",
            "mix",
            "toolpolicy",
            f"{MIX_NAME}, {fresh}",
            [subject.bind_fresh_check(case) for case in CASES],
            f"{check} on the eight requests in turn (the unknown tool raises CallRejected)",
            "mix",
        ),
        _Plan(
            "public",
            "mix-same",
            "toolpolicy",
            f"{MIX_NAME}, the same calls again",
            [subject.bind_check(case) for case in CASES],
            f"{check}, the same eight requests on every round",
        ),
    ]


def _internal_plans(subject: ToolPolicySubject, commands: ToolPolicySubject) -> list[_Plan]:
    evaluate = "engine.evaluate on a request prepared once, knobs folded once"
    cases = (("read", READ), ("write", WRITE), ("write-escape", ESCAPE), ("shell", SHELL))
    plans = [
        _Plan(
            "internal",
            key,
            "toolpolicy",
            f"{case.tool} {case.path or ''}".strip(),
            [subject.bind(case)],
            evaluate,
        )
        for key, case in cases
    ]
    plans.append(
        _Plan(
            "internal",
            "shell-rules",
            "toolpolicy",
            "shell under a command rule",
            [commands.bind(SHELL)],
            evaluate,
        )
    )
    plans.append(
        _Plan(
            "internal",
            "mix",
            "toolpolicy",
            MIX_NAME,
            [subject.bind(case) for case in CASES],
            f"{evaluate}; the unknown tool is denied by ToolSnapshot.prepare",
        )
    )
    return plans


def _gate_plans(
    subject: ToolPolicySubject, stack: contextlib.ExitStack, *, fsync: bool
) -> list[_Plan]:
    plans: list[_Plan] = []
    gate, sink = subject.gate(fsync=fsync)
    stack.enter_context(sink)
    suffix = "-fsync" if fsync else ""
    audit = f"JSONL audit {'with' if fsync else 'without'} fsync"
    plans.append(
        _Plan(
            "public",
            f"gate{suffix}",
            "toolpolicy",
            f"gate, read, {audit}",
            [subject.bind_public_gate(gate, READ)],
            "gate.decide(policy.request(tool, arguments)): decision + audit record "
            f"(timestamp, sha256 of the arguments) + one O_APPEND write{' + fsync' * fsync}",
        )
    )
    plans.append(
        _Plan(
            "internal",
            f"gate{suffix}",
            "toolpolicy",
            f"gate, read, {audit}",
            [subject.bind_gate(gate, READ)],
            "gate.decide on a request built once",
        )
    )
    return plans


def _peer_plans(peers: Sequence[Peer]) -> list[_Plan]:
    plans: list[_Plan] = []
    for peer in peers:
        plans.append(
            _Plan(
                "public",
                "read",
                peer.title,
                "read",
                [peer.bind(READ)],
                "the read_file request of the mix alone",
                "read",
                peer.sees_paths,
            )
        )
        plans.append(
            _Plan(
                "public",
                "mix",
                peer.title,
                MIX_NAME,
                [peer.bind(case) for case in CASES],
                peer.includes,
                "mix",
                peer.sees_paths,
            )
        )
    return plans


def _public_order(rows: Sequence[Row]) -> list[Row]:
    """toolpolicy's public rows, each followed by the peers' rows of the same request."""
    ours = [row for row in rows if row.section == "public" and row.engine == "toolpolicy"]
    theirs = [row for row in rows if row.section == "public" and row.engine != "toolpolicy"]
    out: list[Row] = []
    for row in ours:
        out.append(row)
        if row.baseline is not None:
            out.extend(peer for peer in theirs if peer.baseline == row.baseline)
    return out


def _decision_rows(
    subject: ToolPolicySubject,
    commands: ToolPolicySubject,
    paths: ToolPolicySubject,
    peers: Sequence[Peer],
    settings: Settings,
) -> list[Row]:
    with contextlib.ExitStack() as stack:
        interleaved = [
            *_public_plans(subject, commands, paths),
            *_gate_plans(subject, stack, fsync=False),
            *_peer_plans(peers),
            *_internal_plans(subject, commands),
        ]
        # The fsync rows are timed after the others, on their own: an fsync's flush of the
        # disk's journal slows every write right after it, the rows next to it included.
        synced = _gate_plans(subject, stack, fsync=True)
        timings = [
            *measure_all([plan.calls for plan in interleaved], settings),
            *measure_all([plan.calls for plan in synced], settings),
        ]
        plans = [*interleaved, *synced]
    return [
        Row(
            plan.section,
            plan.engine,
            plan.what,
            timing,
            plan.includes,
            plan.key,
            plan.baseline,
            plan.whole_policy,
        )
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


# --- rendering: a pure function of the results -------------------------------------------


def _us(seconds: float) -> str:
    value = seconds * US
    if value >= 1000:
        return f"{value:,.0f}"
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


def _span(timing: Timing) -> str:
    return f"{_us(timing.low)}-{_us(timing.high)}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _format_rows(rows: Sequence[Row], *, ratios: bool) -> list[str]:
    base = {
        row.baseline: row.timing.median
        for row in rows
        if row.engine == "toolpolicy" and row.baseline is not None
    }
    head = "| engine | call | median µs | min-max over runs |"
    rule = "|---|---|---:|---:|"
    if ratios:
        head, rule = head + " x toolpolicy |", rule + "---:|"
    out = [head + " includes |", rule + "---|"]
    for row in rows:
        cells = [row.engine, _cell(row.what), _us(row.timing.median), _span(row.timing)]
        if ratios:
            ratio = ""
            if row.engine != "toolpolicy" and row.baseline in base:
                ratio = f"{row.timing.median / base[row.baseline]:.1f}x"
            cells.append(ratio)
        out.append("| " + " | ".join([*cells, _cell(row.includes)]) + " |")
    return out


_STARTS = ("python", "floor", "hook", "hook-engine", "hook-bash", "hook-1000", "check")
"""The processes whose cost is their start: compared with ``python3 -c pass``."""


def _format_processes(rows: Sequence[ProcessRow]) -> list[str]:
    bare = next(row.median for row in rows if row.key == "python")
    out = ["| command | median ms | min-max ms | runs | x python3 -c pass |"]
    out.append("|---|---:|---:|---:|---:|")
    for row in rows:
        ratio = f"{row.median / bare:.2f}x" if row.key in _STARTS else ""
        out.append(
            f"| `{_cell(row.label)}` | {row.median * 1000:,.1f} | "
            f"{row.low * 1000:,.1f}-{row.high * 1000:,.1f} | {row.runs} | {ratio} |"
        )
    return out


def _format_scale(rows: Sequence[ScaleRow]) -> list[str]:
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


@dataclass(frozen=True, slots=True)
class _Results:
    meta: Mapping[str, Any]
    rows: list[Row]
    processes: list[ProcessRow]
    scale: list[ScaleRow]
    shapes: list[ShapeRow]


def _parse(results: Mapping[str, Any]) -> _Results:
    return _Results(
        results["meta"],
        [Row.from_json(row) for row in results["rows"]],
        [ProcessRow(**row) for row in results["processes"]],
        [ScaleRow.from_json(row) for row in results["scale"]],
        [ShapeRow.from_json(row) for row in results["shapes"]],
    )


def _verdict(met: bool | None) -> str:
    return "not measured" if met is None else ("met" if met else "MISSED")


def targets(results: Mapping[str, Any]) -> list[str]:
    """Issue 14's targets, each met, MISSED or not measured, from the public rows."""
    found = _parse(results)
    tp = {row.key: row.timing.median for row in found.rows if _public_tp(row)}
    peers = [row for row in found.rows if row.section == "public" and row.baseline == "read"]
    peers = [row for row in peers if row.engine != "toolpolicy"]
    proc = {row.key: row.median for row in found.processes}
    read = tp["read"]
    out: list[tuple[str, str, bool | None]] = []
    if peers:
        fastest = min(peers, key=lambda row: row.timing.median)
        ratio = fastest.timing.median / read
        value = f"{fastest.engine} {_us(fastest.timing.median)} µs / toolpolicy {_us(read)} µs"
        if "read-same" in tp:
            again = fastest.timing.median / tp["read-same"]
            value += (
                f" = {ratio:.2f}x (the same call again: {_us(tp['read-same'])} µs, {again:.2f}x)"
            )
        else:
            value += f" = {ratio:.2f}x"
        out.append(("read >= 2x faster than the fastest peer's public call", value, ratio >= 2))
    else:
        out.append(("read >= 2x faster than the fastest peer's public call", "no peer", None))
    for key, name, limit in (
        ("read-path-rules", "read under path rules <= 3x plain read", 3.0),
        ("write", "write <= 8x plain read", 8.0),
    ):
        ratio = tp[key] / read
        out.append((name, f"{_us(tp[key])} µs = {ratio:.2f}x", ratio <= limit))
    out.append(("gate + JSONL audit <= 12 µs", f"{_us(tp['gate'])} µs", tp["gate"] * US <= 12))
    out.extend(_process_targets(proc))
    out.extend(_shape_targets(found.shapes))
    for key, name, limit in (
        ("lint", "lint of 1,000 files <= 1.5 s (a process)", 1.5),
        ("diff", "diff of two 1,000-rule policies <= 2 s (issue 13; a process)", 2.0),
        ("diff", "diff of two 1,000-rule policies <= 1 s (issue 14; a process)", 1.0),
    ):
        if key in proc and found.meta["quick"]:
            out.append((name, "--quick ran fewer", None))
        elif key in proc:
            out.append((name, f"{proc[key]:.2f} s", proc[key] <= limit))
        else:
            out.append((name, "", None))
    return [
        f"- {name}: {value} — {_verdict(met)}" if value else f"- {name} — {_verdict(met)}"
        for name, value, met in out
    ]


def _public_tp(row: Row) -> bool:
    return row.section == "public" and row.engine == "toolpolicy"


_PROCESS_TARGETS = (
    ("hook", "hook <= 2x python3 -c pass", "python", 2.0),
    ("hook-bash", "Bash hook event <= 2x python3 -c pass (issue 16)", "python", 2.0),
    ("hook-1000", "1,000-rule hook <= 1.3x P03 hook", "hook", 1.3),
    ("check", "`check` <= 2.5x python3 -c pass", "python", 2.5),
)


def _process_targets(proc: Mapping[str, float]) -> list[tuple[str, str, bool | None]]:
    out: list[tuple[str, str, bool | None]] = []
    for key, name, over, limit in _PROCESS_TARGETS:
        if key not in proc or over not in proc:
            out.append((name, "", None))
            continue
        ratio = proc[key] / proc[over]
        value = f"{proc[key] * 1000:.1f} ms = {ratio:.2f}x"
        if key == "hook" and "floor" in proc:
            value += (
                f" (a stdlib-only process doing the least a hook does: "
                f"{proc['floor'] / proc[over]:.2f}x)"
            )
        out.append((name, value, ratio <= limit))
    return out


def _shape_targets(shapes: Sequence[ShapeRow]) -> list[tuple[str, str, bool | None]]:
    scale = "every shape at the largest size within 2x of its 10-rule decision"
    compile_name = "load + compile 100,000 rules <= 5 s"
    memory = "memory <= 1.5 KB per rule"
    if not shapes:
        return [(scale, "", None), (compile_name, "", None), (memory, "", None)]
    largest = max(row.rules for row in shapes)
    first = {row.shape: row for row in shapes if row.rules == min(r.rules for r in shapes)}
    top = [row for row in shapes if row.rules == largest]
    growth = {
        row.shape: max(
            row.fresh.median / first[row.shape].fresh.median,
            row.matched.median / first[row.shape].matched.median,
        )
        for row in top
    }
    worst = max(growth, key=lambda shape: growth[shape])
    out: list[tuple[str, str, bool | None]] = [
        (
            scale,
            f"{largest:,} rules, worst {worst} {growth[worst]:.2f}x",
            growth[worst] <= 2,
        )
    ]
    at_100k = [row for row in shapes if row.rules == 100_000]
    if at_100k:
        slowest = max(at_100k, key=lambda row: row.load_seconds)
        out.append(
            (
                compile_name,
                f"worst {slowest.shape} {slowest.load_seconds:.2f} s",
                slowest.load_seconds <= 5,
            )
        )
    else:
        out.append((compile_name, f"largest run {largest:,} rules", None))
    heaviest = max(top, key=lambda row: row.bytes_per_rule)
    out.append(
        (
            memory,
            f"{largest:,} rules, worst {heaviest.shape} {heaviest.bytes_per_rule:,.0f} bytes",
            heaviest.bytes_per_rule <= 1.5 * KB,
        )
    )
    return out


def render(results: Mapping[str, Any]) -> str:
    """The whole Markdown report, from the results alone (no clock, no machine read)."""
    found = _parse(results)
    meta = found.meta
    load = meta["load"]
    lines = [
        f"Measured {meta['date']} with `{meta['command']}` on {meta['cpu']} "
        f"({meta['cores']} cores), {meta['python']}; load average "
        f"{load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} at the start, "
        f"{meta['load_end'][0]:.2f} at the end; {meta['clock']} clock; decisions: median of "
        f"{meta['runs']} runs x {meta['chunks']} chunk means, every row interleaved (the "
        "fsync rows among themselves, after the others: an fsync slows the writes after it). "
        f"The engines: {', '.join(meta['engines'])}. The pre-check passed first "
        "(every engine decided every request as expected).",
        "",
        "**Public calls**, toolpolicy and each peer in the same run "
        "(x toolpolicy: a peer's row over toolpolicy's row of the same request):",
        "",
        *_format_rows(_public_order(found.rows), ratios=True),
    ]
    if found.processes:
        lines += [
            "",
            "**Processes** (wall time of the whole process, as an agent or a user starts it):",
            "",
            *_format_processes(found.processes),
        ]
    lines += [
        "",
        "**Targets of issue 14**, judged on the public rows above (toolpolicy's with a new path "
        "on every call, which no memo answers) and the processes:",
        "",
        *targets(results),
    ]
    if found.shapes:
        lines += [
            "",
            "**Scale, every rule shape** (`bench/compare_scale.py`; public `check`; fresh: a "
            "new unmatched call each time, matched: a new call only the last rule matches, "
            "repeated: the same unmatched call; growth against 10 rules):",
            "",
            *format_shapes(found.shapes),
        ]
    if found.scale:
        lines += [
            "",
            "**Scale against the peers** (`dir<i>/**` deny rules over 100 tools; toolpolicy's "
            "public `check` with a new file name each call; unmatched and matched read):",
            "",
            *_format_scale(found.scale),
        ]
    lines += [
        "",
        "**Internal calls** (no user makes these: a request prepared once, knobs folded "
        "once; they show what the public call adds):",
        "",
        *_format_rows([r for r in found.rows if r.section == "internal"], ratios=False),
    ]
    return "\n".join(lines) + "\n"


def readme_section(results: Mapping[str, Any]) -> str:
    """What goes between the README's markers: the report, between the markers."""
    return f"{BEGIN}\n{render(results)}{END}"


def replace_section(text: str, results: Mapping[str, Any]) -> str:
    """``text`` (a README) with its marked section replaced by the rendered report."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"the file has no {BEGIN} ... {END} section")
    return text[:start] + readme_section(results) + text[end + len(END) :]


# --- measuring ------------------------------------------------------------------------------


def _cpu_model() -> str:
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def _meta(
    argv: Sequence[str], settings: Settings, engines: list[str], *, quick: bool
) -> dict[str, Any]:
    return {
        "command": shlex.join(["python", "bench/compare.py", *argv]),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "load": list(os.getloadavg()),
        "clock": "cpu" if settings.cpu else "wall",
        "runs": settings.runs,
        "chunks": settings.chunks,
        "engines": engines,
        "quick": quick,
    }


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--engines",
        default=",".join(PEER_NAMES),
        help="comma-separated peers to include (toolpolicy always runs; 'none' for none)",
    )
    parser.add_argument("--check-only", action="store_true", help="run the pre-check only")
    parser.add_argument("--quick", action="store_true", help="short runs (smoke test)")
    parser.add_argument("--no-scale", action="store_true", help="skip the peers' scale rows")
    parser.add_argument(
        "--max-rules",
        type=int,
        default=max(SHAPE_SIZES),
        help="largest size of the every-shape scale bench (0: skip it)",
    )
    parser.add_argument(
        "--no-processes", action="store_true", help="skip hook, check, lint and diff"
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall clock (default) or this thread's CPU time (steadier on a busy machine; "
        "does not count waiting, e.g. for fsync)",
    )
    parser.add_argument("--json", metavar="FILE", help="write the raw results as JSON")
    parser.add_argument(
        "--from-json", metavar="FILE", help="render recorded results instead of measuring"
    )
    parser.add_argument(
        "--write-readme",
        metavar="FILE",
        help=f"replace the section between {BEGIN} and {END} in FILE with the report",
    )
    return parser.parse_args(argv)


def _progress(text: str) -> None:
    print(f"... {text}", file=sys.stderr, flush=True)


def _prechecked(
    subject: ToolPolicySubject,
    peers: Sequence[Peer],
    scale_set: Sequence[ScaleSubject],
    commands: ToolPolicySubject,
    paths: ToolPolicySubject,
) -> bool:
    """Whether every engine decides every request as expected (else say which did not)."""
    problems = precheck(subject, peers, scale_set, commands, paths)
    if problems:
        print("pre-check FAILED: an engine gave the wrong decision", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
    return not problems


def _measure(args: argparse.Namespace, argv: Sequence[str]) -> dict[str, Any] | None:
    """Pre-check, then every measurement; None when the pre-check failed."""
    wanted = [] if args.engines == "none" else args.engines.split(",")
    cpu = args.clock == "cpu"
    settings = Settings(runs=3, chunks=5, cpu=cpu)
    scale_settings = settings
    if not args.quick:
        settings = Settings(cpu=cpu)
        scale_settings = Settings(runs=3, chunks=9, max_calls_per_chunk=20_000, cpu=cpu)
    with workspace() as ws:
        subject = ToolPolicySubject(ws)
        commands = ToolPolicySubject(ws, [write_command_policy(ws.scratch)])
        paths = ToolPolicySubject(ws, [write_path_policy(ws.scratch)])
        installed, missing = available_peers(ws)
        peers = [peer for peer in installed if peer.name in wanted]
        skipped = sorted(name for name in missing if name in wanted)
        if skipped:
            print(f"not installed, skipped: {', '.join(skipped)}")
        # The scale subjects (policies of up to 100,000 rules for every engine) are built
        # after the headline rows are timed: those measure the public calls in a process
        # that holds one policy, as a user's does (with the scale subjects alive, the
        # allocating rows were up to twice as slow, and varied from run to run).
        if not _prechecked(subject, peers, [], commands, paths):
            return None
        engines = ["toolpolicy", *(peer.title for peer in peers)]
        print(
            f"pre-check passed: every engine ({', '.join(p.split()[0] for p in engines)}) "
            f"decided all {len(CASES)} requests"
        )
        if args.check_only:
            return {}
        meta = _meta(argv, settings, engines, quick=args.quick)
        _progress("decisions")
        rows = _decision_rows(subject, commands, paths, peers, settings)
        _progress("scale against the peers")
        scale_set: list[ScaleSubject] = []
        if not args.no_scale:
            for count in SCALE_SIZES:
                scale_set.extend(scale_subjects(ws, count, peers))
            if not _prechecked(subject, peers, scale_set, commands, paths):
                return None
        scale = _scale_rows(scale_set, scale_settings) if scale_set else []
        scale_set.clear()  # the shapes' load and compile times are measured without them
        gc.collect()
        shapes: list[ShapeRow] = []
        if args.max_rules > 0:
            sizes = sorted({s for s in SHAPE_SIZES if s <= args.max_rules} | {args.max_rules})
            shapes, problems = measure_shapes(
                ws,
                sizes,
                settings=Settings(runs=1, chunks=3) if args.quick else None,
                progress=_progress,
            )
            if problems:
                print("pre-check FAILED:\n" + "\n".join(problems), file=sys.stderr)
                return None
        processes: list[ProcessRow] = []
        if not args.no_processes:
            _progress("processes")
            processes = time_processes(ws, 3 if args.quick else 20, quick=args.quick)
        meta["load_end"] = list(os.getloadavg())
    return {
        "meta": meta,
        "rows": [row.to_json() for row in rows],
        "processes": [row.to_json() for row in processes],
        "scale": [row.to_json() for row in scale],
        "shapes": [row.to_json() for row in shapes],
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Pre-check, time, print; 0 when every engine agreed, 1 on a mismatch, 2 for an
    unknown engine."""
    given = list(sys.argv[1:] if argv is None else argv)
    args = _arguments(given)
    wanted = [] if args.engines == "none" else args.engines.split(",")
    unknown = sorted(set(wanted) - set(PEER_NAMES))
    if unknown:
        print(f"unknown engines: {', '.join(unknown)}", file=sys.stderr)
        return 2
    if args.from_json:
        with open(args.from_json, encoding="utf-8") as handle:
            results = json.load(handle)
    else:
        measured = _measure(args, given)
        if measured is None:
            return 1
        if args.check_only:
            return 0
        results = measured
    print(render(results), end="")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=1, ensure_ascii=False)
            handle.write("\n")
    if args.write_readme:
        with open(args.write_readme, encoding="utf-8") as handle:
            text = handle.read()
        with open(args.write_readme, "w", encoding="utf-8") as handle:
            handle.write(replace_section(text, results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
