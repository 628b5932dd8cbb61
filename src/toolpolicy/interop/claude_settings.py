"""Export to Claude Code's ``settings.json`` ``permissions`` lists.

Claude Code reads ``{"permissions": {"allow": [...], "ask": [...], "deny": [...]}}``; a rule
is a tool name (``Bash``, ``Read``, ``mcp__github__create_issue``, ``mcp__github__*``) or a
tool with a specifier: ``Bash(git push *)`` (a command prefix: the trailing `` *`` makes it a
prefix at a word boundary; ``*`` anywhere spans any run of characters), ``Read(/secrets/**)``
and ``Edit(/src/**)`` (gitignore patterns; ``/`` is the project root; ``Edit`` covers every
tool that writes files). Deny beats ask beats allow, as in toolpolicy. Reference:
https://code.claude.com/docs/en/permissions ("Permission rule syntax").

Built-in tools map onto the Claude Code tool whose rule covers what the hook's catalog
decides as that tool (``toolpolicy.hooks.claude_code.CATALOG``): ``shell`` → ``Bash``,
``read_file`` → ``Read`` (Claude Code applies it to Grep, Glob and LS too), ``write_file`` →
``Write``, ``edit_file`` → ``Edit``; no Claude Code tool is decided as ``glob``. Path rules
become ``Read(...)`` (``read_file``) and ``Edit(...)`` (``write_file``, ``edit_file``). A path
glob is anchored at the project root: ``.env`` (any depth) becomes ``/**/.env`` and
``/**/.env/**`` (a matched folder covers its content, as in toolpolicy).
"""

from __future__ import annotations

import json

from ..compile.commands import CommandPattern
from ..compile.globs import ABSOLUTE, HOME
from ..core.vocabulary import Behavior
from ..engine.selection import ToolPolicy
from .native import NativeExport, Omission, OmissionKind
from .scope import RuleScope, rule_scopes, selection_omissions

__all__ = [
    "CLAUDE_TOOL_NAMES",
    "DIALECT",
    "EDIT_FAMILY",
    "claude_command_specifier",
    "claude_path_specifiers",
    "export_claude_settings",
]

DIALECT = "claude-settings"

CLAUDE_TOOL_NAMES = {
    "shell": "Bash",
    "read_file": "Read",
    "write_file": "Write",
    "edit_file": "Edit",
}
"""toolpolicy's built-in tools and the Claude Code tool each one stands for in a rule (a test
keeps it equal to what the hook's catalog decides each Claude Code tool as)."""

EDIT_FAMILY = ("write_file", "edit_file")
"""The tools one ``Edit(path)`` rule covers (Claude Code applies it to every file writer)."""

_PATH_FAMILY = {"read_file": "Read", "write_file": "Edit", "edit_file": "Edit"}
_WILDCARD = "*"
_KNOBS_HINT = (
    "Claude Code's permission mode (defaultMode) and its own sandbox settings decide these"
)


def export_claude_settings(policy: ToolPolicy) -> NativeExport:
    """The ``permissions`` fragment of ``settings.json`` for ``policy``'s rules."""
    lists: dict[str, list[str]] = {"allow": [], "ask": [], "deny": []}
    omissions: list[Omission] = []
    for scope in rule_scopes(policy):
        entries, notes = _translate(scope)
        target = lists[scope.behavior.label]
        target.extend(e for e in entries if e not in target)
        omissions.extend(notes)
    omissions.extend(selection_omissions(policy, _KNOBS_HINT))
    text = json.dumps({"permissions": lists}, indent=2, ensure_ascii=False) + "\n"
    return NativeExport(DIALECT, text, tuple(omissions))


def _translate(scope: RuleScope) -> tuple[list[str], list[Omission]]:
    rule = scope.rule
    if rule.commands is not None:
        return _commands(scope)
    if rule.paths is not None:
        return _paths(scope)
    entries = [CLAUDE_TOOL_NAMES[b] for b in scope.builtins if b in CLAUDE_TOOL_NAMES]
    entries.extend(scope.names)
    notes: list[Omission] = []
    if unnamed := [b for b in scope.builtins if b not in CLAUDE_TOOL_NAMES]:
        notes.append(
            Omission(
                scope.subject,
                f"no Claude Code tool is decided as {', '.join(unnamed)} (its Glob is read_file)",
                OmissionKind.PARTIAL if entries else OmissionKind.DROPPED,
            )
        )
    notes.extend(scope.unlisted_tools("Claude Code", exported=bool(entries)))
    return entries, notes


