"""A small nondeterministic automaton over symbol classes, and the lazy search of its subsets.

Symbols are small integers: character classes for paths (:mod:`.alphabet`), word ids for
commands. An edge reads a :class:`SymbolSet`, either the listed symbols or every symbol but
the listed ones, so "any character but ``/``" needs no enumeration. Many patterns share one
:class:`Nfa`; each pattern has its own start and accept state.

:func:`explore` runs the subset construction lazily and breadth first, together with a
deterministic *domain* (which symbol strings are valid arguments at all), and collects
every set of patterns that match together on a valid string; the first string reaching a
set is a shortest witness of it. Per state only the symbols some live edge or the domain
singles out are tried one by one; every other symbol behaves alike and is tried once, as
``rest``. What a set of automaton states does on each symbol is computed once, however
many domain states it meets.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from ..core.errors import ToolPolicyError
from .symmetry import Key, Shapes

__all__ = [
    "ALIKE_STATES",
    "ALIKE_TRIES",
    "MAX_STATES",
    "SHARE_LEVEL",
    "AutomatonTooLarge",
    "Domain",
    "Nfa",
    "Share",
    "SymbolSet",
    "explore",
    "merged",
]

MAX_STATES = 400_000
ALIKE_STATES = 64
"""The most automaton states a search state may hold to be compared with others (see
``symmetry`` in :func:`explore`): larger ones, where all patterns begin, are seldom alike,
and their shapes cost the more to tell."""
ALIKE_TRIES = 64
"""Places whose kind a search tells before it asks whether that pays: it goes on telling
while at least one place in eight was renamed (no policy's folders alike: it soon stops,
having spent on 64 places what telling costs)."""


class AutomatonTooLarge(ToolPolicyError):
    """The search would visit more than :data:`MAX_STATES` states: the diff refuses to
    answer rather than answer incompletely."""


@dataclass(frozen=True, slots=True)
class SymbolSet:
    """``symbols`` (``negated=False``) or every symbol except them (``negated=True``)."""

    symbols: frozenset[int]
    negated: bool = False

    def __contains__(self, symbol: int) -> bool:
        return (symbol in self.symbols) is not self.negated


class Domain(Protocol):
    """A deterministic automaton of the valid argument values (``None`` is its dead state)."""

    start: Hashable

    def step(self, state: Hashable, symbol: int) -> Hashable | None:
        """The state after ``symbol``, or ``None`` when no valid value continues that way."""
        ...

    def accepting(self, state: Hashable) -> bool:
        """Whether the string read so far is a valid value."""
        ...

    def split(self, named: frozenset[int]) -> tuple[frozenset[int], int | None]:
        """Given the symbols some live edge names, the further symbols to try one by one,
        and one symbol (``None``: none is left) that stands for every other: from any
        state, a string through it must reach at least what one through another would."""
        ...

    def rank(self, symbol: int) -> int:
        """Which symbols a witness prefers (lower first) among strings of equal length."""
        ...


@dataclass(slots=True)
class Nfa:
    """States are indices; ``edges[s]`` read a symbol set, ``empty[s]`` read nothing."""

    edges: list[list[tuple[SymbolSet, int]]] = field(default_factory=list)
    empty: list[list[int]] = field(default_factory=list)
    accepts: dict[int, int] = field(default_factory=dict)

    def state(self) -> int:
        """A new state."""
        self.edges.append([])
        self.empty.append([])
        return len(self.edges) - 1

    def edge(self, source: int, symbols: SymbolSet, target: int) -> None:
        """``source`` reads one symbol of ``symbols`` and goes to ``target``."""
        self.edges[source].append((symbols, target))

    def link(self, source: int, target: int) -> None:
        """``source`` goes to ``target`` without reading."""
        self.empty[source].append(target)

    def accept(self, state: int, pattern: int) -> None:
        """Reaching ``state`` means pattern number ``pattern`` matched."""
        self.accepts[state] = pattern

    def compiled(self) -> CompiledNfa:
        """Closures and edges frozen for the search."""
        closures = [self._closure(s) for s in range(len(self.edges))]
        moves = tuple(
            tuple((symbols, closures[target]) for symbols, target in self.edges[s])
            for s in range(len(self.edges))
        )
        return CompiledNfa(tuple(closures), moves, dict(self.accepts))

    def _closure(self, state: int) -> frozenset[int]:
        if not self.empty[state]:  # most states: themselves alone
            return frozenset((state,))
        seen = {state}
        stack = [state]
        while stack:
            for nxt in self.empty[stack.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return frozenset(seen)


@dataclass(frozen=True, slots=True)
class CompiledNfa:
    """An :class:`Nfa` ready for :func:`explore`."""

    closures: tuple[frozenset[int], ...]
    moves: tuple[tuple[tuple[SymbolSet, frozenset[int]], ...], ...]
    accepts: dict[int, int]

    def start_set(self, starts: Iterable[int]) -> frozenset[int]:
        """The closure of ``starts``."""
        out: set[int] = set()
        for s in starts:
            out |= self.closures[s]
        return frozenset(out)

    def advance(self, starts: Iterable[int], symbols: Iterable[int]) -> frozenset[int]:
        """The states reached from ``starts`` after reading ``symbols``."""
        states = self.start_set(starts)
        for symbol in symbols:
            reached: set[int] = set()
            for state in states:
                for edge, targets in self.moves[state]:
                    if symbol in edge:
                        reached |= targets
            states = frozenset(reached)
        return states

    def hazards(self, patterns: frozenset[int]) -> frozenset[int]:
        """The states from which no pattern but ``patterns`` can match (each step there
        only moves towards a match of ``patterns``, or nowhere)."""
        before: list[list[int]] = [[] for _ in self.moves]
        for state, closure in enumerate(self.closures):
            for reached in closure:
                before[reached].append(state)
            for _, targets in self.moves[state]:
                for reached in targets:
                    before[reached].append(state)
        live = [s for s, pattern in self.accepts.items() if pattern not in patterns]
        seen = set(live)
        while live:
            for state in before[live.pop()]:
                if state not in seen:
                    seen.add(state)
                    live.append(state)
        return frozenset(range(len(self.moves))) - seen

    def matched(self, states: frozenset[int]) -> frozenset[int]:
        """The patterns whose accept state is in ``states``."""
        accepts = self.accepts
        return frozenset(accepts[s] for s in states if s in accepts)


_State = tuple[Hashable, frozenset[int]]
_Found = dict[frozenset[int], tuple[int, ...]]


def explore(
    nfa: CompiledNfa,
    starts: Iterable[int],
    domain: Domain,
    *,
    stop: frozenset[int] = frozenset(),
    below: int | None = None,
    prune: frozenset[int] = frozenset(),
    limit: int = MAX_STATES,
    share: Share | None = None,
    symmetry: Shapes | None = None,
) -> _Found:
    """Every set of patterns that match together on some valid string, each with a
    shortest such string (the first by the domain's ranks of its symbols, among the
    shortest), in that order. A string matching a pattern of ``stop`` is not extended
    with the symbol ``below`` (what lies below it is decided alike anyway); one matching a
    pattern of ``prune`` is neither kept nor extended (the caller has no use for it or any
    longer one). So a symbol that does what the ``rest`` of the symbols do but start or
    further more ``prune`` patterns is not tried: every string through it is matched as
    one through ``rest`` is, or pruned. Raises :class:`AutomatonTooLarge` past ``limit``
    states.

    With ``share``, only a share of the strings is searched beyond the first level of the
    search that holds :data:`SHARE_LEVEL` states or more: the states of that level whose
    place modulo ``share.parts`` is one of ``share.kept``. The shares of every place, each
    searched apart (in two processes, say), give the whole search by :func:`merged`.

    With ``symmetry`` (and no ``prune``), what lies below a state alike one searched
    apart already (:mod:`.symmetry`) is that search's, renamed: the same sets and strings.
    The first state of a kind is searched with the rest, and so are those with its
    patterns; the first with other patterns is searched apart: a kind that does not come
    back with other patterns costs nothing more. ``limit`` counts every state a search
    visits, those a search apart visits again included."""
    search = _Search(nfa, domain, stop, below, prune, limit, symmetry)
    return search.search((domain.start, nfa.start_set(starts)), share)


class _Search:
    """One search, and what its steps learn for the rest of it."""

    def __init__(
        self,
        nfa: CompiledNfa,
        domain: Domain,
        stop: frozenset[int],
        below: int | None,
        prune: frozenset[int],
        limit: int,
        symmetry: Shapes | None,
    ) -> None:
        self.nfa, self.domain, self.stop, self.below = nfa, domain, stop, below
        self.prune, self.limit, self.visited = prune, limit, 0
        self.hazards = nfa.hazards(prune) if prune else frozenset()
        self.successors: dict[frozenset[int], list[tuple[int, int, frozenset[int]]]] = {}
        self.ranks: dict[int, int] = {}
        self.steps: dict[tuple[Hashable, int], Hashable | None] = {}
        self.accepting: dict[Hashable, bool] = {}
        self.shapes = symmetry if not prune else None
        # Each key's first patterns (in the key's order); what lies below the first state
        # of the key with other patterns: those, and the sets found there (with the
        # strings from there); ``None`` while that search is under way.
        self.first: dict[Key, tuple[int, ...]] = {}
        self.tried = self.renamed = 0  # places whose kind was told; those renamed
        self.alike: dict[Key, tuple[tuple[int, ...], _Found] | None] = {}

    def _renamed(
        self, shapes: Shapes, place: _State
    ) -> tuple[tuple[int, ...], tuple[tuple[int, ...], _Found]] | None:
        """What lies below ``place`` as a search apart found it below a place alike: the
        place's patterns and that search's (with what it found); ``None`` when ``place``
        is searched with the rest. The first of a kind is, and so is one with the same
        patterns (further down, mostly the same states); the first with other patterns is
        searched apart and stands for every later one."""
        self.tried += 1
        key, patterns = shapes.key(place[1])
        if self.first.setdefault(key, patterns) == patterns:
            return None
        if key not in self.alike:
            self.alike[key] = None
            self.alike[key] = (patterns, self.search(place, None))
        known = self.alike[key]
        if known is None:  # its search is under way, further up
            return None
        self.renamed += 1
        return patterns, known

    def search(self, root: _State, share: Share | None) -> _Found:
        """What the strings from ``root`` find (see :func:`explore`)."""
        nfa, domain, stop, shapes = self.nfa, self.domain, self.stop, self.shapes
        parents: dict[_State, tuple[_State, int] | None] = {root: None}
        found: _Found = {}
        alike: list[tuple[_State, tuple[int, ...], tuple[tuple[int, ...], _Found]]] = []
        successors, steps, accepting = self.successors, self.steps, self.accepting
        level = [root]
        while level:
            if share is not None and len(level) >= SHARE_LEVEL:
                level = [s for place, s in enumerate(level) if place % share.parts in share.kept]
                share = None
            following: list[_State] = []
            for current in level:
                where, states = current
                if (
                    shapes is not None
                    and where == shapes.at
                    and len(states) <= ALIKE_STATES
                    and current is not root
                    and (self.tried < ALIKE_TRIES or self.renamed * 8 >= self.tried)
                ):
                    known = self._renamed(shapes, current)
                    if known is not None:
                        alike.append((current, *known))
                        continue
                matched = nfa.matched(states)
                if self.prune and not self.prune.isdisjoint(matched):
                    continue
                valid = accepting.get(where)
                if valid is None:
                    valid = accepting[where] = domain.accepting(where)
                if valid and matched not in found:
                    found[matched] = _path(parents, current)
                pruned = valid and bool(stop) and not stop.isdisjoint(matched)
                moves = successors.get(states)
                if moves is None:
                    moves = successors[states] = _successors(
                        nfa, states, domain, self.ranks, self.hazards
                    )
                for _, symbol, targets in moves:
                    if pruned and symbol == self.below:
                        continue
                    step = (where, symbol)
                    if step in steps:
                        after = steps[step]
                    else:
                        after = steps[step] = domain.step(where, symbol)
                    if after is None:
                        continue
                    nxt = (after, targets)
                    if nxt not in parents:
                        self.visited += 1
                        if self.visited >= self.limit:
                            raise AutomatonTooLarge(
                                f"the rules are too intricate to compare completely "
                                f"(more than {self.limit} automaton states)"
                            )
                        parents[nxt] = (current, symbol)
                        following.append(nxt)
            level = following
        if not alike:
            return found
        below: list[_Found] = [found]
        for current, patterns, (their_patterns, there) in alike:
            before = _path(parents, current)
            renamed = dict(zip(their_patterns, patterns, strict=True))
            below.append(
                {
                    frozenset([renamed.get(p, p) for p in matched]): before + after
                    for matched, after in there.items()
                }
            )
        return _least(below, _Shortlex(domain, self.ranks))


@dataclass(frozen=True)
class Share:
    """Which states of the first wide level of a search go on (see :func:`explore`)."""

    kept: frozenset[int]
    parts: int


SHARE_LEVEL = 64


def merged(searches: Iterable[_Found], domain: Domain) -> _Found:
    """The whole search from its shares: each set with its first string, in the order
    :func:`explore` gives them (shortest first, then by the domain's ranks of the
    symbols, which is the order of a breadth-first search)."""
    return _least(searches, _Shortlex(domain, {}))


def _least(searches: Iterable[_Found], order: _Shortlex) -> _Found:
    """Each set with its first string among ``searches``, in ``order``."""
    best: _Found = {}
    for search in searches:
        for matched, symbols in search.items():
            known = best.get(matched)
            if known is None or order(symbols) < order(known):
                best[matched] = symbols
    return dict(sorted(best.items(), key=lambda item: order(item[1])))


class _Shortlex:
    """A string's place in the order of a breadth-first search: shortest first, then by
    the domain's ranks of its symbols."""

    def __init__(self, domain: Domain, ranks: dict[int, int]) -> None:
        self.domain = domain
        self.ranks = ranks

    def __call__(self, symbols: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        ranks = self.ranks
        try:
            return len(symbols), tuple(map(ranks.__getitem__, symbols))
        except KeyError:  # a symbol not ranked yet
            for symbol in symbols:
                if symbol not in ranks:
                    ranks[symbol] = self.domain.rank(symbol)
            return len(symbols), tuple(map(ranks.__getitem__, symbols))


def _successors(
    nfa: CompiledNfa,
    states: frozenset[int],
    domain: Domain,
    ranks: dict[int, int],
    hazards: frozenset[int],
) -> list[tuple[int, int, frozenset[int]]]:
    """One successor per symbol a live edge or the domain singles out, one for the rest,
    each as ``(rank, symbol, states reached)``, in the domain's order of preference
    (``ranks`` remembers ``domain.rank``). A symbol whose states differ from the rest's
    only by more ``hazards`` is left out (see :func:`explore`)."""
    listed: dict[int, set[int]] = {}  # grown in place: many states list the same symbols
    unlisted: list[tuple[frozenset[int], frozenset[int]]] = []
    moves = nfa.moves
    for state in states:
        for symbols, reached in moves[state]:
            if symbols.negated:
                unlisted.append((symbols.symbols, reached))
                continue
            for symbol in symbols.symbols:
                known = listed.get(symbol)
                if known is None:
                    listed[symbol] = set(reached)
                else:
                    known |= reached
    named = set(listed)
    anything: frozenset[int] = frozenset()  # what the edges that read every symbol reach
    # What the edges that read every symbol but some reach, by the symbols they do not read
    # (many edges share those: every state of a pattern that waits for its next word).
    but: dict[frozenset[int], frozenset[int]] = {}
    for excluded, reached in unlisted:
        if excluded:
            named |= excluded
            known_reached = but.get(excluded)
            but[excluded] = reached if known_reached is None else known_reached | reached
        else:
            anything |= reached
    excepting = list(but.items())
    extra, rest = domain.split(frozenset(named))
    empty: frozenset[int] = frozenset()
    tried: list[tuple[int, frozenset[int]]] = []
    for symbol in named | extra if extra else named:
        targets = anything.union(listed.get(symbol, empty))
        for excluded, reached in excepting:
            if symbol not in excluded:
                targets |= reached
        tried.append((symbol, targets))
    if rest is not None:
        targets = anything
        for _, reached in excepting:
            targets |= reached
        if hazards:
            kept = targets - hazards
            tried = [
                (symbol, reached)
                for symbol, reached in tried
                if reached - hazards != kept or not reached >= targets
            ]
        tried.append((rest, targets))
    out: list[tuple[int, int, frozenset[int]]] = []
    for symbol, targets in tried:
        rank = ranks.get(symbol)
        if rank is None:
            rank = ranks[symbol] = domain.rank(symbol)
        out.append((rank, symbol, targets))
    out.sort(key=_first)
    return out


def _first(item: tuple[int, int, frozenset[int]]) -> int:
    return item[0]


def _path(parents: dict[_State, tuple[_State, int] | None], state: _State) -> tuple[int, ...]:
    symbols: list[int] = []
    step = parents[state]
    while step is not None:
        state, symbol = step
        symbols.append(symbol)
        step = parents[state]
    return tuple(reversed(symbols))
