"""Compile documents into an immutable ``CompiledPolicy``.

Input is plain data (``SourceDocument``); output uses only core types and precompiled
matchers, and pickles (mappings are plain dicts behind read-only ``Mapping`` types). A
pattern that does not compile makes the whole load fail with a ``Problem`` at the rule's line
whose pointer names the pattern itself: a rule reported invalid is never compiled.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence

from ..core.decision import Decision
from ..core.errors import PolicyLoadError, Problem
from ..core.lean_typing import TYPE_CHECKING, NamedTuple
from ..core.vocabulary import Behavior, Effect
from .capabilities import CapabilitySet
from .index import RuleIndex
from .names import NamePattern
from .rules import CompiledRule
from .source import SourceDocument

if TYPE_CHECKING:
    from typing import Any, TypeVar

    from .command_patterns import CommandPattern
    from .globs import GlobPattern

    T = TypeVar("T")

__all__ = [
    "CompiledExample",
    "CompiledPolicy",
    "CompiledProfile",
    "SourceRef",
    "compile_policy",
    "compile_profile",
]


class SourceRef(NamedTuple):
    """A file a compiled policy was built from, and the sha256 of its bytes."""

    path: str
    sha256: str


class CompiledProfile(NamedTuple):
    """A profile: capabilities, tools and the defaults used when every participant passes."""

    name: str
    chapter: int
    description: str
    capabilities: CapabilitySet
    tools: tuple[str, ...]
    defaults: Mapping[Effect, Behavior]
    source: SourceRef

    def default_for(self, effect: Effect) -> Behavior:
        """The default behavior for ``effect``."""
        return self.defaults[effect]


class CompiledExample(NamedTuple):
    """A self-test of a policy file: a call and the decision it must get."""

    tool: str
    arguments: Mapping[str, Any]
    behavior: Behavior
    source: str | None
    preset: str | None
    path: str
    line: int


class CompiledPolicy(NamedTuple):
    """A profile plus every layered rule, indexed by tool name."""

    profile: CompiledProfile
    rules: tuple[CompiledRule, ...]
    rule_index: RuleIndex
    sources: tuple[SourceRef, ...]
    examples: tuple[CompiledExample, ...]


def compile_profile(document: SourceDocument) -> CompiledProfile:
    """The ``CompiledProfile`` of a validated ``Profile`` document."""
    data = document.data
    defaults = data["defaults"]
    return CompiledProfile(
        name=str(data["name"]),
        chapter=int(data["chapter"]),
        description=str(data.get("description") or ""),
        capabilities=CapabilitySet(data["capabilities"]),
        tools=tuple(data["tools"]),
        defaults={e: Behavior.parse(defaults[e.value]) for e in Effect},
        source=SourceRef(document.path, document.sha256),
    )


def compile_policy(
    profile: CompiledProfile,
    documents: Sequence[SourceDocument],
) -> CompiledPolicy:
    """Compile the rules and examples of ``documents`` (profile document first) on ``profile``.

    Raises ``PolicyLoadError`` listing every pattern that does not compile.
    """
    rules: list[CompiledRule] = []
    examples: list[CompiledExample] = []
    problems: list[Problem] = []
    compilers = _Compilers()
    for document in documents:
        for i, raw in enumerate(document.data.get("rules") or ()):
            try:
                rules.append(_compile_rule(raw, document, i, len(rules), compilers))
            except _InvalidPatterns as exc:
                line = document.line_of(f"/rules/{i}")
                problems += [
                    Problem(document.path, line, 1, "invalid-pattern", message, pointer)
                    for pointer, message in exc.found
                ]
        for i, raw in enumerate(document.data.get("examples") or ()):
            examples.append(_compile_example(raw, document, i))
    if problems:
        raise PolicyLoadError(problems)
    compiled = tuple(rules)
    tool_names = (*profile.tools, *_BUILTIN_NAMES)
    return CompiledPolicy(
        profile=profile,
        rules=compiled,
        rule_index=RuleIndex.build(compiled, tool_names),
        sources=tuple(SourceRef(d.path, d.sha256) for d in documents),
        examples=tuple(examples),
    )


_BUILTIN_NAMES = ("shell", "read_file", "write_file", "edit_file", "glob")


class _InvalidPatterns(Exception):
    """Patterns of one rule that do not compile, as (JSON pointer, message) pairs."""

    def __init__(self, found: list[tuple[str, str]]) -> None:
        super().__init__(found)
        self.found = found


def _each(
    items: Sequence[str] | None,
    compile_one: Callable[[str], T],
    index: int,
    key: str,
    invalid: list[tuple[str, str]],
) -> tuple[T, ...] | None:
    """Every item of rule ``index``'s ``match.key`` compiled; the ones that do not compile
    are added to ``invalid``, by pointer."""
    if items is None:
        return None
    try:
        return tuple([compile_one(item) for item in items])
    except ValueError:  # GlobError and CommandPatternError among them: find every one
        pass
    compiled: list[T] = []
    for j, item in enumerate(items):
        try:
            compiled.append(compile_one(item))
        except ValueError as exc:
            invalid.append((f"/rules/{index}/match/{key}/{j}", str(exc)))
    return tuple(compiled)


class _Compilers:
    """The pattern compilers, each imported when the first rule needs it, then called
    directly (an import statement per pattern is a tenth of compiling 100,000 rules).

    Path patterns load the glob compiler, command patterns the shell-line reader: a policy
    with none of them never imports them. Tool names are built once per list of names.
    """

    __slots__ = ("_names", "command", "glob", "occurrence")

    glob: Callable[[str], GlobPattern]
    command: Callable[[str], CommandPattern]
    occurrence: Callable[[str], CommandPattern]

    def __init__(self) -> None:
        self.glob = self._first_glob
        self.command = self._first_command
        self.occurrence = self._first_occurrence
        self._names: dict[tuple[str, ...], tuple[NamePattern, ...]] = {}

    def names(self, items: Sequence[str] | None) -> tuple[NamePattern, ...] | None:
        """A rule's tool-name patterns; rules that name the same tools share one tuple
        (every name is a valid pattern)."""
        if items is None:
            return None
        key = tuple(items)
        found = self._names.get(key)
        if found is None:
            found = self._names[key] = tuple([NamePattern(text) for text in key])
        return found

    def _first_glob(self, pattern: str) -> GlobPattern:
        from .globs import compile_glob

        self.glob = functools.partial(compile_glob, gitignore=True)
        return self.glob(pattern)

    def _first_command(self, pattern: str) -> CommandPattern:
        from .commands import compile_command_pattern

        self.command = compile_command_pattern
        return self.command(pattern)

    def _first_occurrence(self, pattern: str) -> CommandPattern:
        from .commands import compile_occurrence_pattern

        self.occurrence = compile_occurrence_pattern
        return self.occurrence(pattern)


def _compile_rule(
    raw: Mapping[str, Any],
    document: SourceDocument,
    index: int,
    order: int,
    compilers: _Compilers,
) -> CompiledRule:
    match = raw.get("match") or {}
    behavior = Behavior.parse(raw["behavior"])
    name = str(raw["name"])
    reason = str(raw["reason"])
    effects = match.get("effects")
    invalid: list[tuple[str, str]] = []
    tools = compilers.names(match.get("tools"))
    paths = _each(match.get("paths"), compilers.glob, index, "paths", invalid)
    # A deny or ask reads a line's runs of words: its patterns hold only words a run can hold.
    reads = compilers.command if behavior is Behavior.ALLOW else compilers.occurrence
    commands = _each(match.get("commands"), reads, index, "commands", invalid)
    if invalid:
        raise _InvalidPatterns(invalid)
    return CompiledRule(
        name=name,
        behavior=behavior,
        reason=reason,
        origin=f"{document.path}:{document.line_of(f'/rules/{index}')}",
        order=order,
        tools=tools,
        effects=None if effects is None else frozenset(Effect(e) for e in effects),
        paths=paths,
        commands=commands,
        decision=Decision(behavior, reason, name),
    )


def _compile_example(
    raw: Mapping[str, Any], document: SourceDocument, index: int
) -> CompiledExample:
    call = raw["call"]
    expect = raw["expect"]
    if isinstance(expect, str):
        behavior, source = Behavior.parse(expect), None
    else:
        behavior, source = Behavior.parse(expect["behavior"]), expect.get("source")
    return CompiledExample(
        tool=str(call["tool"]),
        arguments=dict(call.get("arguments") or {}),
        behavior=behavior,
        source=source,
        preset=raw.get("preset"),
        path=document.path,
        line=document.line_of(f"/examples/{index}"),
    )
