"""``ScriptedModel``: replays replies from a JSONL file, one reply per line.

Each non-blank line is one JSON object::

    {"content": "the final answer"}
    {"tool_calls": [{"id": "call_1", "name": "glob", "arguments": {"pattern": "*.py"}}]}

``arguments`` is a JSON string (kept verbatim, so invalid JSON reaches the tool registry) or
an object. ``content`` and ``tool_calls`` may appear together; ``finish_reason`` (``stop``,
``tool_calls``, ``length``, ``content_filter``) is optional. The whole file is checked when
it is loaded, so a bad line fails the run before any tool runs. The script ignores what the
history says; running out of lines is an ``IncompleteModelReplyError``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.errors import ConfigurationError
from ..tools.registry import ToolCall
from .errors import IncompleteModelReplyError, ModelResponseError
from .messages import Message
from .model import FinishReason, ModelReply

__all__ = ["MAX_SCRIPT_BYTES", "ScriptedModel", "parse_script"]

MAX_SCRIPT_BYTES = 16 * 1024 * 1024
_REPLY_KEYS = frozenset({"content", "tool_calls", "finish_reason"})
_CALL_KEYS = frozenset({"id", "name", "arguments"})


class ScriptedModel:
    """A model client that returns the scripted replies in order."""

    __slots__ = ("_name", "_next", "_replies")

    def __init__(self, replies: Sequence[ModelReply], name: str = "script") -> None:
        self._replies = tuple(replies)
        self._name = name
        self._next = 0

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> ScriptedModel:
        """Load a JSONL script; ``ConfigurationError`` names the file and line of a bad reply."""
        name = os.fspath(path)
        try:
            with open(name, "rb") as stream:
                data = stream.read(MAX_SCRIPT_BYTES + 1)
        except OSError as exc:
            raise ConfigurationError(f"cannot read script {name}: {exc.strerror}") from None
        if len(data) > MAX_SCRIPT_BYTES:
            raise ConfigurationError(f"{name}: script is larger than {MAX_SCRIPT_BYTES} bytes")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ConfigurationError(f"{name}: script is not UTF-8") from None
        return cls(parse_script(text, name), name)

    @property
    def remaining(self) -> int:
        """How many replies have not been returned yet."""
        return len(self._replies) - self._next

    def complete(
        self, history: Sequence[Message], tools: Sequence[Mapping[str, Any]]
    ) -> ModelReply:
        """The next scripted reply."""
        if self._next >= len(self._replies):
            raise IncompleteModelReplyError(
                "exhausted",
                f"the script {self._name} has no reply left (all {len(self._replies)} were used)",
            )
        reply = self._replies[self._next]
        self._next += 1
        return reply


def parse_script(text: str, name: str = "script") -> tuple[ModelReply, ...]:
    """Every reply of a JSONL script; blank lines are skipped."""
    replies: list[ModelReply] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            replies.append(_reply(_load_object(line)))
        except (ValueError, ModelResponseError) as exc:
            raise ConfigurationError(f"{name}:{number}: {exc}") from None
    return tuple(replies)


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _load_object(line: str) -> dict[str, Any]:
    try:
        value = json.loads(line, object_pairs_hook=_reject_duplicates)
    except RecursionError:
        raise ValueError("reply is nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON: {exc.msg} (column {exc.colno})") from None
    if not isinstance(value, dict):
        raise ValueError("a reply must be a JSON object")
    return value


def _reply(raw: dict[str, Any]) -> ModelReply:
    unknown = sorted(set(raw) - _REPLY_KEYS)
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r} (keys: content, tool_calls, finish_reason)")
    content = raw.get("content")
    if content is not None and not isinstance(content, str):
        raise ValueError("content must be a string")
    calls_raw = raw.get("tool_calls", [])
    if not isinstance(calls_raw, list):
        raise ValueError("tool_calls must be a list")
    calls = tuple(_call(index, item) for index, item in enumerate(calls_raw))
    default = FinishReason.TOOL_CALLS if calls else FinishReason.STOP
    finish = raw.get("finish_reason", default.value)
    if finish not in {f.value for f in FinishReason}:
        raise ValueError(f"unknown finish_reason {finish!r}")
    return ModelReply(content, calls, FinishReason(finish))


def _call(index: int, item: object) -> ToolCall:
    where = f"tool_calls[{index}]"
    if not isinstance(item, dict):
        raise ValueError(f"{where} must be an object")
    keys = set(item)
    if keys != _CALL_KEYS:
        missing, extra = sorted(_CALL_KEYS - keys), sorted(keys - _CALL_KEYS)
        problem = f"needs {missing[0]!r}" if missing else f"has unknown key {extra[0]!r}"
        raise ValueError(f"{where} {problem} (keys: id, name, arguments)")
    call_id, name, arguments = item["id"], item["name"], item["arguments"]
    if not isinstance(call_id, str) or not isinstance(name, str):
        raise ValueError(f"{where}: id and name must be strings")
    if not isinstance(arguments, str | dict):
        raise ValueError(f"{where}: arguments must be a JSON string or an object")
    return ToolCall(call_id, name, arguments)
