"""Patterns alike below a point of the search: what one reaches there, another reaches too.

Two policies of a thousand path rules are mostly rules like ``area5/**/*.c`` and
``area6/**/*.c``: once the search has read ``area5/``, what lies below is searched as it is
below ``area6/``, with one pattern in the place of the other. :func:`.automaton.explore`
searches the first such place with the rest of the search, the next one with other
patterns apart, and renames what it found there for every later one.

A state of the search is a set of automaton states; each belongs to a pattern (its
*owner*) or to none (the states every pattern shares, and those of the patterns that must
keep their identity, such as the protected paths a search stops at). The states of one
pattern in a search state (its *part*) have a *shape*: the automaton reachable from them,
its states numbered in the order a walk from the part meets them, with their edges and
whether they accept. Two parts of the same shape read the same strings to the same
outcomes. Two search states are *alike* when their shared states are the same and their
patterns can be paired so that each pair's parts have the same shape: whatever one finds
below, the other finds with the patterns renamed.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .automaton import CompiledNfa

__all__ = ["SHARED", "Key", "Shapes"]

SHARED = -1
"""The owner of a state that belongs to no pattern that may be renamed."""


Key = tuple[frozenset[int], tuple[int, ...]]
"""The shared states, and the shapes of the patterns' parts (sorted)."""


class Shapes:
    """An automaton's symmetry: which pattern owns each state (``owner``, :data:`SHARED`:
    none), the domain state at which a search looks for places alike (``at``: where a path
    segment begins), and the shape of each pattern's part of a search state, made when
    first asked for (once for every search of the automaton)."""

    def __init__(self, nfa: CompiledNfa, owner: Sequence[int], at: Hashable) -> None:
        self.nfa = nfa
        self.owner = owner
        self.at = at
        self.ids: dict[Hashable, int] = {}
        self.of: dict[tuple[int, ...], int] = {}

    def key(self, states: frozenset[int]) -> tuple[Key, tuple[int, ...]]:
        """The key of a search state's automaton states (two alike have one key), and its
        patterns in the order of the key's shapes: pair them with another's so."""
        owner = self.owner
        shared: list[int] = []
        parts: dict[int, list[int]] = {}
        for state in states:
            pattern = owner[state]
            if pattern == SHARED:
                shared.append(state)
            else:
                part = parts.get(pattern)
                if part is None:
                    parts[pattern] = [state]
                else:
                    part.append(state)
        shape = self.shape
        ordered = sorted((shape(tuple(sorted(part))), pattern) for pattern, part in parts.items())
        return (
            (frozenset(shared), tuple(shape for shape, _ in ordered)),
            tuple(pattern for _, pattern in ordered),
        )

    def shape(self, part: tuple[int, ...]) -> int:
        """The shape of a pattern's states ``part`` (ascending): one number for every part
        whose reachable automaton is this one's, numbered alike from the part's states; a
        part that reaches another pattern's state, or accepts for another pattern, has a
        shape of its own."""
        known = self.of.get(part)
        if known is not None:
            return known
        moves, accepts, owner = self.nfa.moves, self.nfa.accepts, self.owner
        pattern = owner[part[0]]
        order = list(part)
        number = {state: place for place, state in enumerate(order)}
        for current in order:  # grows as the walk goes
            for _, targets in moves[current]:
                for target in sorted(targets):
                    if target not in number:
                        number[target] = len(order)
                        order.append(target)
        alone = any(owner[s] != pattern or accepts.get(s, pattern) != pattern for s in order)
        form: Hashable = (
            ("alone", part)
            if alone
            else (
                len(part),
                tuple(
                    (
                        s in accepts,
                        tuple(
                            (symbols, tuple(sorted(number[t] for t in targets)))
                            for symbols, targets in moves[s]
                        ),
                    )
                    for s in order
                ),
            )
        )
        found = self.ids.setdefault(form, len(self.ids))
        self.of[part] = found
        return found
