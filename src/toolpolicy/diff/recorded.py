"""Recorded calls to replay in a diff: a JSONL file of ``{"tool", "arguments"}`` lines.

Also accepted, line by line: a toolpolicy audit record (``tool`` and ``arguments``, which
an audit carries when recorded with ``--audit-arguments``: secret-looking values and
``content`` are replaced by strings, which decide the same; a record with just
``arguments_sha256`` is not replayable, and counted) and a scripted model reply
(``{"tool_calls": [{"name", "arguments"}]}``; a reply with only ``content`` holds no
call). ``arguments`` may be an object or the JSON string a model sent. Blank lines are
ignored. Anything else — a line that is not JSON, not an object, or has no tool name —
stops the replay with :class:`RecordedCallsError` at
``file:line``. The file, each line and the number of calls are bounded.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass

from ..core.errors import ToolPolicyError
from .probes import Probe

__all__ = [
    "MAX_CALLS",
    "MAX_FILE_BYTES",
    "MAX_LINE_BYTES",
    "RecordedCalls",
    "RecordedCallsError",
    "read_recorded_calls",
]

MAX_FILE_BYTES = 256 * 1024 * 1024
MAX_LINE_BYTES = 8 * 1024 * 1024
MAX_CALLS = 100_000
MAX_TOOL_NAME = 256


class RecordedCallsError(ToolPolicyError):
    """A calls file that cannot be replayed; the message starts with ``file:line:``."""


@dataclass(frozen=True, slots=True)
class RecordedCalls:
    """The replayable calls of a file and how many lines were skipped (no arguments)."""

    path: str
    probes: tuple[Probe, ...]
    skipped: int


def read_recorded_calls(path: str) -> RecordedCalls:
    """Read ``path`` (see the module docstring); ``RecordedCallsError`` on any bad line."""
    if os.path.getsize(path) > MAX_FILE_BYTES:
        raise RecordedCallsError(f"{path}: larger than {MAX_FILE_BYTES} bytes")
    probes: list[Probe] = []
    skipped = 0
    with open(path, "rb") as stream:
        for number, raw in enumerate(stream, start=1):
            where = f"{path}:{number}"
            if len(raw) > MAX_LINE_BYTES:
                raise RecordedCallsError(f"{where}: line longer than {MAX_LINE_BYTES} bytes")
            if not raw.strip():
                continue
            try:
                value = json.loads(raw)
            except (ValueError, RecursionError) as exc:
                raise RecordedCallsError(f"{where}: not JSON: {_first_line(exc)}") from None
            if not isinstance(value, dict):
                raise RecordedCallsError(f"{where}: expected a JSON object")
            calls = _calls(value, where)
            if calls is None:
                skipped += 1
                continue
            probes.extend(Probe(tool, arguments, f"recorded {where}") for tool, arguments in calls)
            if len(probes) > MAX_CALLS:
                raise RecordedCallsError(f"{where}: more than {MAX_CALLS} calls")
    return RecordedCalls(path, tuple(probes), skipped)


def _calls(
    value: Mapping[str, object], where: str
) -> list[tuple[str, Mapping[str, object] | str]] | None:
    """The calls of one line; ``None`` for an audit record without raw arguments."""
    if "tool_calls" in value:
        items = value["tool_calls"]
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            raise RecordedCallsError(f"{where}: tool_calls must be a list of objects")
        return [
            (_tool(item.get("name"), where), _arguments(item.get("arguments"), where))
            for item in items
        ]
    if "tool" not in value and "content" in value:
        return []
    tool = _tool(value.get("tool"), where)
    if "arguments" not in value:
        if "arguments_sha256" in value:
            return None
        raise RecordedCallsError(f'{where}: expected {{"tool", "arguments"}}')
    return [(tool, _arguments(value["arguments"], where))]


def _tool(name: object, where: str) -> str:
    if not isinstance(name, str) or not name or len(name) > MAX_TOOL_NAME:
        raise RecordedCallsError(f"{where}: the tool name must be a non-empty string")
    return name


def _arguments(raw: object, where: str) -> Mapping[str, object] | str:
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        try:
            parsed = json.loads(raw) if raw.strip() else {}
        except (ValueError, RecursionError):
            return raw
        return parsed if isinstance(parsed, dict) else raw
    raise RecordedCallsError(f"{where}: arguments must be a JSON object or a JSON string")


def _first_line(exc: BaseException) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
