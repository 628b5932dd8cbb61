"""GitHub Copilot CLI: its tools as data, its ``preToolUse`` event and its answers.

**Documentation only, not observed**: Copilot CLI's source is not public and no run was
captured. Source: GitHub's hooks reference, github/docs
``content/copilot/reference/hooks-reference.md`` @ ``05da5bc3``
(https://docs.github.com/en/copilot/reference/hooks-reference), and the earlier
``hooks-configuration.md`` @ ``1912b4fc`` (``/work/notes/agent-protocols.md`` §3):

* a hook registered under ``preToolUse`` gets ``sessionId``, ``timestamp`` (ms), ``cwd``,
  ``toolName`` and ``toolArgs`` — an object, or (earlier reference, real runs) a JSON *string*
  holding one; under the PascalCase ``PreToolUse`` key ("VS Code compatible") it gets the
  Claude-style ``hook_event_name``, ``session_id``, ``cwd``, ``tool_name`` (the **Claude**
  tool name) and ``tool_input``;
* honoured: ``{"permissionDecision": "deny", "permissionDecisionReason": R}`` (flat); exit 2
  **and any other non-zero exit** deny; empty output is no opinion; a timeout fails open. The
  earlier reference processed only ``"deny"``: so only denies are printed, and a toolpolicy
  ask is left to Copilot's own permission prompt.

**The argument names of the file and search tools are unverified** (``path`` for ``view``,
``create``, ``edit`` comes from the reference's one ``edit`` example and third-party hooks;
``grep``/``glob`` arguments are unknown): a file tool whose path field is missing blocks
(exit 2) rather than pass unchecked; a search without a known scope field is decided on the
event's ``cwd``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ..core.json_text import loads
from ..core.vocabulary import Effect
from .adapter import (
    AgentEvent,
    Answer,
    CatalogEntry,
    EventKind,
    HookError,
    Kind,
    denied_reason,
    deny_only,
)
from .event_json import answer_line, load_event, tool_event, workspace_dir

__all__ = ["CATALOG", "COPILOT", "Copilot"]

_READ = Effect.READ
_WRITE = Effect.WRITE
_BOOKKEEPING = CatalogEntry(Kind.BOOKKEEPING, _READ)
_SHELL = CatalogEntry(Kind.SHELL, Effect.EXECUTE, command="command", tool="shell")
_VIEW = CatalogEntry(Kind.READ, _READ, paths=("path", "file_path"), tool="read_file")
_CREATE = CatalogEntry(Kind.WRITE, _WRITE, paths=("path", "file_path"), tool="write_file")
_EDIT = CatalogEntry(Kind.EDIT, _WRITE, paths=("path", "file_path"), tool="edit_file")
_GREP = CatalogEntry(
    Kind.SEARCH, _READ, paths=("path",), filters=("glob", "type"), tool="read_file"
)
_GLOB = CatalogEntry(Kind.LIST, _READ, paths=("path",), filters=("pattern",), tool="read_file")

CATALOG: Mapping[str, CatalogEntry] = MappingProxyType(
    {
        # camelCase payloads: Copilot's own names (hooks reference, "Tool names for hook
        # matching"); path fields unverified, see the module docstring
        "bash": _SHELL,
        "powershell": _SHELL._replace(powershell=True),
        "view": _VIEW,
        "create": _CREATE,
        "edit": _EDIT,
        "str_replace_editor": _EDIT,
        "apply_patch": _EDIT,
        "grep": _GREP,
        "rg": _GREP,
        "glob": _GLOB,
        "web_fetch": CatalogEntry(Kind.BY_NAME, _READ),
        "web_search": CatalogEntry(Kind.BY_NAME, _READ),
        "task": _BOOKKEEPING,
        "ask_user": _BOOKKEEPING,
        "update_todo": _BOOKKEEPING,
        # PascalCase ("VS Code compatible") payloads: the Claude names ("Claude-format
        # matchers"); Claude's own field names accepted too
        "Bash": _SHELL,
        "Read": _VIEW,
        "Write": _CREATE,
        "Edit": _EDIT,
        "Grep": _GREP,
        "Glob": _GLOB,
        "WebFetch": CatalogEntry(Kind.BY_NAME, _READ),
        "WebSearch": CatalogEntry(Kind.BY_NAME, _READ),
        "Agent": _BOOKKEEPING,
        "Task": _BOOKKEEPING,
        "AskUserQuestion": _BOOKKEEPING,
        "TodoWrite": _BOOKKEEPING,
    }
)
"""Copilot CLI's tools, under both payload forms. Any other name (MCP tools) is decided by
name with the execute effect."""

_BY_NAME = CatalogEntry(Kind.BY_NAME, Effect.EXECUTE)
_EVENTS = {"PreToolUse": EventKind.PRE_TOOL_USE, "preToolUse": EventKind.PRE_TOOL_USE}


class Copilot:
    """The GitHub Copilot CLI adapter (``ADAPTERS["copilot"]``)."""

    name = "copilot"
    catalog = CATALOG
    description = (
        "Answer one GitHub Copilot CLI preToolUse event (JSON on stdin; camelCase toolName/"
        "toolArgs, toolArgs an object or a JSON string, or the PascalCase PreToolUse form "
        'with Claude tool names). Only a deny is printed, as {"permissionDecision": "deny", '
        '"permissionDecisionReason": …}; a toolpolicy ask or allow is left to Copilot\'s own '
        "permission prompt. Exit 2 with one line on stderr (Copilot denies on any non-zero "
        "exit) for bad input or any internal error. Written from GitHub's hooks reference, "
        "not observed: the argument names of view/create/edit (path) and grep/glob are "
        "unverified; a file tool without a path field blocks. Cannot enforce: an ask; "
        "anything when the hook times out (Copilot then proceeds) or is disabled "
        "(disableAllHooks); what a command does once it runs. The workspace is --workspace, "
        "else the event's cwd. Install with `toolpolicy hook install copilot`."
    )

    def entry(self, tool_name: str) -> CatalogEntry:
        """The catalog entry; MCP and unknown tools are decided by name (execute)."""
        return CATALOG.get(tool_name, _BY_NAME)

    def parse(self, raw: bytes) -> AgentEvent:
        """Parse one event in either form; a ``toolArgs`` string must hold a JSON object."""
        event = load_event(raw)
        if "hook_event_name" in event:
            return tool_event(event, _EVENTS, required=("cwd", "tool_name"))
        if "toolResult" in event:  # postToolUse: nothing to decide
            return tool_event({"hook_event_name": "postToolUse"}, _EVENTS)
        if "toolName" not in event:
            raise HookError("the event has no toolName")
        return tool_event(
            {
                "hook_event_name": "preToolUse",
                "session_id": event.get("sessionId"),
                "cwd": event.get("cwd"),
                "tool_name": event.get("toolName"),
                "tool_input": _arguments(event.get("toolArgs")),
            },
            _EVENTS,
            required=("cwd", "tool_name"),
        )

    def workspace(self, event: AgentEvent, given: str | None) -> str:
        """``given`` (``--workspace``), else the event's cwd."""
        return workspace_dir(given or event.cwd)

    def adjust(self, event: AgentEvent, entry: CatalogEntry, answer: Answer) -> Answer:
        """Only a deny is said (the reference's earlier text: only deny is processed)."""
        return deny_only(answer)

    def render(self, event: AgentEvent, answer: Answer) -> str:
        """The flat deny object, or ``""`` for no opinion."""
        reason = denied_reason(answer)
        if reason is None:
            return ""
        output = {"permissionDecision": "deny", "permissionDecisionReason": reason}
        return answer_line(output)


def _arguments(given: object) -> Any:
    """``toolArgs`` as an object: a JSON string is parsed; absent is ``{}``."""
    if given is None:
        return {}
    if isinstance(given, str):
        try:
            given = loads(given)
        except (ValueError, RecursionError):
            raise HookError("toolArgs is a string that is not JSON") from None
        if not isinstance(given, dict):
            raise HookError("toolArgs is not a JSON object")
    return given


COPILOT = Copilot()
