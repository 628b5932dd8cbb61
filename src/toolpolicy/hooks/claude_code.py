"""Claude Code's PreToolUse event, mapped onto toolpolicy's tools, and the answer it expects.

Claude Code sends ``{"hook_event_name": "PreToolUse", "session_id", "cwd", "tool_name",
"tool_input", "tool_use_id", ...}`` and reads ``{"hookSpecificOutput": {"hookEventName":
"PreToolUse", "permissionDecision": "allow"|"deny"|"ask", "permissionDecisionReason": ...}}``.
Paths arrive absolute: a path inside ``cwd`` (the workspace) becomes relative, a path outside
stays absolute, so the workspace boundary denies a write there. A tool with no counterpart
here (``mcp__server__tool``, ``WebFetch`` ...) is decided by name with the ``execute``
effect: the default is ask, never a silent allow.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from ..core.decision import Decision
from ..core.vocabulary import Effect
from ..tools.arguments import ArgumentSpec
from ..tools.registry import PreparedCall, ToolCall, ToolDefinition, ToolSnapshot

__all__ = ["HookError", "HookEvent", "answer", "parse_event", "prepare_event"]

MAX_EVENT_BYTES = 8 * 1024 * 1024
_EXTERNAL_SPEC = ArgumentSpec(())


class HookError(ValueError):
    """The event cannot be decided: the hook exits 2 (Claude Code blocks the call)."""


class HookEvent(NamedTuple):
    """The fields of a PreToolUse event that a decision needs."""

    session_id: str
    tool_use_id: str
    cwd: str
    tool_name: str
    tool_input: Mapping[str, Any]


def parse_event(raw: bytes) -> HookEvent:
    """Parse and check one event; anything unexpected is a ``HookError``."""
    if len(raw) > MAX_EVENT_BYTES:
        raise HookError("event is larger than 8 MiB")
    try:
        event = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise HookError("stdin is not a JSON event") from None
    if not isinstance(event, dict):
        raise HookError("the event is not a JSON object")
    name = event.get("hook_event_name")
    if name != "PreToolUse":
        raise HookError(f"expected a PreToolUse event, got {name!r}")
    fields = {k: event.get(k) for k in ("session_id", "cwd", "tool_name")}
    for key, value in fields.items():
        if not isinstance(value, str) or not value:
            raise HookError(f"the event has no {key}")
    tool_input = event.get("tool_input", {})
    if not isinstance(tool_input, dict):
        raise HookError("tool_input is not an object")
    cwd = str(fields["cwd"])
    if not os.path.isabs(cwd) or not os.path.isdir(cwd):
        raise HookError(f"cwd is not an existing absolute directory: {cwd}")
    tool_use_id = event.get("tool_use_id")
    return HookEvent(
        session_id=str(fields["session_id"]),
        tool_use_id=tool_use_id if isinstance(tool_use_id, str) else "",
        cwd=cwd,
        tool_name=str(fields["tool_name"]),
        tool_input=MappingProxyType(tool_input),
    )


def relative_to_workspace(path: str, cwd: str) -> str:
    """``path`` relative to ``cwd`` when it is inside it; otherwise unchanged (absolute).

    The agent's own tool, not ours, opens the path, so it is read the way the kernel reads
    it: ``~`` is the home folder, and a ``..`` after a symlinked folder climbs from the
    link's target — the path is resolved before it is compared, never normalized as text.
    """
    if path.startswith("~"):
        path = os.path.expanduser(path)
    if not os.path.isabs(path):
        path = os.path.join(cwd, path)
    parts = path.split(os.sep)
    target = os.path.realpath(path) if ".." in parts else os.path.normpath(path)
    for root in dict.fromkeys((os.path.normpath(cwd), os.path.realpath(cwd))):
        if target == root:
            return "."
        if target.startswith(root.rstrip(os.sep) + os.sep):
            return os.path.relpath(target, root)
    return target


def _text(tool_input: Mapping[str, Any], key: str) -> str:
    value = tool_input.get(key)
    if not isinstance(value, str):
        raise HookError(f"tool_input.{key} is not a string")
    return value


def _mapped(event: HookEvent) -> tuple[str, dict[str, object]] | None:
    given, cwd, name = event.tool_input, event.cwd, event.tool_name
    if name == "Bash":
        return "shell", {"command": _text(given, "command")}
    if name in ("Read", "LS", "Grep"):
        key = "file_path" if name == "Read" else "path"
        raw = given.get(key)
        path = raw if isinstance(raw, str) and raw else cwd
        return "read_file", {"path": relative_to_workspace(path, cwd)}
    if name == "Glob":
        return "glob", {"pattern": _text(given, "pattern")}
    if name == "Write":
        path = relative_to_workspace(_text(given, "file_path"), cwd)
        return "write_file", {"path": path, "content": _text(given, "content")}
    if name in ("Edit", "MultiEdit", "NotebookEdit"):
        key = "notebook_path" if name == "NotebookEdit" else "file_path"
        path = relative_to_workspace(_text(given, key), cwd)
        edits = given.get("edits")
        first = (
            edits[0] if isinstance(edits, list) and edits and isinstance(edits[0], dict) else given
        )
        old, new = first.get("old_string", ""), first.get("new_string", given.get("new_source", ""))
        return "edit_file", {
            "path": path,
            "old_string": old if isinstance(old, str) else "",
            "new_string": new if isinstance(new, str) else "",
        }
    return None


def prepare_event(event: HookEvent, tools: ToolSnapshot) -> PreparedCall:
    """The prepared call for ``event``: a built-in tool, or the external tool by name."""
    mapped = _mapped(event)
    if mapped is not None:
        tool, arguments = mapped
        return tools.prepare(ToolCall(event.tool_use_id, tool, arguments))
    definition = ToolDefinition(
        name=event.tool_name,
        description="a tool of the calling agent",
        arguments=_EXTERNAL_SPEC,
        effect=Effect.EXECUTE,
    )
    return PreparedCall(
        ToolCall(event.tool_use_id, event.tool_name, dict(event.tool_input)),
        definition=definition,
        arguments=MappingProxyType(dict(event.tool_input)),
    )


def answer(decision: Decision) -> dict[str, Any]:
    """Claude Code's hook output for a final allow, ask or deny."""
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": decision.behavior.label,
            "permissionDecisionReason": decision.reason,
        }
    }
