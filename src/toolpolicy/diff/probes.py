"""The calls a diff decides on both sides: one per argument region, plus physical probes.

*Regions* (:mod:`toolpolicy.diff.regions`): for every tool of either side, each region of
its path or command argument where the rules decide something, its shortest witness as the
call, once as it is and, for a tool that accepts ``sandbox_permissions``, once with each
escalation request (one no wider than a side's mode is refused there, before the rules: a
region of its own). Together they cover every argument value the rules can tell apart.

*Physical probes*: what the rules cannot see (the workspace boundary, symlinks, the
protected set) is the same on both sides, but whether a side enforces the boundary is not;
each path tool is probed with ``..``, a symlink escape when the workspace has one, and a
reserved device name. (Absolute paths are argument regions of their own.)

Probes are deduplicated by tool and canonical arguments, first origin kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..core.json_text import encoder
from ..core.vocabulary import Effect, SandboxMode
from ..engine.selection import ToolPolicy
from ..tools.registry import ToolDefinition
from .regions import Region, argument_regions
from .twin import Here

__all__ = ["BOUNDARY_PATHS", "Probe", "arguments_for", "generate_probes"]

BOUNDARY_PATHS = (
    ("../outside.txt", "boundary: '..' climbs out of the workspace"),
    ("NUL", "boundary: reserved name"),
)
_REPRESENTATIVE_PATHS = {Effect.READ: "README.md", Effect.WRITE: "notes.txt"}
_REPRESENTATIVE_COMMAND = "ls"
_COMMAND_FIELD = "command"
_ESCALATION_FIELD = "sandbox_permissions"
_JUSTIFICATION = "probe"
_PLACEHOLDERS = {"content": "x", "old_string": "a", "new_string": "b", "pattern": "**/*"}
_CANONICAL = encoder(ensure_ascii=False, sort_keys=True)  # one encoder for every probe's key


@dataclass(frozen=True, slots=True)
class Probe:
    """One call to decide on both sides and why it was generated (``origin``).

    ``arguments`` is a JSON object, or the raw string of a recorded call whose arguments
    are not an object (both sides then reject it the same way).
    """

    tool: str
    arguments: Mapping[str, object] | str
    origin: str
    region: Region | None = None

    @property
    def key(self) -> tuple[str, str, object]:
        """Tool and canonical arguments: two probes with the same key are the same call.
        Arguments of text values alone are their sorted items (most probes: cheaper than
        JSON), others their canonical JSON; raw string arguments are kept apart from both."""
        arguments = self.arguments
        if isinstance(arguments, str):
            return self.tool, "raw", arguments
        if all(type(value) is str for value in arguments.values()):
            return self.tool, "text", tuple(sorted(arguments.items()))
        return self.tool, "json", _CANONICAL(arguments)


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
            out[field.name] = (
                path if path is not None else _REPRESENTATIVE_PATHS.get(definition.effect, "x")
            )
        elif field.name == _COMMAND_FIELD and definition.effect is Effect.EXECUTE:
            out[field.name] = command if command is not None else _REPRESENTATIVE_COMMAND
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
    hand: Here | None = None,
    early: Callable[[Sequence[Probe]], None] | None = None,
) -> tuple[Probe, ...]:
    """The region probes, the physical probes, then the ``recorded`` calls.

    ``escape_link`` names a top-level symlink of the workspace that leads outside it; the
    symlink-escape probe writes through it. ``hand`` decides a share of each large batch
    (see :class:`~toolpolicy.diff.command_regions.CommandSearch`). ``early`` is given the
    probes of every region found before the command lines are searched, then those of the
    command lines' regions as soon as they are found (the same probe objects the result
    holds), so that they can be decided meanwhile.
    """
    definitions = _definitions(left, right)
    by_name = {d.name: d for d in definitions}
    probes: dict[tuple[str, str, object], Probe] = {}
    made: dict[int, list[Probe]] = {}  # each region's probes, by the region's id

    def of(region: Region) -> list[Probe]:
        found = made.get(id(region))
        if found is not None:
            return found
        d = by_name[region.tool]
        value = {} if region.argument is None else {region.argument: region.value}
        path = value.get(d.path_argument) if d.path_argument is not None else None
        command = value.get(_COMMAND_FIELD)
        out = [Probe(d.name, arguments_for(d, path=path, command=command), "region", region)]
        if _ESCALATION_FIELD in d.arguments.names:
            for mode in SandboxMode:
                arguments = arguments_for(d, path=path, command=command, escalation=mode)
                out.append(Probe(d.name, arguments, f"region, escalation to {mode.value}", region))
        return out

    def found_early(regions: Sequence[Region]) -> None:
        assert early is not None
        for region in regions:
            made[id(region)] = of(region)
        early([probe for region in regions for probe in made[id(region)]])

    def add(probe: Probe) -> None:
        probes.setdefault(probe.key, probe)

    regions = argument_regions(left, right, definitions, hand, found_early if early else None)
    for region in regions:
        for probe in of(region):
            add(probe)
    boundary = list(BOUNDARY_PATHS)
    if escape_link is not None:
        boundary.insert(2, (f"{escape_link}/escape.txt", "boundary: symlink escape"))
    for d in definitions:
        if d.path_argument is not None:
            for path, origin in boundary:
                add(Probe(d.name, arguments_for(d, path=path), origin))
    for probe in recorded:
        add(probe)
    return tuple(probes.values())


def _definitions(left: ToolPolicy, right: ToolPolicy) -> tuple[ToolDefinition, ...]:
    found: dict[str, ToolDefinition] = {}
    for snapshot in (left.tools, right.tools):
        for name in snapshot.names:
            definition = snapshot.get(name)
            if definition is not None:
                found.setdefault(name, definition)
    return tuple(found.values())