def _commands(scope: RuleScope) -> tuple[list[str], list[Omission]]:
    rule = scope.rule
    if "shell" not in scope.builtins or rule.commands is None:
        return [], []
    entries: list[str] = []
    notes: list[Omission] = []
    allow = scope.behavior is Behavior.ALLOW
    for pattern in (p.as_written() for p in rule.commands):
        if allow and _WILDCARD in pattern.words:
            notes.append(
                Omission(
                    f"{scope.subject} command {pattern.text!r}",
                    "Claude Code's * spans any run of characters (several words, or none at "
                    "the end): the allow would reach more than toolpolicy's one-word *",
                )
            )
            continue
        entries.extend(f"Bash({claude_command_specifier(w)})" for w in pattern.spellings())
    if entries and not allow:
        notes.append(
            Omission(
                scope.subject,
                f"Claude Code matches {_quoted(rule.commands)} only at the start of each command; "
                f"toolpolicy's {scope.behavior.label} also hits it behind options, wrappers, "
                "'bash -c' strings and absolute program paths",
                kind=OmissionKind.PARTIAL,
            )
        )
    return entries, notes


def claude_command_specifier(words: tuple[str, ...]) -> str:
    """``git push`` → ``git push *``: the words, then a trailing wildcard (a prefix match).

    A trailing ``*`` word of the pattern is folded into that wildcard, which is only right
    for a deny or an ask (Claude Code's trailing wildcard also matches nothing).
    """
    body = list(words)
    while body and body[-1] == _WILDCARD:
        body.pop()
    return " ".join([*body, _WILDCARD])


def _paths(scope: RuleScope) -> tuple[list[str], list[Omission]]:
    rule = scope.rule
    if rule.paths is None:
        return [], []
    families = list(dict.fromkeys(_PATH_FAMILY[b] for b in scope.builtins if b in _PATH_FAMILY))
    notes: list[Omission] = []
    writers = [b for b in scope.builtins if b in EDIT_FAMILY]
    if scope.behavior is Behavior.ALLOW and "Edit" in families and len(writers) < len(EDIT_FAMILY):
        families.remove("Edit")
        notes.append(
            Omission(
                scope.subject,
                f"Claude Code's Edit(...) covers every tool that writes files; the allow "
                f"names only {', '.join(writers)}",
            )
        )
    entries = [
        f"{family}({specifier})"
        for family in families
        for pattern in rule.paths
        for specifier in claude_path_specifiers(pattern.text)
    ]
    return entries, notes


def claude_path_specifiers(text: str) -> tuple[str, ...]:
    """A toolpolicy path glob as Claude Code specifiers, anchored where toolpolicy anchors it.

    ``secrets/**`` → ``/secrets/**``; ``.env`` → ``/**/.env`` and ``/**/.env/**``;
    ``build/`` (a folder: gitignore's trailing slash, kept) → ``/**/build/``. Absolute
    (``//etc/ssl``) and home (``~/.ssh/**``) patterns keep their root, which Claude Code
    spells the same way (``//etc/ssl`` and ``//etc/ssl/**``).
    """
    for root in (ABSOLUTE, HOME):
        if text.startswith(root):
            return _with_content(root, text[len(root) :])
    body = text.lstrip("/")
    anchored = text.startswith("/") or "/" in body.rstrip("/") or body.rstrip("/") == "**"
    return _with_content("/" if anchored else "/**/", body)


def _with_content(root: str, body: str) -> tuple[str, ...]:
    """``root + body``, and what is below it unless the pattern already says so."""
    base = root + body
    if body.endswith("/") or body.split("/")[-1] == "**":
        return (base,)
    return (base, base + "/**")


def _quoted(patterns: tuple[CommandPattern, ...]) -> str:
    return ", ".join(repr(p.text) for p in patterns)
