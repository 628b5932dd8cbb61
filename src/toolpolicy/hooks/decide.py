"""One agent tool call decided through the engine: the calls it makes, the strongest answer.

A catalogued call becomes one or more toolpolicy calls (a read per path, a write per edited
file, a shell line, or a call by the agent's tool name); a search or a listing is decided on
its scope (``hooks.scope``). Each is evaluated by the same engine as every other caller, and
the strongest decision wins (deny > ask > allow). A final allow is said out loud only when an
explicit rule gave it (or with ``--explicit-allow``): an allow that only a profile default gave
is *no opinion*, so the agent's own permission flow still applies.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from types import MappingProxyType

from ..core.decision import Decision
from ..core.lean_typing import TYPE_CHECKING, NamedTuple
from ..core.vocabulary import Behavior, Effect
from ..engine.evaluate import Evaluation
from ..engine.request import PermissionRequest
from ..engine.selection import ToolPolicy
from ..tools.arguments import ArgumentSpec
from ..tools.definitions import builtin_definitions
from ..tools.registry import PreparedCall, ToolCall, ToolContext, ToolDefinition, ToolSnapshot
from .adapter import AgentEvent, Answer, CatalogEntry, HookError, Kind
from .paths import agent_path

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "BOOKKEEPING",
    "UNRESOLVABLE_READ",
    "Decided",
    "Verdict",
    "decide_call",
    "evaluate_call",
    "verdict",
]

BOOKKEEPING = Decision(
    Behavior.PASSTHROUGH, "The agent's own bookkeeping: its permission flow applies", "catalog"
)
UNRESOLVABLE_READ = Decision(
    Behavior.ASK,
    "The path names one of the agent's open file descriptors; toolpolicy cannot tell which "
    "file it is",
    "agent-path",
)
_BY_NAME_SPEC = ArgumentSpec(())
# Every built-in, whatever the profile offers its own loop: the agent runs its own tools.
_BUILTINS = ToolSnapshot(builtin_definitions())


class Decided(NamedTuple):
    """The answer before the agent's modes, and what the audit needs to know about it."""

    answer: Answer
    tool: str
    effect: Effect
    matched_rules: tuple[str, ...]


class Verdict(NamedTuple):
    """One evaluated call: its final decision, whether a rule (not a default) made it."""

    decision: Decision
    explicit: bool
    matched: tuple[str, ...]


def decide_call(
    event: AgentEvent,
    entry: CatalogEntry,
    policy: ToolPolicy,
    *,
    explicit_allow: bool,
) -> Decided:
    """The strongest decision over every call ``event`` makes, and whether it is said."""
    tool = entry.tool or event.tool_name
    if entry.kind is Kind.BOOKKEEPING:
        found = evaluate_call(event, policy, tool, event.tool_input, entry.effect)
        if not isinstance(found, Decision) and found.merged.behavior is Behavior.PASSTHROUGH:
            return Decided(Answer(BOOKKEEPING, False), tool, entry.effect, ())
        verdicts = [verdict(found)]
    elif entry.kind in (Kind.SEARCH, Kind.LIST):
        from .scope import decide_scope

        verdicts = [decide_scope(event, entry, policy)]
    else:
        folder = _workdir(event, entry)
        calls = _calls(event, entry, policy.workspace, folder)
        verdicts = [
            verdict(evaluate_call(event, policy, name, args, entry.effect, folder=folder))
            for name, args in calls
        ]
    strongest = max(verdicts, key=lambda v: v.decision.behavior)
    matched = tuple(dict.fromkeys(m for v in verdicts for m in v.matched))
    decision = strongest.decision
    speak = decision.behavior is not Behavior.ALLOW or explicit_allow
    if decision.behavior is Behavior.ALLOW and not explicit_allow:
        speak = all(v.explicit for v in verdicts)
    if decision.behavior is Behavior.ALLOW and entry.powershell:
        speak = False  # no allow is proven for a PowerShell line: the agent's own flow decides
    return Decided(Answer(decision, speak), tool, entry.effect, matched)


def evaluate_call(
    event: AgentEvent,
    policy: ToolPolicy,
    tool: str,
    arguments: Mapping[str, object] | Decision,
    effect: Effect = Effect.READ,
    *,
    folder: str = "",
) -> Evaluation | Decision:
    """One toolpolicy call evaluated (or a decision made before any call, passed through).

    A built-in tool is prepared as such; any other name is decided by name with ``effect``.
    A shell line runs in the event's ``cwd`` (the agent's shell keeps its folder between
    calls), or in ``folder`` below it (the call's own working-folder field), so the files it
    names are taken from there.
    """
    if isinstance(arguments, Decision):
        return arguments
    prepared = _prepare(event, tool, arguments, effect)
    if prepared.error is not None:
        return Decision(Behavior.DENY, prepared.error.content, "prepare")
    workspace = policy.workspace
    cwd = ""
    if tool == "shell":
        cwd = _shell_folder(os.path.join(event.cwd, folder) if folder else event.cwd, workspace)
    request = PermissionRequest(
        prepared, ToolContext(workspace, event.tool_use_id, event.session_id, cwd=cwd)
    )
    return policy.engine.evaluate(request, policy.knobs)


def _shell_folder(cwd: str, workspace: str) -> str:
    """The folder a shell line runs in, as ``ToolContext.cwd`` wants it: ``""`` for the
    workspace root, workspace-relative below it, its real path outside it."""
    if not cwd:
        return ""
    folder = agent_path(".", cwd, workspace)
    return os.path.realpath(cwd) if folder is None else folder


