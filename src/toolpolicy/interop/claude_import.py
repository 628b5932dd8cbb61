"""Import Claude Code's ``permissions.allow/ask/deny`` lists as a toolpolicy Policy.

Each entry becomes one rule, or a YAML comment saying why it cannot: toolpolicy never imports
a rule that would decide differently. The one exception to "one rule each": every translatable
``Bash(...)`` allow entry goes into ONE allow rule (its commands in the entries' order, each
with a comment naming its entry). Claude Code allows a compound line when each of its
subcommands is allowed by any allow entry, while a toolpolicy allow rule must cover every
command of a line by itself; with one rule per entry ``pytest ; git status`` would ask where
Claude Code allows it. What translates (the inverse of the export):

* a tool name: ``Bash``, ``Read``, ``Write``, ``Edit`` name toolpolicy's built-in tools;
  ``mcp__server__tool``, ``mcp__server__*``, ``mcp__server`` (the whole server), ``WebFetch``
  and other names are decided by name, as the Claude Code hook does;
* ``Bash(git push:*)`` and ``Bash(git push *)``: the command prefix ``git push``; an exact
  command (``Bash(npm run test)``) only in a deny or an ask (toolpolicy's prefix is wider:
  conservative there, a wider allow anywhere else);
* ``Read(p)``, ``Edit(p)``, ``Write(p)``: path rules on ``read_file`` or on ``write_file`` and
  ``edit_file`` (Claude Code's ``Edit`` covers every writer), with ``p`` taken relative to the
  project root (``./p`` and ``/p`` are anchored, ``p`` without a slash matches at any depth);
  ``//absolute`` and ``~/home`` patterns are toolpolicy's own spelling and stay as they are.

Not translated: other wildcards (``Bash(git * main)``,
``Bash(npm*)``), ``WebFetch(domain:...)`` and other specifiers, tools toolpolicy folds into
another (``Glob``, ``Grep``, ``LS``, ``NotebookRead`` → ``read_file``; ``MultiEdit``,
``NotebookEdit`` → ``edit_file``; ``PowerShell`` → ``shell``), as the hook's catalog does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from ..compile.commands import CommandPatternError, compile_command_pattern
from ..compile.globs import GlobError, compile_glob
from ..core.errors import ConfigurationError
from ..core.lean_typing import NamedTuple
from .claude_settings import CLAUDE_TOOL_NAMES, EDIT_FAMILY
from .native import one_line

__all__ = ["ImportedEntry", "import_claude_settings", "read_claude_permissions"]

_BEHAVIORS = ("deny", "ask", "allow")
_ENTRY = re.compile(r"([A-Za-z][A-Za-z0-9_-]*\*?)(?:\((.*)\))?", re.DOTALL)
_BUILTIN_BY_CLAUDE = {claude: ours for ours, claude in CLAUDE_TOOL_NAMES.items()}
# The Claude Code tools the hook's catalog decides as a built-in tool that another Claude Code
# name stands for (a test keeps this equal to the catalog).
_FOLDED = {"Glob": "read_file", "Grep": "read_file", "LS": "read_file",
           "NotebookRead": "read_file", "MultiEdit": "edit_file", "NotebookEdit": "edit_file",
           "PowerShell": "shell"}  # fmt: skip
_PATH_TOOLS = {"Read": ("read_file",), "Edit": EDIT_FAMILY, "Write": ("write_file",)}
_NAME_LIMIT = 64


class ImportedEntry(NamedTuple):
    """One permission entry: the rule it became (``match``), or why it could not."""

    behavior: str
    entry: str
    match: Mapping[str, list[str]] | None
    problem: str | None


def read_claude_permissions(text: str, source: str) -> dict[str, list[str]]:
    """The ``allow``/``ask``/``deny`` lists of a Claude Code settings file's text.

    Raises ``ConfigurationError`` naming ``source`` when it is not JSON, has no
    ``permissions`` object, or a list holds something other than strings.
    """
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ConfigurationError(f"{source}: not JSON: {exc}") from None
    permissions = data.get("permissions") if isinstance(data, dict) else None
    if not isinstance(permissions, dict):
        raise ConfigurationError(f"{source}: no 'permissions' object")
    lists: dict[str, list[str]] = {}
    for behavior in _BEHAVIORS:
        entries = permissions.get(behavior, [])
        if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
            raise ConfigurationError(f"{source}: permissions.{behavior} is not a list of strings")
        lists[behavior] = entries
    return lists


def import_claude_settings(
    permissions: Mapping[str, Sequence[str]], *, name: str, extends: str, source: str
) -> str:
    """A Policy document (YAML text): one rule per translatable entry, except that the
    ``Bash(...)`` allow entries share one rule (see the module docstring)."""
    entries = [
        _translate(behavior, entry)
        for behavior in _BEHAVIORS
        for entry in permissions.get(behavior, ())
    ]
    lines = [
        f"# Imported by `toolpolicy import claude-settings` from {one_line(source)}.",
        "# Claude Code paths are read relative to the project root (the workspace).",
        "apiVersion: toolpolicy/v1",
        "kind: Policy",
        f"name: {name}",
        f"extends: {_quote(extends)}",
    ]
    # The allowed commands share one rule, placed where the first of them stands.
    allowed = [(item.entry, item.match) for item in entries if _is_allowed_command(item)]
    first = next((i for i, item in enumerate(entries) if _is_allowed_command(item)), None)
    rules: list[str] = []
    taken: set[str] = set()
    for index, item in enumerate(entries):
        if item.match is None:
            entry = one_line(item.entry)
            rules.append(f"  # not imported: {item.behavior} {entry}: {item.problem}")
        elif index == first:
            commands = [prefix for _, match in allowed if match for prefix in match["commands"]]
            match = {"tools": ["shell"], "commands": commands}
            rules.extend(_rule("allow", [entry for entry, _ in allowed], match, taken))
        elif not _is_allowed_command(item):
            rules.extend(_rule(item.behavior, [item.entry], item.match, taken))
    lines.append("rules:" if any(r.startswith("  - ") for r in rules) else "rules: []")
    lines.extend(rules)
    return "\n".join(lines) + "\n"


def _is_allowed_command(item: ImportedEntry) -> bool:
    return item.behavior == "allow" and item.match is not None and "commands" in item.match


def _rule(
    behavior: str, entries: Sequence[str], match: Mapping[str, list[str]], taken: set[str]
) -> list[str]:
    """The YAML lines of one rule made of ``entries``; several only for the allowed
    commands, listed one a line with the entry each comes from."""
    text = ", ".join(entries)
    lines = [
        f"  - name: {_unique_name(f'{behavior} {text}', behavior, taken)}",
        f"    behavior: {behavior}",
        f"    reason: {_quote(f'Claude Code settings: {behavior} {text}')}",
    ]
    if len(entries) == 1:
        fields = ", ".join(f"{key}: {_flow(values)}" for key, values in match.items())
        return [*lines, f"    match: {{{fields}}}"]
    lines.append("    match:")
    lines.extend(f"      {k}: {_flow(v)}" for k, v in match.items() if k != "commands")
    lines.append("      commands:")
    lines.extend(
        f"        - {_quote(command)}  # {behavior} {one_line(entry)}"
        for command, entry in zip(match["commands"], entries, strict=True)
    )
    return lines


def _flow(values: Sequence[str]) -> str:
    return f"[{', '.join(_quote(v) for v in values)}]"


def _translate(behavior: str, entry: str) -> ImportedEntry:
    found = _ENTRY.fullmatch(entry.strip())
    if found is None:
        return ImportedEntry(behavior, entry, None, "not a Claude Code permission rule")
    tool, specifier = found.group(1), found.group(2)
    if tool in _FOLDED:
        folded = _FOLDED[tool]
        reason = f"toolpolicy decides {tool} as {folded}: write the rule for {folded}"
        return ImportedEntry(behavior, entry, None, reason)
    if specifier is None or specifier in ("", "*"):
        return _tool_name(behavior, entry, tool)
    if tool == "Bash":
        return _command(behavior, entry, specifier)
    if tool in _PATH_TOOLS:
        return _path(behavior, entry, tool, specifier)
    return ImportedEntry(
        behavior, entry, None, f"toolpolicy matches {tool} by name only, not by {specifier!r}"
    )


def _tool_name(behavior: str, entry: str, tool: str) -> ImportedEntry:
    ours = _BUILTIN_BY_CLAUDE.get(tool)
    if ours is not None:
        return ImportedEntry(behavior, entry, {"tools": [ours]}, None)
    server = tool[len("mcp__") :]
    if tool.startswith("mcp__") and server and "__" not in server and "*" not in server:
        return ImportedEntry(behavior, entry, {"tools": [tool + "__*"]}, None)
    return ImportedEntry(behavior, entry, {"tools": [tool]}, None)


def _command(behavior: str, entry: str, specifier: str) -> ImportedEntry:
    text = specifier.strip()
    prefix = text[:-2] if text.endswith((":*", " *")) else text
    if "*" in prefix:
        reason = "Claude Code's * spans any run of characters; toolpolicy's * is one whole word"
        return ImportedEntry(behavior, entry, None, reason)
    if "|" in prefix:
        reason = "Claude Code's | is a pipe; in toolpolicy | separates alternatives of one word"
        return ImportedEntry(behavior, entry, None, reason)
    if prefix == text and behavior == "allow":
        reason = "an exact command: toolpolicy's commands are prefixes, the allow would be wider"
        return ImportedEntry(behavior, entry, None, reason)
    try:
        compile_command_pattern(prefix)
    except CommandPatternError as exc:
        return ImportedEntry(behavior, entry, None, str(exc))
    return ImportedEntry(behavior, entry, {"tools": ["shell"], "commands": [prefix.strip()]}, None)


def _path(behavior: str, entry: str, tool: str, specifier: str) -> ImportedEntry:
    pattern = "/" + specifier[2:] if specifier.startswith("./") else specifier
    try:
        compile_glob(pattern, gitignore=True)
    except GlobError as exc:
        return ImportedEntry(behavior, entry, None, str(exc))
    return ImportedEntry(
        behavior, entry, {"tools": list(_PATH_TOOLS[tool]), "paths": [pattern]}, None
    )


def _unique_name(text: str, behavior: str, taken: set[str]) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower())
    base = "-".join(words)[: _NAME_LIMIT - 4].strip("-") or behavior
    name, counter = base, 2
    while name in taken:
        name = f"{base}-{counter}"
        counter += 1
    taken.add(name)
    return name


def _quote(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is valid YAML)."""
    return json.dumps(one_line(text), ensure_ascii=False)
