"""The probe calls a diff decides on both sides, generated so that every rule is exercised.

For each tool of either side: a representative call; for path tools the boundary cases
(``..``, an absolute path, a symlink escape when the workspace has one, a reserved name);
for tools that accept ``sandbox_permissions`` the same call with an escalation request. For
every rule of either side, on every tool the rule can apply to: for each ``paths`` pattern a
path that matches and a near miss, for each ``commands`` prefix a matching command, the
prefix hidden in a compound line and a near miss (see :mod:`toolpolicy.diff.concrete`).
Probes are deduplicated by tool and canonical arguments, first origin kept.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..compile.rules import CompiledRule
from ..core.vocabulary import Effect, SandboxMode
from ..engine.selection import ToolPolicy
from ..tools.registry import ToolDefinition
from .concrete import command_probes, path_probes

__all__ = ["BOUNDARY_PATHS", "Probe", "arguments_for", "generate_probes"]

BOUNDARY_PATHS = (
    ("../outside.txt", "boundary: '..' climbs out of the workspace"),
    ("/tmp/outside.txt", "boundary: absolute path"),
    ("NUL", "boundary: reserved name"),
)
_REPRESENTATIVE_PATHS = {Effect.READ: "README.md", Effect.WRITE: "notes.txt"}
_REPRESENTATIVE_COMMAND = "ls"
_COMMAND_FIELD = "command"
_ESCALATION_FIELD = "sandbox_permissions"
_JUSTIFICATION = "probe"
_PLACEHOLDERS = {"content": "x", "old_string": "a", "new_string": "b", "pattern": "**/*"}


@dataclass(frozen=True, slots=True)
class Probe:
    """One call to decide on both sides and why it was generated (``origin``).

    ``arguments`` is a JSON object, or the raw string of a recorded call whose arguments
    are not an object (both sides then reject it the same way).
    """

    tool: str
    arguments: Mapping[str, object] | str
    origin: str

    @property
    def key(self) -> tuple[str, str]:
        """Tool and canonical arguments: two probes with the same key are the same call."""
        if isinstance(self.arguments, str):
            return self.tool, self.arguments
        return self.tool, json.dumps(self.arguments, sort_keys=True, ensure_ascii=False)


def arguments_for(
    definition: ToolDefinition,
    *,
    path: str | None = None,
    command: str | None = None,
    escalation: SandboxMode | None = None,
) -> dict[str, object]:
    """Valid arguments for ``definition``: required fields filled with placeholders, the
    path argument set to ``path`` and ``command`` to ``command`` when given."""
    out: dict[str, object] = {}
    for field in definition.arguments.fields:
        if field.name == definition.path_argument:
            out[field.name] = path or _REPRESENTATIVE_PATHS.get(definition.effect, "x")
        elif field.name == _COMMAND_FIELD and definition.effect is Effect.EXECUTE:
            out[field.name] = command or _REPRESENTATIVE_COMMAND
        elif not field.required:
            continue
        elif field.kind is bool:
            out[field.name] = False
        elif field.kind is int:
            out[field.name] = field.minimum or 0
        else:
            out[field.name] = _PLACEHOLDERS.get(field.name, "x")
    if escalation is not None:
        out[_ESCALATION_FIELD] = escalation.value
        out["justification"] = _JUSTIFICATION
    return out


def generate_probes(
    left: ToolPolicy,
    right: ToolPolicy,
    *,
    escape_link: str | None = None,
    recorded: Iterable[Probe] = (),
) -> tuple[Probe, ...]:
    """Every generated probe for the two sides, then the ``recorded`` calls.

    ``escape_link`` names a top-level symlink of the workspace that leads outside it; the
    symlink-escape probe writes through it.
    """
    definitions = _definitions(left, right)
    probes: dict[tuple[str, str], Probe] = {}

    def add(tool: str, arguments: Mapping[str, object] | str, origin: str) -> None:
        probe = Probe(tool, arguments, origin)
        probes.setdefault(probe.key, probe)

    for d in definitions:
        add(d.name, arguments_for(d), f"representative {d.effect.value} call")
    boundary = list(BOUNDARY_PATHS)
    if escape_link is not None:
        boundary.insert(2, (f"{escape_link}/escape.txt", "boundary: symlink escape"))
    for d in definitions:
        if d.path_argument is not None:
            for path, origin in boundary:
                add(d.name, arguments_for(d, path=path), origin)
    for d in definitions:
        if _ESCALATION_FIELD in d.arguments.names:
            for mode in SandboxMode:
                if mode.rank > 0:
                    add(d.name, arguments_for(d, escalation=mode), f"escalation to {mode.value}")
    for rule in (*left.compiled.rules, *right.compiled.rules):
        for d in _applicable(rule, definitions):
            for tool, arguments, origin in _rule_probes(rule, d):
                add(tool, arguments, origin)
    for probe in recorded:
        probes.setdefault(probe.key, probe)
    return tuple(probes.values())


def _definitions(left: ToolPolicy, right: ToolPolicy) -> tuple[ToolDefinition, ...]:
    found: dict[str, ToolDefinition] = {}
    for snapshot in (left.tools, right.tools):
        for name in snapshot.names:
            definition = snapshot.get(name)
            if definition is not None:
                found.setdefault(name, definition)
    return tuple(found.values())


def _applicable(
    rule: CompiledRule, definitions: Sequence[ToolDefinition]
) -> Iterable[ToolDefinition]:
    for d in definitions:
        if rule.tools is not None and not any(p.matches(d.name) for p in rule.tools):
            continue
        if rule.effects is not None and d.effect not in rule.effects:
            continue
        yield d


def _rule_probes(
    rule: CompiledRule, d: ToolDefinition
) -> Iterable[tuple[str, dict[str, object], str]]:
    who = f"rule {rule.label}"
    if rule.paths is not None and d.path_argument is not None:
        for glob in rule.paths:
            found = path_probes(glob)
            if found is None:
                continue
            yield d.name, arguments_for(d, path=found.match), f"{who}: matches path {glob.text}"
            if found.miss is not None:
                origin = f"{who}: near miss of path {glob.text}"
                yield d.name, arguments_for(d, path=found.miss), origin
    if rule.commands is not None and d.effect is Effect.EXECUTE:
        for pattern in rule.commands:
            lines = command_probes(pattern)
            for line, what in (
                (lines.match, "matches command"),
                (lines.compound, "hides in a compound command"),
                (lines.miss, "near miss of command"),
            ):
                if line is not None:
                    yield d.name, arguments_for(d, command=line), f"{who}: {what} {pattern.text}"
