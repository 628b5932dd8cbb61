"""An agent's hook event read from stdin: one JSON object, checked before anything is decided.

Claude Code, Codex CLI, Gemini CLI and Copilot CLI's Claude-compatible form all send the same
snake_case fields (``hook_event_name``, ``session_id``, ``cwd``, ``tool_name``,
``tool_input``, optional ``tool_use_id`` and ``permission_mode``); each adapter names its own
events. Anything unexpected is a ``HookError`` (the hook blocks the call). The answer goes
back as one JSON line (:func:`answer_line`). Both go through ``core.json_text``, not ``json``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from types import MappingProxyType

from ..core.json_text import encoder, loads
from ..core.lean_typing import TYPE_CHECKING
from .adapter import AgentEvent, EventKind, HookError
from .hook_error import MAX_EVENT_BYTES

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "TOOL_EVENTS",
    "answer_line",
    "load_event",
    "tool_event",
    "workspace_dir",
]

TOOL_EVENTS = (EventKind.PRE_TOOL_USE, EventKind.PERMISSION_REQUEST, EventKind.POST_TOOL_USE)


def load_event(raw: bytes) -> dict[str, Any]:
    """The JSON object on stdin, or ``HookError``."""
    if len(raw) > MAX_EVENT_BYTES:
        raise HookError("event is larger than 8 MiB")
    try:
        event = loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise HookError("stdin is not a JSON event") from None
    if not isinstance(event, dict):
        raise HookError("the event is not a JSON object")
    return event


_ANSWER = encoder(ensure_ascii=False)


def answer_line(answer: Mapping[str, object]) -> str:
    """``answer`` as one line of JSON, UTF-8 kept (``json.dumps(answer, ensure_ascii=False)``
    and a newline)."""
    return _ANSWER(answer) + "\n"


def tool_event(
    event: Mapping[str, Any],
    events: Mapping[str, EventKind],
    *,
    required: tuple[str, ...] = ("session_id", "cwd", "tool_name"),
    cwd: str | None = None,
) -> AgentEvent:
    """``event`` checked and named (``events``: the agent's event names); an event not in
    ``events`` is ``OTHER``. ``cwd`` replaces the event's own when given."""
    name = event.get("hook_event_name")
    if not isinstance(name, str) or not name:
        raise HookError("the event has no hook_event_name")
    kind = events.get(name, EventKind.OTHER)
    if kind is EventKind.OTHER:
        return AgentEvent(kind, name, "", "", "", "", MappingProxyType({}), "")
    for key in required if kind in TOOL_EVENTS else ("cwd",):
        value = event.get(key)
        if not isinstance(value, str) or not value:
            raise HookError(f"the event has no {key}")
    tool_input = event.get("tool_input", {})
    if not isinstance(tool_input, dict):
        raise HookError("tool_input is not an object")
    folder = cwd or str(event["cwd"])
    if not os.path.isabs(folder) or not os.path.isdir(folder):
        raise HookError(f"cwd is not an existing absolute directory: {folder}")
    mode = event.get("permission_mode")
    return AgentEvent(
        kind=kind,
        name=name,
        session_id=_text_or_empty(event.get("session_id")),
        tool_use_id=_text_or_empty(event.get("tool_use_id")),
        cwd=folder,
        tool_name=_text_or_empty(event.get("tool_name")),
        tool_input=MappingProxyType(tool_input),
        permission_mode=mode if isinstance(mode, str) else "default",
    )


def workspace_dir(chosen: str) -> str:
    """``chosen`` when it is an existing absolute folder, else ``HookError``."""
    if not os.path.isabs(chosen) or not os.path.isdir(chosen):
        raise HookError(f"the workspace is not an existing absolute directory: {chosen}")
    return chosen


def _text_or_empty(value: object) -> str:
    return value if isinstance(value, str) else ""
