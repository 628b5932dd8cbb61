"""The rule index: a decision looks only at the rules that can match its call.

Rules are bucketed by tool name (rules with no ``tools`` or with a wildcard name sit in every
bucket they can match), then, inside a bucket, by the first literal segment of their anchored
``paths`` patterns. Every bucket list keeps declaration order, so the first rule of the
strongest behavior is the one reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .rules import CallFacts, CompiledRule

__all__ = ["RuleIndex", "ToolBucket"]

_GLOB_CHARS = frozenset("*?[\\")


@dataclass(frozen=True, slots=True)
class ToolBucket:
    """The rules of one tool, ready to be looked up by path."""

    pathless: tuple[CompiledRule, ...]
    unkeyed: tuple[CompiledRule, ...]
    by_segment: Mapping[str, tuple[CompiledRule, ...]]
    has_path_rules: bool
    has_command_rules: bool

    @classmethod
    def build(cls, rules: Iterable[CompiledRule]) -> ToolBucket:
        """Bucket ``rules`` (in declaration order)."""
        ordered = sorted(rules, key=lambda r: r.order)
        pathless = tuple(r for r in ordered if r.paths is None)
        keyed: dict[str, list[CompiledRule]] = {}
        unkeyed: list[CompiledRule] = []
        for rule in ordered:
            if rule.paths is None:
                unkeyed.append(rule)
                continue
            keys = {_segment_key(p.text) for p in rule.paths}
            if None in keys:
                unkeyed.append(rule)
            else:
                for key in keys:
                    if key is not None:
                        keyed.setdefault(key, []).append(rule)
        by_segment = {
            key: tuple(sorted([*unkeyed, *rules_for_key], key=lambda r: r.order))
            for key, rules_for_key in keyed.items()
        }
        return cls(
            pathless=pathless,
            unkeyed=tuple(unkeyed),
            by_segment=MappingProxyType(by_segment),
            has_path_rules=len(pathless) != len(ordered),
            has_command_rules=any(r.commands is not None for r in ordered),
        )

    @property
    def empty(self) -> bool:
        """True when no rule can match a call of this tool."""
        return not self.unkeyed and not self.by_segment

    def candidates(self, facts: CallFacts) -> tuple[CompiledRule, ...]:
        """The rules that can match ``facts``, in declaration order."""
        path = facts.path
        if path is None or not self.has_path_rules:
            return self.pathless
        found = self.by_segment.get(path.split("/", 1)[0], self.unkeyed)
        target = facts.target
        if target is None or target == path:
            return found
        extra = self.by_segment.get(target.split("/", 1)[0], self.unkeyed)
        if extra is found:
            return found
        merged = {r.order: r for r in (*found, *extra)}
        return tuple(merged[k] for k in sorted(merged))


def _segment_key(pattern: str) -> str | None:
    """The literal first segment of an anchored gitignore pattern, else ``None``."""
    body = pattern.rstrip("/")
    if "/" not in body:
        return None  # matches at any depth
    first = body.lstrip("/").split("/", 1)[0]
    if not first or _GLOB_CHARS.intersection(first):
        return None
    return first


@dataclass(frozen=True, slots=True)
class RuleIndex:
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
