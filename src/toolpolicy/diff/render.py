"""The three output formats of a diff: ``text`` (a table for a terminal), ``json`` (for
tools) and ``markdown`` (a table to paste into a pull request).

Each renderer is a function of a :class:`DiffReport` and ``show_all`` (also list the probes
that agree); ``RENDERERS`` maps the ``--format`` names to them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core.json_text import encoder
from .compare import Change, DiffReport, Outcome, ProbeResult
from .probes import Probe

__all__ = ["RENDERERS", "call_text", "render_json", "render_markdown", "render_text"]

FACTS_NOTE = (
    "Facts the rules cannot see (the workspace boundary, symlinks, the protected set) are "
    "the same on both sides; the physical probes check how each side treats them."
)
REGIONS_TITLE = "Argument regions (every value the rules tell apart, shortest witness)"
PHYSICAL_TITLE = "Physical probes (boundary, symlink, reserved name)"
RECORDED_TITLE = "Recorded calls"
RECORDED_ORIGIN = "recorded "
MAX_CALL_CHARS = 100
MAX_VALUE_CHARS = 48
_HEADERS = ("CALL", "LEFT", "RIGHT", "CHANGE")
_ENTRY_JSON = encoder(ensure_ascii=False)


def call_text(probe: Probe, *, compact: bool = False) -> str:
    """The call on one line, non-printable characters escaped: ``tool {"argument": ...}``,
    or with ``compact`` (the text table) ``tool argument=value ...`` with long values and
    the whole line cut (JSON always has the full call)."""
    arguments = probe.arguments
    if isinstance(arguments, str):
        shown = arguments
    elif compact:
        shown = " ".join(f"{k}={_compact_value(v)}" for k, v in arguments.items())
    else:
        shown = json.dumps(arguments, ensure_ascii=False)
    text = _printable(f"{probe.tool} {shown}")
    return _cut(text, MAX_CALL_CHARS) if compact else text


def render_text(report: DiffReport, show_all: bool = False) -> str:
    """Both sides, one table per section (argument regions, physical probes, recorded
    calls), each row with the rules that decide its region, and the verdict."""
    lines = [f"left:  {_printable(report.left)}", f"right: {_printable(report.right)}"]
    lines.append(f"calls: {_counts(report)}{_recorded_note(report)}")
    shown = False
    for title, rows in _sections(report, show_all):
        if not rows:
            continue
        shown = True
        lines.extend(["", f"{title}:"])
        cells = [_HEADERS] + [
            (
                call_text(r.probe, compact=True),
                _outcome_text(r.left),
                _outcome_text(r.right),
                r.change.value,
            )
            for r in rows
        ]
        widths = [max(len(row[i]) for row in cells) for i in range(3)]
        for index, row in enumerate(cells):
            padded = [row[i].ljust(widths[i]) for i in range(3)]
            lines.append("  " + "  ".join([*padded, row[3]]))
            region = rows[index - 1].probe.region if index else None
            if region is not None:
                lines.append("      " + _printable(region.describe()))
    if not shown:
        lines.extend(["", "no differences"])
    lines.extend(["", FACTS_NOTE, "", f"verdict: {report.verdict.value} ({_summary(report)})"])
    return "\n".join(lines)


def render_json(report: DiffReport, show_all: bool = False) -> str:
    """``{"left", "right", "verdict", "probes", "regions", "summary", "recorded", "facts",
    "differences"}``, and ``"agreeing"`` with ``show_all``. Each entry has ``call`` (the
    region's witness), ``origin``, ``left``, ``right``, ``change`` and ``region`` (``null``
    for a physical probe or a recorded call)."""
    head: dict[str, Any] = {
        "left": report.left,
        "right": report.right,
        "verdict": report.verdict.value,
        "probes": len(report.results),
        "regions": report.regions,
        "summary": {c.value: report.count(c) for c in (Change.WIDEN, Change.NARROW, Change.SAME)},
        "recorded": None
        if report.calls_file is None
        else {"file": report.calls_file, "replayed": report.replayed, "skipped": report.skipped},
        "facts": FACTS_NOTE,
    }
    lists = {"differences": report.differences}
    if show_all:
        lists["agreeing"] = tuple(r for r in report.results if r.change is Change.NONE)
    text = json.dumps(head, ensure_ascii=False, indent=2)
    tail = ",\n".join(f"  {json.dumps(key)}: {_entry_lines(rows)}" for key, rows in lists.items())
    return f"{text[:-2]},\n{tail}\n}}"


def _entry_lines(rows: Sequence[ProbeResult]) -> str:
    """A JSON array with one compact entry per line (tens of thousands of entries render
    many times faster than indented ones, and still diff line by line)."""
    if not rows:
        return "[]"
    lines = [f"    {_ENTRY_JSON(_entry(result))}" for result in rows]
    return "[\n" + ",\n".join(lines) + "\n  ]"


def render_markdown(report: DiffReport, show_all: bool = False) -> str:
    """A heading, the verdict and a table per section to paste into a pull request."""
    lines = [
        f"### toolpolicy diff: {_code(report.left)} → {_code(report.right)}",
        "",
        f"**Verdict: {report.verdict.value}** ({_summary(report)}){_recorded_note(report)}.",
    ]
    for title, rows in _sections(report, show_all):
        if not rows:
            continue
        lines.extend(["", f"#### {title}", ""])
        lines.extend(
            ["| call | left | right | change | region |", "| --- | --- | --- | --- | --- |"]
        )
        for r in rows:
            cells = (
                _code(call_text(r.probe)),
                _outcome_markdown(r.left),
                _outcome_markdown(r.right),
                f"**{r.change.value}**" if r.change in _MOVES else r.change.value,
                "" if r.probe.region is None else _printable(r.probe.region.describe()),
            )
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    lines.extend(["", f"_{FACTS_NOTE}_"])
    return "\n".join(lines)


RENDERERS: Mapping[str, Callable[[DiffReport, bool], str]] = {
    "text": render_text,
    "json": render_json,
    "markdown": render_markdown,
}

_MOVES = (Change.WIDEN, Change.NARROW)


def _sections(report: DiffReport, show_all: bool) -> list[tuple[str, list[ProbeResult]]]:
    rows = report.results if show_all else report.differences
    return [
        (title, [r for r in rows if _section(r) == title])
        for title in (REGIONS_TITLE, PHYSICAL_TITLE, RECORDED_TITLE)
    ]


def _section(result: ProbeResult) -> str:
    if result.probe.region is not None:
        return REGIONS_TITLE
    if result.probe.origin.startswith(RECORDED_ORIGIN):
        return RECORDED_TITLE
    return PHYSICAL_TITLE


def _counts(report: DiffReport) -> str:
    regions = sum(1 for r in report.results if r.probe.region is not None)
    recorded = sum(1 for r in report.results if _section(r) == RECORDED_TITLE)
    return (
        f"{regions} for {report.regions} argument regions, "
        f"{len(report.results) - regions - recorded} physical probes, {recorded} recorded"
    )


def _entry(result: ProbeResult) -> dict[str, Any]:
    probe = result.probe
    return {
        "call": {"tool": probe.tool, "arguments": probe.arguments},
        "origin": probe.origin,
        "left": result.left.to_json(),
        "right": result.right.to_json(),
        "change": result.change.value,
        "region": None if probe.region is None else probe.region.to_json(),
    }


def _summary(report: DiffReport) -> str:
    moved = report.count(Change.WIDEN) + report.count(Change.NARROW)
    return (
        f"{moved} of {len(report.results)} calls decided differently: "
        f"{report.count(Change.WIDEN)} widen, {report.count(Change.NARROW)} narrow; "
        f"{report.count(Change.SAME)} same behavior with a different source"
        + (f"; {report.incomplete}" if report.incomplete else "")
    )


def _recorded_note(report: DiffReport) -> str:
    if report.calls_file is None:
        return ""
    return (
        f" (replayed {report.replayed} recorded calls from {_printable(report.calls_file)}; "
        f"{report.skipped} lines not replayable: no arguments recorded "
        "(record with --audit-arguments))"
    )


def _outcome_text(outcome: Outcome) -> str:
    text = f"{outcome.behavior.label} ({_printable(outcome.source)})"
    return text if outcome.sandbox is None else f"{text} [{outcome.sandbox.value}]"


def _outcome_markdown(outcome: Outcome) -> str:
    text = f"{outcome.behavior.label} ({_code(outcome.source)})"
    return text if outcome.sandbox is None else f"{text} in {outcome.sandbox.value}"


def _compact_value(value: object) -> str:
    """A plain word as is, anything else as JSON; long values cut."""
    if isinstance(value, str) and value and not any(c.isspace() or c in "\"'=" for c in value):
        return _cut(value, MAX_VALUE_CHARS)
    return _cut(json.dumps(value, ensure_ascii=False), MAX_VALUE_CHARS)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _printable(text: str) -> str:
    """Escape what a terminal or a table would interpret (control characters, newlines)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def _code(text: str) -> str:
    """A markdown code span that survives any backticks inside ``text``."""
    text = _printable(text)
    longest = run = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"