def verdict(found: Evaluation | Decision) -> Verdict:
    """The verdict of an evaluation (or of a decision made before any call)."""
    if isinstance(found, Decision):
        return Verdict(found, found.behavior is not Behavior.ALLOW, ())
    explicit = found.merged.behavior is not Behavior.PASSTHROUGH
    return Verdict(found.effective, explicit, found.matched_rules)


def _prepare(
    event: AgentEvent, tool: str, arguments: Mapping[str, object], effect: Effect
) -> PreparedCall:
    call = ToolCall(event.tool_use_id, tool, dict(arguments))
    if _BUILTINS.get(tool) is not None:
        return _BUILTINS.prepare(call)
    definition = ToolDefinition(
        name=tool,
        description="a tool of the calling agent",
        arguments=_BY_NAME_SPEC,
        effect=effect,
    )
    return PreparedCall(call, definition=definition, arguments=MappingProxyType(dict(arguments)))


def _calls(
    event: AgentEvent, entry: CatalogEntry, workspace: str, folder: str
) -> Iterator[tuple[str, Mapping[str, object] | Decision]]:
    """Every toolpolicy call ``event`` makes; ``folder``: the shell call's own working
    folder (``_workdir``)."""
    given = event.tool_input
    if entry.kind is Kind.SHELL:
        command = _text(given, entry.command or "command")
        if folder:
            # Also as the line that moves there first: a command rule on ``cd FOLDER`` sees
            # it, and (not plain) it is never allowed. Its files are decided from the folder
            # (``evaluate_call``'s ``folder``) in the line itself.
            import shlex

            yield "shell", {"command": f"cd {shlex.quote(folder)} && {command}"}
        if entry.powershell:
            yield from _powershell(command)
            return
        yield "shell", {"command": command}
        if entry.patches:
            # Patch parsing loads only for the agents whose shell applies patches (Codex).
            from .patch import patch_cd_folders, runs_apply_patch

            if runs_apply_patch(command):
                folders = patch_cd_folders(command)
                bases = [event.cwd, *(os.path.join(event.cwd, d) for d in folders)]
                yield from _patch_writes(command, bases, workspace)
        return
    if entry.kind is Kind.PATCH:
        patch = _text(given, entry.command or "command")
        yield from _patch_writes(patch, [event.cwd], workspace, required=True)
        return
    if entry.kind is Kind.BY_NAME:
        yield event.tool_name, given
        return
    tool = entry.tool or event.tool_name
    for raw in _paths(given, entry):
        path = agent_path(raw, event.cwd, workspace)
        if entry.kind is Kind.READ:
            yield tool, (UNRESOLVABLE_READ if path is None else {"path": path})
        else:
            yield _write(tool, raw, path)


def _powershell(command: str) -> Iterator[tuple[str, Mapping[str, object]]]:
    """A PowerShell line, decided twice for what it must not do (``decide_call`` never
    allows it: the plain reader reads bash, and PowerShell quotes, escapes with a backtick
    and splats differently, so no reading here proves an allow). As the command that runs it
    (``pwsh -Command LINE``: the command rules' denies and asks are found wherever they are
    written in it); and as bash reads it as PowerShell would name its files: every ``\\`` a
    path separator, its escape character (a backtick) dropped, and a wildcard class
    (``[t]``) any one character, so that a file it names (``.git\\config``, ``.gi`t``,
    ``secret.tx[t]``) meets the boundary and the path rules."""
    import re
    import shlex

    yield "shell", {"command": f"pwsh -NoProfile -Command {shlex.quote(command)}"}
    named = command.replace("`", "").replace("\\", "/")
    yield "shell", {"command": re.sub(r"\[[^\]]*\]", "?", named)}


def _workdir(event: AgentEvent, entry: CatalogEntry) -> str:
    """The folder the call's own working-folder field names (``""``: none), relative to the
    event's ``cwd`` unless absolute: the line runs there."""
    if entry.kind is not Kind.SHELL or entry.workdir is None:
        return ""
    folder = event.tool_input.get(entry.workdir)
    return folder if isinstance(folder, str) else ""


def _write(tool: str, raw: str, path: str | None) -> tuple[str, Mapping[str, object]]:
    if tool == "edit_file":
        return tool, {"path": path or raw, "old_string": "", "new_string": ""}
    return tool, {"path": path or raw, "content": ""}


def _patch_writes(
    patch: str, bases: list[str], workspace: str, *, required: bool = False
) -> Iterator[tuple[str, Mapping[str, object]]]:
    """A write per file the patch names, relative to each of ``bases``."""
    from .patch import PatchError, patch_targets

    try:
        targets = patch_targets(patch)
    except PatchError as exc:
        raise HookError(str(exc)) from None
    if required and not targets:
        raise HookError("the patch names no file")
    for tool, raw in targets:
        for base in dict.fromkeys(bases):
            yield _write(tool, raw, agent_path(raw, base, workspace))


def _paths(given: Mapping[str, Any], entry: CatalogEntry) -> list[str]:
    """Every path the call names: its path fields present (at least one must be), and each
    edit's own ``file_path``."""
    found = [_text(given, key) for key in entry.paths if key in given]
    if not found and entry.paths:
        found = [_text(given, entry.paths[0])]
    edits = given.get("edits")
    if isinstance(edits, list):
        found += [
            e["file_path"]
            for e in edits
            if isinstance(e, dict) and isinstance(e.get("file_path"), str)
        ]
    return found


def _text(given: Mapping[str, Any], key: str) -> str:
    value = given.get(key)
    if not isinstance(value, str):
        raise HookError(f"tool_input.{key} is not a string")
    return value
