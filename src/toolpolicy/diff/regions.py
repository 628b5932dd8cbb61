"""Every region of a tool's arguments where the rules of two sides decide, with a witness.

For one tool, what the rules decide is a function of one argument: the path of a file
tool, the command of the shell. The patterns of both sides are compiled into one automaton
over that argument (globs over characters, command prefixes over words), and its search
(:func:`toolpolicy.diff.automaton.explore`) yields every reachable set of matching
patterns with a shortest value reaching it. Per tool and side, a set is labelled with the
rule the engine would report (the first rule of the strongest behavior, deny > ask >
allow, or none: the default decides); each pair of labels is a region, with the shortest
of its values as witness. Calls of a tool whose rules look at no argument form one region.

Writes also tell apart the paths the workspace boundary protects whatever the rules say
(its ``ProtectedSet``: ``.git`` at any depth, the agents' settings, the policy files in use
inside the workspace and their folders; compared case-insensitively, as the boundary does),
so that a side that enforces the boundary and one that does not are compared there too.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..compile.commands import CommandPattern
from ..compile.globs import ABSOLUTE, HOME, WORKSPACE, GlobPattern
from ..compile.rules import CompiledRule
from ..core.vocabulary import Behavior, Effect
from ..engine.selection import ToolPolicy
from ..tools.protected import ProtectedEntry
from ..tools.registry import ToolDefinition
from .automaton import MAX_STATES, AutomatonTooLarge, Nfa, explore
from .command_language import CommandSemantics, PrefixSemantics, WordAlphabet, WordDomain
from .path_language import (
    PathDomain,
    add_exact,
    add_glob,
    add_prefix,
    add_protected,
    folded_spellings,
    path_alphabet,
)

__all__ = ["LIMITED_SPECIAL", "Region", "RuleRef", "argument_regions"]

ROOT_PATH = "."
ROOT_SPECIAL = "the workspace root"
ABSOLUTE_SPECIAL = "an absolute path"
EMPTY_SPECIAL = "the empty command line"
MAX_LINE_SIGNATURES = 20_000
ANYWHERE_STATES = 1_500
MAX_ANYWHERE_PATTERNS = 40
LIMITED_SPECIAL = (
    "incomplete: too many deny/ask command patterns to search their programs anywhere; "
    "searched at the start of a command only"
)
_COMMAND_FIELD = "command"


@dataclass(frozen=True, slots=True)
class RuleRef:
    """The rule that decides a region on one side, and its patterns that match there."""

    name: str
    label: str
    behavior: Behavior
    patterns: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        """``{"rule", "at", "behavior", "patterns"}``."""
        return {
            "rule": self.name,
            "at": self.label,
            "behavior": self.behavior.label,
            "patterns": list(self.patterns),
        }

    def describe(self) -> str:
        """``name (behavior: pattern, ...)``."""
        shown = ", ".join(self.patterns)
        return f"{self.name} ({self.behavior.label}{': ' + shown if shown else ''})"


@dataclass(frozen=True, slots=True)
class Region:
    """One region of ``tool``'s ``argument`` (``None``: the rules look at no argument):
    ``value`` is its shortest witness, ``left``/``right`` the deciding rules (``None``: no
    rule, the default decides), ``special`` what else sets it apart (the workspace root,
    a path the boundary protects, the empty command line)."""

    tool: str
    argument: str | None
    value: str | None
    left: RuleRef | None
    right: RuleRef | None
    special: str | None = None

    def to_json(self) -> dict[str, object]:
        """``{"tool", "argument", "witness", "left", "right", "special"}``."""
        return {
            "tool": self.tool,
            "argument": self.argument,
            "witness": self.value,
            "left": None if self.left is None else self.left.to_json(),
            "right": None if self.right is None else self.right.to_json(),
            "special": self.special,
        }

    def describe(self) -> str:
        """One line: which rule decides on each side."""
        left = "no rule" if self.left is None else self.left.describe()
        right = "no rule" if self.right is None else self.right.describe()
        where = f"; {self.special}" if self.special else ""
        return f"left: {left}; right: {right}{where}"


@dataclass(frozen=True, slots=True)
class _Found:
    """A region before its rules are described: witness, deciders' orders, specials."""

    value: str | None
    parts: tuple[tuple[str, ...], ...] | None
    left: int | None
    right: int | None
    special: str | None


_Rules = tuple[Sequence[CompiledRule], Sequence[CompiledRule]]


