"""The rule index: a decision looks only at the rules that can match its call.

Rules are bucketed by tool name (rules with no ``tools`` or with a wildcard name sit in every
bucket they can match), then, inside a bucket, by the first literal segment of their anchored
``paths`` patterns. Every bucket list keeps declaration order, so the first rule of the
strongest behavior is the one reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from ..core.lean_typing import NamedTuple
from .command_patterns import program_key
from .rules import CallFacts, CompiledRule

__all__ = ["RuleIndex", "RuleView", "ToolBucket"]

_GLOB_CHARS = frozenset("*?[\\")


class ToolBucket(NamedTuple):
    """The rules of one tool, ready to be looked up by the call's path and command.

    ``plain`` rules name neither paths nor commands and apply to every call of the tool.
    Path rules are keyed by the literal first segment of their anchored patterns, command
    rules by the basename of their program; the rest sit in the ``*_unkeyed`` lists.
    """

    plain: tuple[CompiledRule, ...]
    by_segment: Mapping[str, tuple[CompiledRule, ...]]
    path_unkeyed: tuple[CompiledRule, ...]
    by_word: Mapping[str, tuple[CompiledRule, ...]]
    command_unkeyed: tuple[CompiledRule, ...]
    has_outside_paths: bool = False
    """True when some rule names an absolute (``//``) or home (``~/``) path."""

    @classmethod
    def build(cls, rules: Iterable[CompiledRule]) -> ToolBucket:
        """Bucket ``rules`` (kept in declaration order everywhere)."""
        ordered = sorted(rules, key=lambda r: r.order)
        plain: list[CompiledRule] = []
        by_segment: dict[str, list[CompiledRule]] = {}
        path_unkeyed: list[CompiledRule] = []
        by_word: dict[str, list[CompiledRule]] = {}
        command_unkeyed: list[CompiledRule] = []
        for rule in ordered:
            if rule.paths is not None:
                _file(rule, {_segment_key(p.text) for p in rule.paths}, by_segment, path_unkeyed)
            elif rule.commands is not None:
                words = {
                    program_key(p.program) if p.program != "*" else None for p in rule.commands
                }
                _file(rule, words, by_word, command_unkeyed)
            else:
                plain.append(rule)
        return cls(
            plain=tuple(plain),
            by_segment=MappingProxyType({k: tuple(v) for k, v in by_segment.items()}),
            path_unkeyed=tuple(path_unkeyed),
            by_word=MappingProxyType({k: tuple(v) for k, v in by_word.items()}),
            command_unkeyed=tuple(command_unkeyed),
            has_outside_paths=any(p.outside for r in path_unkeyed for p in r.paths or ()),
        )

    @property
    def has_path_rules(self) -> bool:
        """True when some rule of this tool looks at paths."""
        return bool(self.by_segment or self.path_unkeyed)

    @property
    def has_command_rules(self) -> bool:
        """True when some rule of this tool looks at commands."""
        return bool(self.by_word or self.command_unkeyed)

    @property
    def empty(self) -> bool:
        """True when no rule can match a call of this tool."""
        return not (self.plain or self.has_path_rules or self.has_command_rules)

    def candidates(self, facts: CallFacts) -> tuple[CompiledRule, ...]:
        """The rules that can match ``facts``, in declaration order."""
        groups: list[tuple[CompiledRule, ...]] = [self.plain]
        path = facts.path
        if facts.absolute and self.path_unkeyed:
            groups.append(self.path_unkeyed)
        if path is not None and (self.by_segment or self.path_unkeyed):
            groups.append(self.by_segment.get(path.split("/", 1)[0], ()))
            groups.append(self.path_unkeyed)
            target = facts.target
            if target is not None and target != path:
                groups.append(self.by_segment.get(target.split("/", 1)[0], ()))
        command = facts.command
        if command is not None and (self.by_word or self.command_unkeyed):
            by_word = self.by_word
            groups.extend(by_word[word] for word in command.positions if word in by_word)
            groups.append(self.command_unkeyed)
        found = [g for g in groups if g]
        if len(found) <= 1:
            return found[0] if found else ()
        merged = {r.order: r for group in found for r in group}
        return tuple(merged[k] for k in sorted(merged))


def _file(
    rule: CompiledRule,
    keys: set[str | None],
    keyed: dict[str, list[CompiledRule]],
    unkeyed: list[CompiledRule],
) -> None:
    """File ``rule`` under each key, or as unkeyed when any of its patterns has no key."""
    if None in keys:
        unkeyed.append(rule)
        return
    for key in keys:
        if key is not None:
            keyed.setdefault(key, []).append(rule)


def _segment_key(pattern: str) -> str | None:
    """The literal first segment of an anchored gitignore pattern, else ``None`` (an absolute
    or home pattern has no workspace segment)."""
    if pattern.startswith(("//", "~/")):
        return None
    body = pattern.rstrip("/")
    if "/" not in body:
        return None  # matches at any depth
    first = body.lstrip("/").split("/", 1)[0]
    if not first or _GLOB_CHARS.intersection(first):
        return None
    return first


class RuleView(NamedTuple):
    """The rules a call of one tool can match: the tool's own and those for every tool."""

    own: ToolBucket
    shared: ToolBucket

    @property
    def has_path_rules(self) -> bool:
        """True when some rule looks at paths."""
        return self.own.has_path_rules or self.shared.has_path_rules

    @property
    def has_outside_paths(self) -> bool:
        """True when some rule names an absolute (``//``) or home (``~/``) path."""
        return self.own.has_outside_paths or self.shared.has_outside_paths

    @property
    def has_command_rules(self) -> bool:
        """True when some rule looks at commands."""
        return self.own.has_command_rules or self.shared.has_command_rules

    @property
    def empty(self) -> bool:
        """True when no rule can match a call of this tool."""
        return self.own.empty and self.shared.empty

    def candidates(self, facts: CallFacts) -> tuple[CompiledRule, ...]:
        """The rules that can match ``facts``, in declaration order."""
        own = self.own.candidates(facts)
        shared = self.shared.candidates(facts)
        if not shared or not own:
            return own or shared
        merged = {r.order: r for r in (*own, *shared)}
        return tuple(merged[k] for k in sorted(merged))


class RuleIndex(NamedTuple):
    """Rules bucketed by tool name.

    Rules without ``tools`` form one shared bucket instead of being copied into every tool's;
    rules with a wildcard name (``mcp__github__*``) are found through the literal prefix
    before their first ``*``, so building the index stays linear in the number of rules.
    """

    views: Mapping[str, RuleView]
    shared: ToolBucket
    wildcards: Mapping[str, tuple[CompiledRule, ...]]

    @classmethod
    def build(cls, rules: tuple[CompiledRule, ...], tool_names: Iterable[str]) -> RuleIndex:
        """Index ``rules`` for ``tool_names`` and every name the rules spell out."""
        exact: dict[str, list[CompiledRule]] = {name: [] for name in tool_names}
        wildcards: dict[str, list[CompiledRule]] = {}
        for rule in rules:
            for pattern in rule.tools or ():
                if pattern.is_exact:
                    exact.setdefault(pattern.text, []).append(rule)
                else:
                    prefix = pattern.text.split("*", 1)[0]
                    wildcards.setdefault(prefix, []).append(rule)
        shared = ToolBucket.build(r for r in rules if r.tools is None)
        frozen = MappingProxyType({k: tuple(v) for k, v in wildcards.items()})
        views = {
            name: RuleView(ToolBucket.build(_unique(own, _wildcard_rules(frozen, name))), shared)
            for name, own in exact.items()
        }
        return cls(views=MappingProxyType(views), shared=shared, wildcards=frozen)

    def rules_for(self, tool: str) -> RuleView:
        """The rules of ``tool``; a name never seen at compile time is looked up now."""
        found = self.views.get(tool)
        if found is not None:
            return found
        return RuleView(ToolBucket.build(_wildcard_rules(self.wildcards, tool)), self.shared)


def _wildcard_rules(
    wildcards: Mapping[str, tuple[CompiledRule, ...]], name: str
) -> list[CompiledRule]:
    """The wildcard-named rules that match ``name``."""
    if not wildcards:
        return []
    found: list[CompiledRule] = []
    for end in range(len(name) + 1):
        for rule in wildcards.get(name[:end], ()):
            if any(p.matches(name) for p in rule.tools or ()):
                found.append(rule)
    return found


def _unique(*groups: Iterable[CompiledRule]) -> list[CompiledRule]:
    """The rules of ``groups`` once each, in declaration order."""
    merged = {r.order: r for group in groups for r in group}
    return [merged[k] for k in sorted(merged)]
