"""Compiled rules and the facts about a call that they match against.

A rule's ``match`` fields must all hold; values within one field are alternatives.
``paths`` on a symlink: an allow must match both the path as written and its resolved target,
a deny or ask hits if either matches; an absolute (``//``) or home (``~/``) pattern is matched
the same way against the call's absolute spellings, wherever the file is. ``commands``: an
allow needs the line to be plain and every command of it to start with one of the rule's
prefixes; a deny or ask hits when a prefix occurs anywhere in the line's conservative reading
(:mod:`toolpolicy.compile.commands`).
"""

from __future__ import annotations

from ..core.decision import Decision
from ..core.lean_typing import TYPE_CHECKING, NamedTuple
from ..core.vocabulary import Behavior, Effect
from .names import NamePattern

if TYPE_CHECKING:
    from .commands import CommandLine, CommandPattern
    from .globs import GlobPattern

__all__ = ["CallFacts", "CompiledRule"]


class CallFacts(NamedTuple):
    """What rules see of one prepared call.

    ``path`` is the normalized workspace-relative path (``None`` when the tool has no path
    argument or the path cannot be normalized); ``target`` is the workspace-relative path of
    the symlink-resolved target (equal to ``path`` for a plain file, ``None`` when it is
    outside or unknown). ``absolute`` holds the absolute spellings of the file — as written,
    then resolved — that absolute and home patterns see (empty when no rule needs them);
    ``home`` is the home folder a ``~/`` pattern stands for.
    """

    tool: str
    effect: Effect
    path: str | None = None
    target: str | None = None
    command: CommandLine | None = None
    absolute: tuple[str, ...] = ()
    home: str = ""


class CompiledRule(NamedTuple):
    """One rule: its decision, precompiled matchers and where it was written."""

    name: str
    behavior: Behavior
    reason: str
    origin: str
    order: int
    tools: tuple[NamePattern, ...] | None
    effects: frozenset[Effect] | None
    paths: tuple[GlobPattern, ...] | None
    commands: tuple[CommandPattern, ...] | None
    decision: Decision

    @property
    def label(self) -> str:
        """``name (file:line)`` as shown in audits and explanations."""
        return f"{self.name} ({self.origin})"

    def matches(self, facts: CallFacts) -> bool:
        """True when every given ``match`` field holds for ``facts``."""
        if self.tools is not None and not any(p.matches(facts.tool) for p in self.tools):
            return False
        if self.effects is not None and facts.effect not in self.effects:
            return False
        if self.paths is not None and not self._paths_match(self.paths, facts):
            return False
        return self.commands is None or self._commands_match(self.commands, facts.command)

    def _paths_match(self, patterns: tuple[GlobPattern, ...], facts: CallFacts) -> bool:
        return self._relative_match(patterns, facts) or self._absolute_match(patterns, facts)

    def _absolute_match(self, patterns: tuple[GlobPattern, ...], facts: CallFacts) -> bool:
        spellings = facts.absolute
        if not spellings:
            return False
        outside = [p for p in patterns if p.outside]
        if not outside:
            return False
        hits = (any(p.matches_absolute(a, facts.home) for p in outside) for a in spellings)
        return all(hits) if self.behavior is Behavior.ALLOW else any(hits)

    def _relative_match(self, patterns: tuple[GlobPattern, ...], facts: CallFacts) -> bool:
        path = facts.path
        if path is None:
            return False
        on_path = any(p.matches(path) for p in patterns)
        target = facts.target
        if target == path:
            return on_path
        on_target = target is not None and any(p.matches(target) for p in patterns)
        if self.behavior is Behavior.ALLOW:
            return on_path and on_target
        return on_path or on_target

    def _commands_match(
        self, patterns: tuple[CommandPattern, ...], line: CommandLine | None
    ) -> bool:
        if line is None:
            return False
        if self.behavior is Behavior.ALLOW:
            plain = line.plain
            return plain is not None and all(
                any(p.covers(command) for p in patterns) for command in plain.commands
            )
        runs, positions = line.runs, line.positions
        return any(p.found_in(runs, positions) is not None for p in patterns)
