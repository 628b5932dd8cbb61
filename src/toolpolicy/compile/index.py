"""The rule index: a decision looks only at the rules that can match its call.

Rules are bucketed by tool name (rules with no ``tools`` or with a wildcard name sit in every
bucket they can match), then, inside a bucket, by the first literal segment of their anchored
``paths`` patterns. Every bucket list keeps declaration order, so the first rule of the
strongest behavior is the one reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import NamedTuple

from .rules import CallFacts, CompiledRule

__all__ = ["RuleIndex", "ToolBucket"]

_GLOB_CHARS = frozenset("*?[\\")


class ToolBucket(NamedTuple):
    """The rules of one tool, ready to be looked up by the call's path and command.

    ``plain`` rules name neither paths nor commands and apply to every call of the tool.
    Path rules are keyed by the literal first segment of their anchored patterns, command
    rules by the first word of their prefixes; the rest sit in the ``*_unkeyed`` lists.
    """

    plain: tuple[CompiledRule, ...]
    by_segment: Mapping[str, tuple[CompiledRule, ...]]
    path_unkeyed: tuple[CompiledRule, ...]
    by_word: Mapping[str, tuple[CompiledRule, ...]]
    command_unkeyed: tuple[CompiledRule, ...]

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
                    p.words[0] if p.words and p.words[0] != "*" else None for p in rule.commands
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
        if path is not None and (self.by_segment or self.path_unkeyed):
            groups.append(self.by_segment.get(path.split("/", 1)[0], ()))
            groups.append(self.path_unkeyed)
            target = facts.target
            if target is not None and target != path:
                groups.append(self.by_segment.get(target.split("/", 1)[0], ()))
        command = facts.command
        if command is not None and (self.by_word or self.command_unkeyed):
            for word in {part[0] for part in command.parts if part}:
                groups.append(self.by_word.get(word, ()))
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
    """The literal first segment of an anchored gitignore pattern, else ``None``."""
    body = pattern.rstrip("/")
    if "/" not in body:
        return None  # matches at any depth
    first = body.lstrip("/").split("/", 1)[0]
    if not first or _GLOB_CHARS.intersection(first):
        return None
    return first


class RuleIndex(NamedTuple):
    """Rules bucketed by tool name."""

    exact: Mapping[str, ToolBucket]
    fallback: tuple[CompiledRule, ...]

    @classmethod
    def build(cls, rules: tuple[CompiledRule, ...], tool_names: Iterable[str]) -> RuleIndex:
        """Index ``rules`` for ``tool_names`` and every name the rules spell out."""
        names = dict.fromkeys(tool_names)
        for rule in rules:
            for pattern in rule.tools or ():
                if pattern.is_exact:
                    names.setdefault(pattern.text)
        fallback = tuple(
            r for r in rules if r.tools is None or any(not p.is_exact for p in r.tools)
        )
        exact = {
            name: ToolBucket.build(
                r for r in rules if r.tools is None or any(p.matches(name) for p in r.tools)
            )
            for name in names
        }
        return cls(exact=MappingProxyType(exact), fallback=fallback)

    def bucket(self, tool: str) -> ToolBucket:
        """The bucket of ``tool``; names never seen at compile time are bucketed now."""
        found = self.exact.get(tool)
        if found is not None:
            return found
        return ToolBucket.build(
            r for r in self.fallback if r.tools is None or any(p.matches(tool) for p in r.tools)
        )
