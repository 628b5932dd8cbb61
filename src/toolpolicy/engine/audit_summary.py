"""``toolpolicy audit show``: what an agent did, summarised from a JSONL audit file.

Counts by tool, behaviour and source, the rules that matched most, every deny with its reason,
every ask with its outcome (answered, cancelled, unavailable, rejected by ``never``; and
``executed`` when a later ``PostToolUse`` record of the hook says the call ran), and a view
per session. Lines that are not decision records are counted, never fatal.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from ..core.lean_typing import NamedTuple

__all__ = ["AuditSummary", "summarize_audit"]

EXECUTED_EVENT = "PostToolUse"


class SessionView(NamedTuple):
    """One session: its first and last timestamps and its decisions by behaviour."""

    session_id: str
    first: str
    last: str
    behaviors: Mapping[str, int]


class AuditSummary(NamedTuple):
    """Everything ``audit show`` prints; ``to_json`` is its ``--format json``."""

    records: int
    skipped: int
    counts: Mapping[tuple[str, str, str], int]
    rules: Mapping[str, int]
    denies: tuple[Mapping[str, Any], ...]
    asks: tuple[Mapping[str, Any], ...]
    sessions: tuple[SessionView, ...]

    def to_json(self) -> dict[str, object]:
        """A JSON object with the same content as the text view."""
        return {
            "records": self.records,
            "skipped_lines": self.skipped,
            "counts": [
                {"tool": tool, "behavior": behavior, "source": source, "count": count}
                for (tool, behavior, source), count in sorted(self.counts.items())
            ],
            "rules": [{"rule": rule, "count": count} for rule, count in _ranked(self.rules)],
            "denies": list(self.denies),
            "asks": list(self.asks),
            "sessions": [view._asdict() for view in self.sessions],
        }


def _ranked(counter: Mapping[str, int]) -> list[tuple[str, int]]:
    return sorted(counter.items(), key=lambda item: (-item[1], item[0]))


def _records(path: str | os.PathLike[str]) -> tuple[list[dict[str, Any]], int]:
    records: list[dict[str, Any]] = []
    skipped = 0
    with open(path, encoding="utf-8", errors="replace") as stream:
        for line in stream:
            try:
                value = json.loads(line)
            except ValueError:
                skipped += 1
                continue
            if isinstance(value, dict) and isinstance(value.get("tool"), str):
                records.append(value)
            else:
                skipped += 1
    return records, skipped


def _text(record: Mapping[str, Any], key: str) -> str:
    value = record.get(key)
    return value if isinstance(value, str) else ""


def summarize_audit(path: str | os.PathLike[str], since: str | None = None) -> AuditSummary:
    """Summarise the decisions of ``path`` whose ``ts`` is at or after ``since`` (an RFC 3339
    prefix such as ``2026-11-30`` or ``2026-11-30T12:00``; compared as text, as written)."""
    records, skipped = _records(path)
    if since is not None:
        records = [r for r in records if _text(r, "ts") >= since]
    executed = {_text(r, "call_id") for r in records if _text(r, "event") == EXECUTED_EVENT}
    decisions = [r for r in records if _text(r, "event") != EXECUTED_EVENT]
    counts: Counter[tuple[str, str, str]] = Counter(
        (_text(r, "tool"), _text(r, "behavior"), _text(r, "source")) for r in decisions
    )
    rules: Counter[str] = Counter(
        rule for r in decisions for rule in r.get("matched_rules") or () if isinstance(rule, str)
    )
    denies = tuple(
        {k: r.get(k) for k in ("ts", "session_id", "call_id", "tool", "source", "reason")}
        for r in decisions
        if r.get("behavior") == "deny" and r.get("approval_outcome") is None
    )
    asks = tuple(
        {
            **{k: r.get(k) for k in ("ts", "session_id", "call_id", "tool", "reason")},
            "outcome": r.get("approval_outcome"),
            "behavior": r.get("behavior"),
            "executed": _text(r, "call_id") in executed,
        }
        for r in decisions
        if r.get("approval_outcome") is not None or r.get("behavior") == "ask"
    )
    return AuditSummary(
        records=len(decisions),
        skipped=skipped,
        counts=dict(counts),
        rules=dict(rules),
        denies=denies,
        asks=asks,
        sessions=_sessions(decisions),
    )


def _sessions(records: Iterable[Mapping[str, Any]]) -> tuple[SessionView, ...]:
    spans: dict[str, tuple[str, str, Counter[str]]] = {}
    for record in records:
        session, ts = _text(record, "session_id"), _text(record, "ts")
        first, last, behaviors = spans.get(session, (ts, ts, Counter()))
        behaviors[_text(record, "behavior")] += 1
        spans[session] = (min(first, ts), max(last, ts), behaviors)
    return tuple(
        SessionView(session, first, last, dict(behaviors))
        for session, (first, last, behaviors) in sorted(spans.items(), key=lambda i: i[1][0])
    )