def argument_regions(
    left: ToolPolicy,
    right: ToolPolicy,
    definitions: Sequence[ToolDefinition],
    *,
    semantics: CommandSemantics | None = None,
) -> tuple[Region, ...]:
    """Every region of every tool in ``definitions``, in tool order. Raises
    :class:`toolpolicy.diff.automaton.AutomatonTooLarge` rather than answer incompletely."""
    reading = semantics if semantics is not None else PrefixSemantics()
    both = set(left.engine.protected.entries) & set(right.engine.protected.entries)
    protected = tuple(
        dict.fromkeys((*left.engine.protected.entries, *right.engine.protected.entries))
    )
    # Every profile keeps its protected set: below a folder both sides protect, every write
    # is refused alike, so the search need not go further (a fact, not a difference).
    shared = frozenset(e for e in both if e.folder or e.anywhere)
    home = os.path.expanduser("~")  # as the engine reads it when it decides
    matches = _WitnessMatcher(left.workspace, home)
    paths: _PathSearch | None = None
    found: list[Region] = []
    cache: dict[Hashable, list[_Found]] = {}
    for d in definitions:
        rules = (_applicable(left, d), _applicable(right, d))
        orders = (tuple(r.order for r in rules[0]), tuple(r.order for r in rules[1]))
        argument: str | None
        if d.path_argument is not None:
            argument = d.path_argument
            write = d.effect is Effect.WRITE
            key: Hashable = ("path", orders, write)
            if key not in cache:
                if paths is None:
                    rules_of = (_all(left), _all(right))
                    paths = _PathSearch(rules_of, protected, shared, left.workspace, home)
                cache[key] = paths.regions(rules, write)
        elif d.effect is Effect.EXECUTE and _COMMAND_FIELD in d.arguments.names:
            argument = _COMMAND_FIELD
            key = ("command", orders)
            if key not in cache:
                cache[key] = _command_regions(rules, reading)
        else:
            argument = None
            key = ("constant", orders)
            plain = (_plain(rules[0]), _plain(rules[1]))
            cache[key] = [_Found(None, None, _order(plain[0], ()), _order(plain[1], ()), None)]
        sides = ({r.order: r for r in rules[0]}, {r.order: r for r in rules[1]})
        # Ordinary regions first, then the root, protected paths, the empty line.
        for item in sorted(cache[key], key=lambda item: item.special is not None):
            refs = [
                None if order is None else _ref(side[order], item, reading, matches)
                for side, order in zip(sides, (item.left, item.right), strict=True)
            ]
            found.append(Region(d.name, argument, item.value, refs[0], refs[1], item.special))
    return tuple(found)


def _all(policy: ToolPolicy) -> tuple[CompiledRule, ...]:
    return policy.compiled.rules if policy.engine.enforces_policy else ()


def _applicable(policy: ToolPolicy, d: ToolDefinition) -> tuple[CompiledRule, ...]:
    """The rules that can apply to calls of ``d`` (none when the side installs no rules)."""
    return tuple(
        rule
        for rule in _all(policy)
        if (rule.tools is None or any(p.matches(d.name) for p in rule.tools))
        and (rule.effects is None or d.effect in rule.effects)
    )


def _plain(rules: Iterable[CompiledRule]) -> tuple[CompiledRule, ...]:
    """The rules that look at no argument: they hit every call of their tools."""
    return tuple(r for r in rules if r.paths is None and r.commands is None)


def _order(plain: Sequence[CompiledRule], hits: Iterable[CompiledRule]) -> int | None:
    """The rule the engine reports among ``plain`` and ``hits``: the first, in declaration
    order, of the strongest behavior."""
    best: CompiledRule | None = None
    for rule in (*plain, *hits):
        behavior = rule.decision.behavior
        if (
            best is None
            or behavior > best.decision.behavior
            or (behavior == best.decision.behavior and rule.order < best.order)
        ):
            best = rule
    return None if best is None else best.order


