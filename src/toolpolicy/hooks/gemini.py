"""Gemini CLI: its tools as data, its ``BeforeTool`` event and the only answer it honours.

Sources (``/work/notes/agent-protocols.md`` §2 collects them): google-gemini/gemini-cli at
``5411f113`` — ``docs/hooks/reference.md`` (base input: ``session_id``, ``transcript_path``,
``cwd``, ``hook_event_name``, ``timestamp``; ``BeforeTool``: ``tool_name``, ``tool_input``),
``docs/reference/tools.md`` and ``packages/core/src/tools/definitions/base-declarations.ts``
(tool names and argument fields), ``packages/core/src/hooks/types.ts``
(``isBlockingDecision``), ``packages/core/src/hooks/hookRunner.ts`` (``GEMINI_PROJECT_DIR``)
— and what Gemini CLI 0.61.0 sent and did offline (``shared/realclients/codex-gemini``):

* honoured: a top-level ``{"decision": "deny", "reason": R}`` and exit 2 with the reason on
  stderr; **the Claude-style ``hookSpecificOutput`` deny is ignored and the tool runs**;
  ``{"decision": "ask"}`` **hangs headless Gemini**; another non-zero exit fails open;
* ``file_path`` arrives as the model wrote it (relative paths too): Gemini resolves it against
  its project folder, ``GEMINI_PROJECT_DIR`` (= the event's ``cwd``);
* the hook's environment is stripped: every flag is in the command string.

So only denies are printed; any event but ``BeforeTool`` gets no output and exit 0 (exit 2
there would block a turn or a model response).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from types import MappingProxyType

from ..core.vocabulary import Effect
from .adapter import AgentEvent, Answer, CatalogEntry, EventKind, Kind, denied_reason, deny_only
from .event_json import answer_line, load_event, tool_event, workspace_dir

__all__ = ["CATALOG", "GEMINI", "Gemini"]

_READ = Effect.READ
_BOOKKEEPING = CatalogEntry(Kind.BOOKKEEPING, _READ)

CATALOG: Mapping[str, CatalogEntry] = MappingProxyType(
    {
        # commands: dir_path is where the command runs
        "run_shell_command": CatalogEntry(
            Kind.SHELL, Effect.EXECUTE, command="command", workdir="dir_path", tool="shell"
        ),
        # files
        "read_file": CatalogEntry(Kind.READ, _READ, paths=("file_path",), tool="read_file"),
        "write_file": CatalogEntry(
            Kind.WRITE, Effect.WRITE, paths=("file_path",), tool="write_file"
        ),
        "replace": CatalogEntry(Kind.EDIT, Effect.WRITE, paths=("file_path",), tool="edit_file"),
        # searches and listings, decided on the scope they read (the project when none)
        "read_many_files": CatalogEntry(Kind.SEARCH, _READ, filters=("include",), tool="read_file"),
        "list_directory": CatalogEntry(Kind.LIST, _READ, paths=("dir_path",), tool="read_file"),
        "glob": CatalogEntry(
            Kind.LIST, _READ, paths=("dir_path",), filters=("pattern",), tool="read_file"
        ),
        "grep_search": CatalogEntry(
            Kind.SEARCH, _READ, paths=("dir_path",), filters=("include_pattern",), tool="read_file"
        ),
        "search_file_content": CatalogEntry(
            Kind.SEARCH, _READ, paths=("dir_path", "path"), filters=("include",), tool="read_file"
        ),
        # the network: read effect, so Gemini's own policy applies unless a rule speaks
        "web_fetch": CatalogEntry(Kind.BY_NAME, _READ),
        "google_web_search": CatalogEntry(Kind.BY_NAME, _READ),
        # Gemini CLI's bookkeeping: whatever it leads to arrives as calls of its own
        **{
            name: _BOOKKEEPING
            for name in (
                "activate_skill",
                "ask_user",
                "complete_task",
                "enter_plan_mode",
                "exit_plan_mode",
                "get_internal_docs",
                "update_topic",
                "write_todos",
            )
        },
    }
)
"""Gemini CLI's tools. ``tracker_*`` tools are bookkeeping too; ``mcp_<server>_<tool>``,
``save_memory`` and any other name are decided by name with the execute effect."""

_BY_NAME = CatalogEntry(Kind.BY_NAME, Effect.EXECUTE)
_EVENTS = {"BeforeTool": EventKind.PRE_TOOL_USE}


class Gemini:
    """The Gemini CLI adapter (``ADAPTERS["gemini"]``)."""

    name = "gemini"
    catalog = CATALOG
    description = (
        "Answer one Gemini CLI BeforeTool event (JSON on stdin). Only a deny is printed, as "
        '{"decision": "deny", "reason": …}: an ask would hang headless Gemini and an allow '
        "changes nothing, so a toolpolicy ask or allow is left to Gemini's own policy engine. "
        "Relative paths are resolved against $GEMINI_PROJECT_DIR (else the event's cwd), which "
        "is also the workspace unless --workspace is given. Any other event: no output, exit "
        "0. Exit 2 with one line on stderr (Gemini blocks the call) for bad input or any "
        "internal error. Gemini strips the hook's environment: give every flag on the command "
        "line (`toolpolicy hook install gemini` does). Cannot enforce: an ask; anything when "
        "hooks are disabled (hooksConfig), the hook is untrusted, times out or exits other "
        "than 0/2; read_many_files include patterns outside the project (Gemini's own "
        "workspace check applies); what a command does once it runs."
    )

    def entry(self, tool_name: str) -> CatalogEntry:
        """The catalog entry; ``tracker_*`` is bookkeeping; anything else is by name."""
        found = CATALOG.get(tool_name)
        if found is not None:
            return found
        return _BOOKKEEPING if tool_name.startswith("tracker_") else _BY_NAME

    def parse(self, raw: bytes) -> AgentEvent:
        """Parse and check one event; relative paths are relative to the project folder."""
        return tool_event(
            load_event(raw), _EVENTS, cwd=os.environ.get("GEMINI_PROJECT_DIR") or None
        )

    def workspace(self, event: AgentEvent, given: str | None) -> str:
        """``given`` (``--workspace``), else the project folder (the event's cwd)."""
        return workspace_dir(given or event.cwd)

    def adjust(self, event: AgentEvent, entry: CatalogEntry, answer: Answer) -> Answer:
        """Only a deny is said: an ask hangs Gemini headless, an allow changes nothing."""
        return deny_only(answer)

    def render(self, event: AgentEvent, answer: Answer) -> str:
        """``{"decision": "deny", "reason": …}``, or ``""`` for no opinion."""
        reason = denied_reason(answer)
        if reason is None:
            return ""
        return answer_line({"decision": "deny", "reason": reason})


GEMINI = Gemini()
