"""Codex CLI: its tools as data, its hook events and the only answers it honours.

Sources (``/work/notes/agent-protocols.md`` §1 collects them): openai/codex
``codex-rs/hooks/src/events/pre_tool_use.rs`` @ ``0082977c`` (``command_input_json``: the
event's fields; shell-like tools pass ``{"command": …}``, MCP tools their resolved JSON
arguments), ``codex-rs/hooks/src/engine/output_parser.rs`` @ ``0ea83813``
(``parse_pre_tool_use``, ``parse_permission_request``), and what Codex CLI 0.171.0 sent and
did offline (``shared/realclients/codex-gemini``: ``golden/``, ``observed-run_all.txt``):

* ``PreToolUse``: ``tool_name`` is ``Bash`` whatever the model called (``exec_command``,
  ``shell_command``, ``shell``), with the command line in ``tool_input.command``;
  ``apply_patch`` carries the patch text in ``tool_input.command``; with some models the patch
  arrives as a ``Bash`` ``apply_patch <<'EOF'`` heredoc. Honoured: a deny
  (``hookSpecificOutput.permissionDecision: "deny"`` with a non-empty reason) and exit 2 with
  the reason on stderr. **An ask or an allow is "unsupported" and the tool runs**; exit 1, a
  crash or invalid JSON fail open too. So only denies are printed; a toolpolicy ask is left to
  Codex's own approval (``approval_policy``).
* ``PermissionRequest`` (only with ``approval_policy = "on-request"``, never under
  ``codex exec``): ``hookSpecificOutput.decision.behavior`` allow / deny with ``message``;
  no output: Codex asks the human.
* ``permission_mode`` is ``bypassPermissions`` under ``codex exec`` although the hooks run: it
  says nothing about what the user trusts, so it changes no answer.
* The MCP ``tool_name`` format was not observed: any uncatalogued name is decided by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ..core.vocabulary import Effect
from .adapter import AgentEvent, Answer, CatalogEntry, EventKind, Kind, denied_reason, deny_only
from .event_json import answer_line, load_event, tool_event, workspace_dir

__all__ = ["CATALOG", "CODEX", "Codex"]

CATALOG: Mapping[str, CatalogEntry] = MappingProxyType(
    {
        # every shell tool arrives as Bash; an apply_patch heredoc in it is applied by Codex
        "Bash": CatalogEntry(
            Kind.SHELL, Effect.EXECUTE, command="command", tool="shell", patches=True
        ),
        # the patch text: one write per Add / Update / Delete / Move header
        "apply_patch": CatalogEntry(Kind.PATCH, Effect.WRITE, command="command", tool="write_file"),
    }
)
"""Codex CLI's tools as its hooks see them. Any other name (MCP tools, tools of newer
versions) is decided by name with the execute effect (a profile default asks, which Codex is
not told: its own approval applies)."""

_BY_NAME = CatalogEntry(Kind.BY_NAME, Effect.EXECUTE)
_EVENTS = {
    "PreToolUse": EventKind.PRE_TOOL_USE,
    "PermissionRequest": EventKind.PERMISSION_REQUEST,
}


class Codex:
    """The Codex CLI adapter (``ADAPTERS["codex"]``)."""

    name = "codex"
    catalog = CATALOG
    description = (
        "Answer one Codex CLI hook event (JSON on stdin). PreToolUse: only a deny is printed "
        "(Codex runs the tool on an ask or an allow, so a toolpolicy ask is left to Codex's "
        "own approval_policy); Bash commands, apply_patch patches (every Add/Update/Delete/"
        "Move header, also in a Bash `apply_patch <<'EOF'` heredoc, decided as a write) and "
        "MCP tools by name. PermissionRequest (approval_policy on-request only): a rule's "
        "allow or any deny, else Codex asks the human. Exit 2 with one line on stderr (Codex "
        "blocks the call) for bad input or any internal error. Cannot enforce: an ask (Codex "
        "has none in PreToolUse); anything when the hook is not trusted, times out or exits "
        "other than 0/2 (Codex runs the tool); what a command does once it runs (use Codex's "
        "sandbox_mode). The workspace is --workspace, else the event's cwd. Install with "
        "`toolpolicy hook install codex`, then trust the hook in Codex (/hooks)."
    )

    def entry(self, tool_name: str) -> CatalogEntry:
        """The catalog entry; MCP and unknown tools are decided by name (execute)."""
        return CATALOG.get(tool_name, _BY_NAME)

    def parse(self, raw: bytes) -> AgentEvent:
        """Parse and check one event (``PermissionRequest`` has no ``tool_use_id``)."""
        return tool_event(load_event(raw), _EVENTS)

    def workspace(self, event: AgentEvent, given: str | None) -> str:
        """``given`` (``--workspace``), else the event's cwd (Codex's session folder)."""
        return workspace_dir(given or event.cwd)

    def adjust(self, event: AgentEvent, entry: CatalogEntry, answer: Answer) -> Answer:
        """On ``PreToolUse`` only a deny is said: Codex runs the tool on anything else."""
        return deny_only(answer) if event.kind is EventKind.PRE_TOOL_USE else answer

    def render(self, event: AgentEvent, answer: Answer) -> str:
        """The JSON line Codex reads, or ``""`` for no opinion."""
        if not answer.speak:
            return ""
        decision = answer.decision
        reason = denied_reason(answer)
        output: dict[str, Any]
        if event.kind is EventKind.PERMISSION_REQUEST:
            verdict: dict[str, str] = {"behavior": decision.behavior.label}
            if reason is not None:
                verdict["message"] = reason
            output = {"hookEventName": "PermissionRequest", "decision": verdict}
        elif reason is not None:
            output = {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        else:
            return ""
        return answer_line({"hookSpecificOutput": output})


CODEX = Codex()