class _PathSearch:
    """Every glob of either side, the workspace root and the protected paths in one
    automaton, searched once for workspace-relative paths and once for absolute ones; each
    path tool then labels the sets they reach. The search does not go below a folder both
    sides protect (``shared``): every write there is refused alike.

    A relative path ``p`` is also seen by absolute (``//``) and home (``~/``) patterns as
    ``ROOT/p``: they start where reading ``ROOT/`` leaves them. An absolute path ``/q`` is
    seen by them as written, and by workspace patterns as what follows ``ROOT/``; home
    patterns read it after ``HOME/``. (Symlinks are physical facts: a path is its target.)
    """

    def __init__(
        self,
        rules: _Rules,
        protected: Sequence[ProtectedEntry],
        shared: frozenset[ProtectedEntry],
        root: str,
        home: str,
    ) -> None:
        globs: dict[str, GlobPattern] = {}
        for side in rules:
            for rule in side:
                if rule.commands is None:
                    for glob in rule.paths or ():
                        globs.setdefault(glob.text, glob)
        self.ids = {text: id_ for id_, text in enumerate(globs)}
        self.specials = [ROOT_SPECIAL, *(f"protected: {entry.path}" for entry in protected)]
        self.root = len(self.ids)
        home = home if home not in ("", "/") else ""
        keys = [entry.path.casefold() for entry in protected]
        alphabet = path_alphabet([*globs, *(folded_spellings(key) for key in keys), root, home])
        nfa = Nfa()
        bodies = {text: add_glob(nfa, text, alphabet, self.ids[text]) for text in globs}
        specials = [add_exact(nfa, "", alphabet, self.root)]
        specials += [
            add_protected(nfa, key, entry.folder, entry.anywhere, alphabet, self.root + 1 + i)
            for i, (key, entry) in enumerate(zip(keys, protected, strict=True))
        ]
        # After "/": absolute patterns at once, home ones after HOME/, workspace ones after
        # ROOT/ (one shared chain of states for each prefix).
        leads = {ABSOLUTE: "", HOME: home[1:] + "/" if home else None, WORKSPACE: root[1:] + "/"}
        chains = {anchor: add_prefix(nfa, lead, alphabet) for anchor, lead in leads.items() if lead}
        absolute_starts = []
        for text, glob in globs.items():
            chain = chains.get(glob.root)
            if chain is not None:
                nfa.link(chain[1], bodies[text])
            elif leads[glob.root] == "":
                absolute_starts.append(bodies[text])
        absolute_starts.extend(start for start, _ in chains.values())
        # "/" alone: its own set, so that the paths below it are searched apart from it.
        top = self.root + len(self.specials)
        marker = nfa.state()
        nfa.accept(marker, top)
        absolute_starts.append(marker)
        compiled = nfa.compiled()
        relative_starts = [*specials]
        for text, glob in globs.items():
            spelled = _relative_spelling(glob.root, root, home)
            if spelled is None:
                continue
            if spelled:
                relative_starts.extend(compiled.advance([bodies[text]], alphabet.symbols(spelled)))
            else:
                relative_starts.append(bodies[text])
        # The root's own absolute spelling has no trailing slash: matched as a whole.
        self.at_root = frozenset(
            self.ids[text]
            for text, glob in globs.items()
            if glob.outside and glob.matches_absolute(root, home)
        )
        self.stop = frozenset(self.root + 1 + i for i, e in enumerate(protected) if e in shared)
        relative = explore(
            compiled, relative_starts, PathDomain(alphabet), stop=self.stop, below=alphabet.slash
        )
        absolute = explore(compiled, absolute_starts, PathDomain(alphabet, devices=False))
        self.found = [
            *(
                (matched, alphabet.text(symbols) or ROOT_PATH, False)
                for matched, symbols in relative.items()
            ),
            # No glob matches "/" itself (``_NOT_ROOT`` on what follows the slash).
            *(
                (frozenset() if top in matched else matched, "/" + alphabet.text(symbols), True)
                for matched, symbols in absolute.items()
            ),
        ]

    def regions(self, rules: _Rules, write: bool) -> list[_Found]:
        """The regions of a path tool with these ``rules``; only a write (``write``) tells
        the protected paths apart, and in a folder both sides protect no rule decides."""
        ids, root = self.ids, self.root
        hitters = [
            _hitters(
                side, lambda r: [ids[g.text] for g in r.paths or ()] if r.commands is None else []
            )
            for side in rules
        ]
        plain = (_plain(rules[0]), _plain(rules[1]))
        last = root + (len(self.specials) if write else 1)
        out: dict[tuple[int | None, int | None, tuple[int, ...], bool], str] = {}
        for matched, value, absolute in sorted(self.found, key=lambda item: len(item[1])):
            if root in matched:
                # No workspace glob matches the root (``_NOT_ROOT``); outside ones may.
                matched = self.at_root | {root}
            if write and not self.stop.isdisjoint(matched):
                marks = tuple(sorted(i for i in matched if root <= i < last))
                out.setdefault((None, None, marks, absolute), value)
                continue
            label = (
                _order(plain[0], (r for i in matched for r in hitters[0].get(i, ()))),
                _order(plain[1], (r for i in matched for r in hitters[1].get(i, ()))),
                tuple(sorted(i for i in matched if root <= i < last)),
                absolute,
            )
            out.setdefault(label, value)
        return [
            _Found(
                value,
                None,
                left,
                right,
                ", ".join(
                    [self.specials[i - root] for i in marks]
                    + ([ABSOLUTE_SPECIAL] if absolute else [])
                )
                or None,
            )
            for (left, right, marks, absolute), value in out.items()
        ]


