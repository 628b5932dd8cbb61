"""Export to a Codex execpolicy ``.rules`` file (Starlark ``prefix_rule`` calls).

Codex loads every ``*.rules`` file under ``~/.codex/rules/`` at start-up. A rule is
``prefix_rule(pattern=[...], decision="allow"|"prompt"|"forbidden", justification=...,
match=[...], not_match=[...])``: ``pattern`` is a literal prefix of the command's argv (an
element may be a list of alternatives), the strictest decision of every matching rule wins
(forbidden > prompt > allow, as deny > ask > allow), and ``match``/``not_match`` are examples
Codex checks when it loads the file. Reference: openai/codex ``codex-rs/execpolicy/src/
parser.rs`` (``prefix_rule``), ``rule.rs`` (``PrefixPattern::matches_prefix``),
``decision.rs``.

Only command prefixes can be said: path rules, tool-name rules and MCP tools are reported.
The policy's own ``examples`` for the shell become each rule's ``match`` (the prefix matches
the example's argv) and ``not_match`` (same program, the prefix does not match).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable

from ..compile.commands import split_command_line
from ..compile.policy import CompiledExample
from ..core.vocabulary import ApprovalPolicy, Behavior
from ..engine.selection import ToolPolicy
from .native import NativeExport, Omission, OmissionKind, one_line
from .prefixes import UntranslatablePattern, literal_prefix, prefix_matches
from .scope import RuleScope, rule_scopes, selection_omissions, takes_command

__all__ = ["CODEX_DECISIONS", "DIALECT", "export_codex_rules"]

DIALECT = "codex-rules"

CODEX_DECISIONS = {Behavior.ALLOW: "allow", Behavior.ASK: "prompt", Behavior.DENY: "forbidden"}
"""toolpolicy's behaviors and the execpolicy decision each one becomes."""

_HEADER = (
    "# Codex execpolicy rules exported by `toolpolicy export --to codex-rules`.\n"
    "# Save as ~/.codex/rules/toolpolicy.rules: Codex loads every *.rules file there.\n"
    "# Re-export after changing the policy instead of editing this file.\n"
)


def export_codex_rules(policy: ToolPolicy) -> NativeExport:
    """A ``.rules`` file with one ``prefix_rule`` per command pattern of ``policy``."""
    examples = tuple(_shell_examples(policy))
    blocks: list[str] = []
    omissions: list[Omission] = []
    for scope in rule_scopes(policy):
        made, notes = _translate(scope, examples)
        blocks.extend(made)
        omissions.extend(notes)
    omissions.extend(selection_omissions(policy, _knobs_hint(policy)))
    return NativeExport(DIALECT, _HEADER + "".join("\n" + b for b in blocks), tuple(omissions))


def _translate(
    scope: RuleScope, examples: tuple[tuple[str, ...], ...]
) -> tuple[list[str], list[Omission]]:
    rule = scope.rule
    if rule.commands is None:
        if scope.builtins or scope.names or scope.open_ended:
            what = "file paths" if rule.paths is not None else "tool names"
            return [], [Omission(scope.subject, f"Codex .rules match command prefixes, not {what}")]
        return [], []
    if not scope.builtins:
        return [], []
    blocks: list[str] = []
    notes: list[Omission] = []
    for pattern in rule.commands:
        try:
            prefix = literal_prefix(pattern, scope.behavior)
        except UntranslatablePattern as exc:
            notes.append(Omission(f"{scope.subject} command {pattern.text!r}", str(exc)))
            continue
        blocks.append(_prefix_rule(scope, prefix, examples))
    if blocks and scope.behavior is not Behavior.ALLOW:
        notes.append(
            Omission(
                scope.subject,
                "Codex matches the prefix only at the start of a command's argv; toolpolicy's "
                f"{scope.behavior.label} also hits it behind options, wrappers, 'bash -c' "
                "strings and absolute program paths",
                kind=OmissionKind.PARTIAL,
            )
        )
    return blocks, notes


def _prefix_rule(
    scope: RuleScope, prefix: tuple[str, ...], examples: tuple[tuple[str, ...], ...]
) -> str:
    rule = scope.rule
    matching = [argv for argv in examples if prefix_matches(prefix, argv)]
    others = [argv for argv in examples if argv[0] == prefix[0] and argv not in matching]
    lines = [
        f"# rule {rule.name} ({os.path.basename(rule.origin)})",
        "prefix_rule(",
        f"    pattern = {_list(prefix)},",
        f"    decision = {_string(CODEX_DECISIONS[scope.behavior])},",
        f"    justification = {_string(one_line(rule.reason))},",
    ]
    if matching:
        lines.append(f"    match = {_examples(matching)},")
    if others:
        lines.append(f"    not_match = {_examples(others)},")
    lines.append(")")
    return "\n".join(lines) + "\n"


def _shell_examples(policy: ToolPolicy) -> Iterable[tuple[str, ...]]:
    """The argv of every shell example that is one plain command, each once."""
    seen: set[tuple[str, ...]] = set()
    for example in policy.compiled.examples:
        if not _is_shell_call(policy, example):
            continue
        line = split_command_line(str(example.arguments["command"]))
        if not line.complete or len(line.parts) != 1 or not line.parts[0]:
            continue
        argv = line.parts[0]
        if argv not in seen and one_line("".join(argv)) == "".join(argv):
            seen.add(argv)
            yield argv


def _is_shell_call(policy: ToolPolicy, example: CompiledExample) -> bool:
    definition = policy.tools.get(example.tool)
    command = example.arguments.get("command")
    return definition is not None and takes_command(definition) and isinstance(command, str)


def _knobs_hint(policy: ToolPolicy) -> str:
    approval = "never" if policy.knobs.approval is ApprovalPolicy.NEVER else "on-request"
    return (
        f'set sandbox_mode = "{policy.knobs.sandbox}" and approval_policy = "{approval}" in '
        "Codex's config.toml; a .rules file cannot carry them, and Codex runs a command a "
        "rule allows outside its sandbox"
    )


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _list(words: Iterable[str]) -> str:
    return "[" + ", ".join(_string(w) for w in words) + "]"


def _examples(argvs: list[tuple[str, ...]]) -> str:
    return "[" + ", ".join(_list(argv) for argv in argvs) + "]"
