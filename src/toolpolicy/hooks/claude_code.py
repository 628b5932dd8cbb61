"""Claude Code: its tools as data, its hook events, its answers and its permission modes.

Sources, checked for Claude Code 2.1.197 and 2.1.332:

* the hooks reference, https://code.claude.com/docs/en/hooks (event input: ``session_id``,
  ``cwd``, ``permission_mode``, ``hook_event_name``, ``tool_name``, ``tool_input``,
  ``tool_use_id``; PreToolUse output ``hookSpecificOutput.permissionDecision`` allow / deny /
  ask with ``permissionDecisionReason``; PermissionRequest output
  ``hookSpecificOutput.decision.behavior`` allow / deny with ``message``; exit 2 blocks);
* the tools reference, https://code.claude.com/docs/en/tools-reference (the tool names and
  which of them Claude Code itself asks about);
* what the real clients sent and honoured (``realclients/README.md``): 2.1.332 offers
  ``ToolSearch`` and ``Task*`` and no longer ``Glob``, ``Grep`` or ``LS``; the older names
  stay in the catalog for older versions.

Claude Code sends absolute paths; ``cwd`` follows the shell's ``cd``, so the workspace is
``$CLAUDE_PROJECT_DIR`` when it is set.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from types import MappingProxyType

from ..core.decision import Decision
from ..core.lean_typing import TYPE_CHECKING
from ..core.vocabulary import Behavior, Effect
from .adapter import AgentEvent, Answer, CatalogEntry, EventKind, Kind
from .event_json import answer_line, load_event, tool_event, workspace_dir

if TYPE_CHECKING:
    from typing import Any

__all__ = ["CATALOG", "CLAUDE_CODE", "PLAN_MODE_WRITE", "ClaudeCode"]

_READ = Effect.READ
_WRITE = Effect.WRITE
_EXECUTE = Effect.EXECUTE
_BOOKKEEPING = CatalogEntry(Kind.BOOKKEEPING, _READ)

CATALOG: Mapping[str, CatalogEntry] = MappingProxyType(
    {
        # commands
        "Bash": CatalogEntry(Kind.SHELL, _EXECUTE, command="command", tool="shell"),
        "PowerShell": CatalogEntry(
            Kind.SHELL, _EXECUTE, command="command", tool="shell", powershell=True
        ),
        # files
        "Read": CatalogEntry(Kind.READ, _READ, paths=("file_path",), tool="read_file"),
        "NotebookRead": CatalogEntry(Kind.READ, _READ, paths=("notebook_path",), tool="read_file"),
        "LS": CatalogEntry(Kind.LIST, _READ, paths=("path",), tool="read_file"),
        "Write": CatalogEntry(Kind.WRITE, _WRITE, paths=("file_path",), tool="write_file"),
        "Edit": CatalogEntry(Kind.EDIT, _WRITE, paths=("file_path",), tool="edit_file"),
        "MultiEdit": CatalogEntry(Kind.EDIT, _WRITE, paths=("file_path",), tool="edit_file"),
        "NotebookEdit": CatalogEntry(Kind.EDIT, _WRITE, paths=("notebook_path",), tool="edit_file"),
        # searches and listings, decided on the scope they read
        "Glob": CatalogEntry(
            Kind.LIST, _READ, paths=("path",), filters=("pattern",), tool="read_file"
        ),
        "Grep": CatalogEntry(
            Kind.SEARCH, _READ, paths=("path",), filters=("glob", "type"), tool="read_file"
        ),
        # the network: read effect, so Claude Code's own prompt applies unless a rule speaks
        "WebFetch": CatalogEntry(Kind.BY_NAME, _READ),
        "WebSearch": CatalogEntry(Kind.BY_NAME, _READ),
        # Claude Code's bookkeeping: whatever it leads to arrives as calls of its own
        **{
            name: _BOOKKEEPING
            for name in (
                "Agent",
                "AskUserQuestion",
                "BashOutput",
                "CronCreate",
                "CronDelete",
                "CronList",
                "EnterPlanMode",
                "ExitPlanMode",
                "KillShell",
                "ListMcpResourcesTool",
                "SendMessage",
                "Skill",
                "SlashCommand",
                "Task",
                "TaskCreate",
                "TaskGet",
                "TaskList",
                "TaskOutput",
                "TaskStop",
                "TaskUpdate",
                "TodoWrite",
                "ToolSearch",
            )
        },
    }
)
"""Claude Code's tools. A name not listed here is decided by name: ``mcp__server__tool``
and any other tool with the execute effect (a profile default asks)."""

_BY_NAME = CatalogEntry(Kind.BY_NAME, _EXECUTE)

_EVENTS = {
    "PreToolUse": EventKind.PRE_TOOL_USE,
    "PermissionRequest": EventKind.PERMISSION_REQUEST,
    "PostToolUse": EventKind.POST_TOOL_USE,
    "SessionStart": EventKind.SESSION_START,
}

PLAN_MODE_WRITE = Decision(
    Behavior.DENY, "Claude Code is in plan mode: no file is written", "permission-mode"
)


class ClaudeCode:
    """The Claude Code adapter (``ADAPTERS["claude-code"]``)."""

    name = "claude-code"
    catalog = CATALOG
    description = (
        "Answer one Claude Code hook event (JSON on stdin). PreToolUse: deny, ask, allow when "
        "a rule allows, nothing when only a profile default allows. PermissionRequest: a "
        "rule's allow or any deny, else Claude Code's prompt. Exit 0 with the answer (or "
        "nothing) on stdout; exit 2 (Claude Code blocks the call) with one line on stderr "
        "for bad input or any internal error. Install it with `toolpolicy hook install "
        "claude-code`; see the README."
    )

    def entry(self, tool_name: str) -> CatalogEntry:
        """The catalog entry; ``mcp__*`` and unknown tools are decided by name (execute)."""
        return CATALOG.get(tool_name, _BY_NAME)

    def parse(self, raw: bytes) -> AgentEvent:
        """Parse and check one event; anything unexpected is a ``HookError``."""
        return tool_event(load_event(raw), _EVENTS)

    def workspace(self, event: AgentEvent, given: str | None) -> str:
        """``$CLAUDE_PROJECT_DIR``, else ``given`` (``--workspace``), else the event's cwd."""
        return workspace_dir(os.environ.get("CLAUDE_PROJECT_DIR") or given or event.cwd)

    def adjust(self, event: AgentEvent, entry: CatalogEntry, answer: Answer) -> Answer:
        """Claude Code's ``permission_mode`` (the table is in the README).

        ``plan``: every file write is denied. ``dontAsk``: an ask becomes a deny with the
        ``never`` wording. ``acceptEdits``: an ask on a file edit (inside the workspace: the
        boundary denied the rest) is left to Claude Code, the human accepted edits.
        ``default`` and ``bypassPermissions``: unchanged (an ask still goes to the prompt).
        """
        mode = event.permission_mode
        decision = answer.decision
        behavior = decision.behavior
        writes = entry.kind in (Kind.WRITE, Kind.EDIT)
        if mode == "plan" and writes and behavior is not Behavior.DENY:
            return Answer(PLAN_MODE_WRITE, True)
        if mode == "dontAsk" and behavior is Behavior.ASK:
            return Answer(decision.never_approved(), True)
        if mode == "acceptEdits" and writes and behavior is Behavior.ASK:
            return Answer(decision, False)
        return answer

    def render(self, event: AgentEvent, answer: Answer) -> str:
        """The JSON line Claude Code reads, or ``""`` for no opinion."""
        if not answer.speak:
            return ""
        decision = answer.decision
        output: dict[str, Any]
        if event.kind is EventKind.PERMISSION_REQUEST:
            verdict: dict[str, str] = {"behavior": decision.behavior.label}
            if decision.behavior is Behavior.DENY:
                verdict["message"] = decision.reason
            output = {"hookEventName": "PermissionRequest", "decision": verdict}
        else:
            output = {
                "hookEventName": "PreToolUse",
                "permissionDecision": decision.behavior.label,
                "permissionDecisionReason": decision.reason,
            }
        return answer_line({"hookSpecificOutput": output})


CLAUDE_CODE = ClaudeCode()