def _relative_spelling(anchor: str, root: str, home: str) -> str | None:
    """What an absolute or home pattern reads of ``ROOT/p`` before ``p`` (``""`` for a
    workspace pattern), or ``None`` when it can never match a relative path."""
    if anchor == ABSOLUTE:
        return root[1:] + "/"
    if anchor == HOME:
        if not home or not (root + "/").startswith(home + "/"):
            return None
        return root[len(home) + 1 :] + "/" if root != home else ""
    return ""


def _command_regions(rules: _Rules, semantics: CommandSemantics) -> list[_Found]:
    """Regions of a command line: one simple command as ``semantics`` reads prefixes, lines
    of several (deny and ask hit if any command does, an allow only if it covers every
    one), and the empty line."""
    ids: dict[Hashable, int] = {}
    patterns: list[tuple[CommandPattern, Behavior]] = []
    for side in rules:
        for rule in side:
            if rule.paths is None:
                for pattern in rule.commands or ():
                    key = semantics.key(pattern, rule.decision.behavior)
                    if key not in ids:
                        ids[key] = len(ids)
                        patterns.append((pattern, rule.decision.behavior))
    alphabet = WordAlphabet(
        w for pattern, _ in patterns for choice in pattern.alternatives for w in choice
    )
    # A deny or ask reads its program anywhere in the words: the search tracks every mix of
    # started occurrences, which many patterns can make huge; past a budget of states their
    # programs are searched at the start of a command only, and each region says so.
    empty_id = len(ids)
    found: dict[frozenset[int], tuple[int, ...]] | None = None
    if sum(b is not Behavior.ALLOW for _, b in patterns) <= MAX_ANYWHERE_PATTERNS:
        try:
            found = _command_search(patterns, semantics, alphabet, empty_id, anywhere=True)
        except AutomatonTooLarge:
            found = None
    limited = None if found is not None else LIMITED_SPECIAL
    if found is None:
        found = _command_search(patterns, semantics, alphabet, empty_id, anywhere=False)
    hitters = [
        _hitters(
            side,
            lambda r: (
                [ids[semantics.key(p, r.decision.behavior)] for p in r.commands or ()]
                if r.paths is None
                else []
            ),
        )
        for side in rules
    ]
    plain = (_plain(rules[0]), _plain(rules[1]))
    parts: dict[_Pair, tuple[str, ...]] = {}
    out: list[_Found] = []
    for matched, symbols in found.items():
        words = alphabet.text(symbols)
        pair = (
            _signature(plain[0], (r for i in matched for r in hitters[0].get(i, ()))),
            _signature(plain[1], (r for i in matched for r in hitters[1].get(i, ()))),
        )
        if len(ids) in matched:
            out.append(_Found(semantics.line([words]), (words,), *_deciders(pair), EMPTY_SPECIAL))
        else:
            parts.setdefault(pair, words)
    seen: set[tuple[int | None, int | None]] = set()
    for pair, line in _combinations(parts).items():  # fewest commands first
        deciders = _deciders(pair)
        if deciders not in seen:
            seen.add(deciders)
            several = None if len(line) == 1 else f"{len(line)} simple commands"
            special = ", ".join(filter(None, (several, limited))) or None
            out.append(_Found(semantics.line(line), line, *deciders, special))
    return out


def _command_search(
    patterns: Sequence[tuple[CommandPattern, Behavior]],
    semantics: CommandSemantics,
    alphabet: WordAlphabet,
    empty_id: int,
    *,
    anywhere: bool,
) -> dict[frozenset[int], tuple[int, ...]]:
    nfa = Nfa()
    starts = [
        semantics.add_pattern(nfa, pattern, behavior, alphabet, id_, anywhere=anywhere)
        for id_, (pattern, behavior) in enumerate(patterns)
    ]
    empty = nfa.state()
    nfa.accept(empty, empty_id)
    starts.append(empty)
    limit = ANYWHERE_STATES if anywhere else MAX_STATES
    return explore(nfa.compiled(), starts, WordDomain(alphabet), limit=limit)


