"""Export to a Gemini CLI policy-engine TOML file (``[[rule]]`` tables).

Gemini CLI loads every ``*.toml`` in ``~/.gemini/policies/`` (the user tier). A rule has
``toolName`` (a name or a list), optionally ``mcpName`` (then ``toolName`` is the tool's own
name, ``*`` for all of the server's), ``commandPrefix`` (only with ``toolName =
"run_shell_command"``: the command starts with the string, then whitespace or its end),
``decision`` (``allow``, ``ask_user``, ``deny``), ``priority`` (0 to 999, the highest matching
rule wins) and ``denyMessage``. The priorities below keep toolpolicy's order, deny > ask >
allow. Reference: google-gemini/gemini-cli ``docs/reference/policy-engine.md``,
``packages/core/src/policy/toml-loader.ts`` (the schema), ``packages/core/src/policy/
utils.ts`` (``buildArgsPatterns``: how ``commandPrefix`` becomes a pattern).

Gemini CLI matches arguments only by a regular expression over their JSON, so path rules are
reported, not translated. ``ask_user`` is a deny when Gemini CLI runs headless.
"""

from __future__ import annotations

import json

from ..core.vocabulary import Behavior
from ..engine.selection import ToolPolicy
from .native import NativeExport, Omission, OmissionKind, one_line
from .prefixes import UntranslatablePattern, literal_prefix
from .scope import RuleScope, is_mcp_server_pattern, rule_scopes, selection_omissions

__all__ = ["DIALECT", "GEMINI_DECISIONS", "GEMINI_TOOL_NAMES", "export_gemini_policy"]

DIALECT = "gemini-policy"

GEMINI_TOOL_NAMES = {
    "shell": "run_shell_command",
    "read_file": "read_file",
    "write_file": "write_file",
    "edit_file": "replace",
    "glob": "glob",
}
"""toolpolicy's built-in tools and the Gemini CLI tool each one stands for in a rule."""

GEMINI_DECISIONS = {
    Behavior.ALLOW: ("allow", 100),
    Behavior.ASK: ("ask_user", 200),
    Behavior.DENY: ("deny", 300),
}
"""toolpolicy's behaviors and the Gemini CLI decision and priority each one becomes."""

_SHELL = "run_shell_command"
_MCP = "mcp__"
_HEADER = (
    "# Gemini CLI policy rules exported by `toolpolicy export --to gemini-policy`.\n"
    "# Save as ~/.gemini/policies/toolpolicy.toml (user tier; the workspace tier is disabled).\n"
    "# Re-export after changing the policy instead of editing this file.\n"
)
_KNOBS_HINT = "Gemini CLI's approval mode and sandbox settings decide these"


def export_gemini_policy(policy: ToolPolicy) -> NativeExport:
    """A policy TOML file with one ``[[rule]]`` table per translatable part of each rule."""
    tables: list[str] = []
    omissions: list[Omission] = []
    for scope in rule_scopes(policy):
        made, notes = _translate(scope)
        tables.extend(made)
        omissions.extend(notes)
    omissions.extend(selection_omissions(policy, _KNOBS_HINT))
    return NativeExport(DIALECT, _HEADER + "".join("\n" + t for t in tables), tuple(omissions))


def _translate(scope: RuleScope) -> tuple[list[str], list[Omission]]:
    rule = scope.rule
    if rule.paths is not None:
        if not scope.builtins:
            return [], []
        return [], [
            Omission(
                scope.subject,
                "Gemini CLI matches arguments only by a regular expression over their JSON; "
                "toolpolicy does not translate path globs into one",
            )
        ]
    if rule.commands is not None:
        return _commands(scope)
    tables: list[str] = []
    names = [GEMINI_TOOL_NAMES[b] for b in scope.builtins if b in GEMINI_TOOL_NAMES]
    plain = [n for n in scope.names if not n.startswith(_MCP)]
    if names or plain:
        tables.append(_table(scope, {"toolName": [*names, *plain]}))
    for name in scope.names:
        if name.startswith(_MCP):
            tables.append(_table(scope, _mcp_fields(name)))
    return tables, scope.unlisted_tools("Gemini CLI", exported=bool(tables))


def _commands(scope: RuleScope) -> tuple[list[str], list[Omission]]:
    rule = scope.rule
    if not scope.builtins or rule.commands is None:
        return [], []
    prefixes: list[str] = []
    notes: list[Omission] = []
    for pattern in rule.commands:
        try:
            prefixes.append(" ".join(literal_prefix(pattern, scope.behavior)))
        except UntranslatablePattern as exc:
            notes.append(Omission(f"{scope.subject} command {pattern.text!r}", str(exc)))
    if not prefixes:
        return [], notes
    if scope.behavior is not Behavior.ALLOW:
        notes.append(
            Omission(
                scope.subject,
                "Gemini CLI matches the prefix only at the start of each command; toolpolicy's "
                f"{scope.behavior.label} also hits it behind options, wrappers, 'bash -c' "
                "strings and absolute program paths",
                kind=OmissionKind.PARTIAL,
            )
        )
    table = _table(scope, {"toolName": _SHELL, "commandPrefix": list(dict.fromkeys(prefixes))})
    return [table], notes


def _mcp_fields(name: str) -> dict[str, str | list[str]]:
    """``mcp__github__create_issue`` → mcpName github, toolName create_issue."""
    if is_mcp_server_pattern(name):
        return {"mcpName": name[len(_MCP) : -3], "toolName": "*"}
    server, _, tool = name[len(_MCP) :].partition("__")
    if not tool:
        return {"toolName": name}
    return {"mcpName": server, "toolName": tool}


def _table(scope: RuleScope, fields: dict[str, str | list[str]]) -> str:
    decision, priority = GEMINI_DECISIONS[scope.behavior]
    lines = [f"# rule {scope.rule.name}", "[[rule]]"]
    for key, value in fields.items():
        lines.append(f"{key} = {_toml(value)}")
    lines.append(f"decision = {_toml(decision)}")
    lines.append(f"priority = {priority}")
    if scope.behavior is Behavior.DENY:
        lines.append(f"denyMessage = {_toml(one_line(scope.rule.reason))}")
    return "\n".join(lines) + "\n"


def _toml(value: str | list[str]) -> str:
    """A TOML basic string (JSON's escapes are TOML's) or an array of them."""
    if isinstance(value, list):
        if len(value) == 1:
            return _toml(value[0])
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(one_line(value), ensure_ascii=False)