# What decides a line on one side, reduced to what combining commands can change:
# (0, the first deny hit), else (1, the first ask hit), else (2, the allow rules that
# cover every command).
_Signature = tuple[int, int] | tuple[int, frozenset[int]]
_Pair = tuple[_Signature, _Signature]
_KINDS = ((Behavior.DENY, 0), (Behavior.ASK, 1))


def _signature(plain: Sequence[CompiledRule], hits: Iterable[CompiledRule]) -> _Signature:
    every = (*plain, *hits)
    for behavior, kind in _KINDS:
        orders = [r.order for r in every if r.decision.behavior is behavior]
        if orders:
            return kind, min(orders)
    return 2, frozenset(r.order for r in every if r.decision.behavior is Behavior.ALLOW)


def _joined(a: _Signature, b: _Signature) -> _Signature:
    """The signature of a line holding the commands of both."""
    if a[0] != b[0]:
        return a if a[0] < b[0] else b
    first, second = a[1], b[1]
    if isinstance(first, frozenset) and isinstance(second, frozenset):
        return 2, first & second
    assert isinstance(first, int) and isinstance(second, int)
    return a if first <= second else b


def _deciders(pair: _Pair) -> tuple[int | None, int | None]:
    return _decider(pair[0]), _decider(pair[1])


def _decider(signature: _Signature) -> int | None:
    value = signature[1]
    if isinstance(value, frozenset):
        return min(value) if value else None
    return value


def _combinations(
    parts: Mapping[_Pair, tuple[str, ...]],
) -> dict[_Pair, tuple[tuple[str, ...], ...]]:
    """Every signature pair a line of one or more simple commands reaches, with the fewest
    commands (breadth first, so in order of the number of commands), from the single
    commands ``parts``."""
    known: dict[_Pair, tuple[tuple[str, ...], ...]] = {
        pair: (words,) for pair, words in parts.items()
    }
    frontier = list(known)
    while frontier:
        following = []
        for pair in frontier:
            line = known[pair]
            for part, words in parts.items():
                joined = (_joined(pair[0], part[0]), _joined(pair[1], part[1]))
                if joined not in known:
                    if len(known) >= MAX_LINE_SIGNATURES:
                        raise AutomatonTooLarge(
                            "the command rules are too intricate to compare completely "
                            f"(more than {MAX_LINE_SIGNATURES} kinds of command lines)"
                        )
                    known[joined] = (*line, words)
                    following.append(joined)
        frontier = following
    return known


def _hitters(
    side: Sequence[CompiledRule], pattern_ids: Callable[[CompiledRule], list[int]]
) -> dict[int, list[CompiledRule]]:
    """Pattern id → the rules of ``side`` that hit when it matches."""
    out: dict[int, list[CompiledRule]] = {}
    for rule in side:
        for id_ in pattern_ids(rule):
            out.setdefault(id_, []).append(rule)
    return out


def _ref(
    rule: CompiledRule,
    item: _Found,
    semantics: CommandSemantics,
    matches: Callable[[GlobPattern, str], bool],
) -> RuleRef:
    """The deciding rule and those of its patterns that match the witness."""
    behavior = rule.decision.behavior
    patterns: tuple[str, ...] = ()
    if item.parts is not None:
        patterns = tuple(
            p.text
            for p in rule.commands or ()
            if any(semantics.hits(p, behavior, words) for words in item.parts)
        )
    elif item.value is not None:
        patterns = tuple(g.text for g in rule.paths or () if matches(g, item.value))
    return RuleRef(rule.name, rule.label, behavior, patterns)


class _WitnessMatcher:
    """Whether a glob matches a witness path as the engine reads it (symlinks aside): a
    relative path also as ``ROOT/p`` for outside patterns, an absolute one also as what
    follows ``ROOT/`` for workspace patterns."""

    def __init__(self, root: str, home: str) -> None:
        self.root = root
        self.home = home

    def __call__(self, glob: GlobPattern, value: str) -> bool:
        if value.startswith("/"):
            if glob.outside:
                return glob.matches_absolute(value, self.home)
            inside = value[len(self.root) + 1 :] if value.startswith(self.root + "/") else None
            return inside is not None and glob.matches(inside)
        path = "" if value == ROOT_PATH else value
        if glob.outside:
            return glob.matches_absolute(f"{self.root}/{path}" if path else self.root, self.home)
        return glob.matches(path)
