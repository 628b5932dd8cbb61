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

from ..compile.globs import ABSOLUTE, HOME, WORKSPACE, GlobPattern
from ..compile.rules import CompiledRule
from ..core.decision import Decision
from ..core.errors import WorkspacePathError
from ..core.vocabulary import Behavior, Effect
from ..engine.selection import ToolPolicy
from ..tools.definitions import builtin_definitions
from ..tools.protected import ProtectedEntry
from ..tools.registry import ToolDefinition
from ..tools.workspace import normalized_path
from .automaton import CompiledNfa, Nfa, Share, explore, merged
from .command_classes import Source
from .command_language import command_line, pattern_hits
from .command_regions import EMPTY_SPECIAL, INCOMPLETE, CommandSearch
from .path_language import (
    SEGMENT_START,
    PathAlphabet,
    PathDomain,
    add_exact,
    add_glob,
    add_prefix,
    add_protected,
    folded_spellings,
    path_alphabet,
)
from .symmetry import SHARED, Shapes
from .twin import Here, Sides

__all__ = ["EMPTY_SPECIAL", "LIMITED_SPECIAL", "Region", "RuleRef", "argument_regions"]

ROOT_PATH = "."
ROOT_SPECIAL = "the workspace root"
ABSOLUTE_SPECIAL = "an absolute path"
LIMITED_SPECIAL = INCOMPLETE
_COMMAND_FIELD = "command"
_FILE_TOOLS = ("read_file", "write_file")  # what decides a shell line's files


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
    left: Source | None
    right: Source | None
    special: str | None


_Rules = tuple[Sequence[CompiledRule], Sequence[CompiledRule]]


def argument_regions(
    left: ToolPolicy,
    right: ToolPolicy,
    definitions: Sequence[ToolDefinition],
    hand: Here | None = None,
    early: Callable[[Sequence[Region]], None] | None = None,
) -> tuple[Region, ...]:
    """Every region of every tool in ``definitions``, in tool order (``hand``: see
    :class:`~toolpolicy.diff.command_regions.CommandSearch`). The command lines are
    searched last, their first batch decided ahead by a twin while the path tools are
    labelled here (the batch is worked out while the twin ends its share of the path
    search). ``early`` is given every other tool's regions before the search (what can be
    decided meanwhile), and a command tool's as soon as they are found. Raises
    :class:`toolpolicy.diff.automaton.AutomatonTooLarge` rather than answer incompletely."""
    both = set(left.engine.protected.entries) & set(right.engine.protected.entries)
    protected = tuple(
        dict.fromkeys((*left.engine.protected.entries, *right.engine.protected.entries))
    )
    # Every profile keeps its protected set: below a folder both sides protect, every write
    # is refused alike, so the search need not go further (a fact, not a difference).
    shared = frozenset(e for e in both if e.folder or e.anywhere)
    home = os.path.expanduser("~")  # as the engine reads it when it decides
    describer = _Describer(_WitnessMatcher(left.workspace, home))
    paths: _PathSearch | None = None
    found: dict[int, list[Region]] = {}
    cache: dict[Hashable, list[_Found]] = {}
    everything = ({r.order: r for r in _all(left)}, {r.order: r for r in _all(right)})
    searched = [_searches_commands(d) for d in definitions]
    searches = _CommandSearches(left, right, definitions, hand)
    told = early is None  # whether ``early`` was given the other tools' regions
    for index in sorted(range(len(definitions)), key=searched.__getitem__):
        d = definitions[index]
        if searched[index] and early is not None and not told:
            early([region for regions in found.values() for region in regions])
            told = True
        rules = (_applicable(left, d), _applicable(right, d))
        orders = _orders(rules)
        argument: str | None
        if (d.path_argument is not None or searched[index]) and paths is None:
            paths = _PathSearch(
                (left, right), protected, shared, left.workspace, home, hand, beside=searches
            )
        if d.path_argument is not None:
            assert paths is not None
            argument = d.path_argument
            write = d.effect is Effect.WRITE
            key: Hashable = ("path", orders, write)
            if key not in cache:
                cache[key] = paths.regions(rules, write)
        elif searched[index]:
            assert paths is not None
            argument = _COMMAND_FIELD
            key = ("command", orders)
            if key not in cache:
                reads, writes = _file_witnesses(paths, (left, right), everything, definitions)
                cache[key] = [
                    _Found(
                        command_line([c.text for c in region.commands]),
                        tuple(c.seen_words for c in region.commands),
                        region.left,
                        region.right,
                        region.special,
                    )
                    for region in searches.found[key].regions(reads, writes)
                ]
        else:
            argument = None
            key = ("constant", orders)
            plain = (_plain(rules[0]), _plain(rules[1]))
            cache[key] = [_Found(None, None, _order(plain[0], ()), _order(plain[1], ()), None)]
        # Ordinary regions first, then the root, protected paths, the empty line.
        found[index] = [
            Region(
                d.name,
                argument,
                item.value,
                describer.ref(item.left, everything[0], item),
                describer.ref(item.right, everything[1], item),
                item.special,
            )
            for item in sorted(cache[key], key=lambda item: item.special is not None)
        ]
        if searched[index] and early is not None:
            early(found[index])  # and the command lines', decided while the rest is done
    return tuple(region for index in range(len(definitions)) for region in found[index])


def _orders(rules: _Rules) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The rules of both sides by their order: a key for the regions they make."""
    return tuple(r.order for r in rules[0]), tuple(r.order for r in rules[1])


class _CommandSearches:
    """The search of each command tool's regions, one for each set of rules (by its key),
    made beside the path search: :meth:`prepare` while the twin ends its share of it,
    :meth:`begin` as soon as that share is in (see :meth:`CommandSearch.begin`)."""

    def __init__(
        self,
        left: ToolPolicy,
        right: ToolPolicy,
        definitions: Sequence[ToolDefinition],
        hand: Here | None,
    ) -> None:
        self.sides = (left, right)
        self.definitions = definitions
        self.hand = hand
        self.found: dict[Hashable, CommandSearch] = {}

    def prepare(self) -> None:
        """Make each search and work out its first batch."""
        left, right = self.sides
        for d in self.definitions:
            if _searches_commands(d):
                rules = (_applicable(left, d), _applicable(right, d))
                key = ("command", _orders(rules))
                if key not in self.found:
                    self.found[key] = CommandSearch(self.sides, d.name, rules, self.hand)
                    self.found[key].first_batch()

    def begin(self) -> None:
        """Have each search's first batch decided ahead."""
        for search in self.found.values():
            search.begin()


def _searches_commands(d: ToolDefinition) -> bool:
    """Whether ``d``'s regions are the command lines' (a search of their own)."""
    return d.effect is Effect.EXECUTE and _COMMAND_FIELD in d.arguments.names


def _file_witnesses(
    paths: _PathSearch,
    policies: tuple[ToolPolicy, ToolPolicy],
    everything: tuple[Mapping[int, CompiledRule], Mapping[int, CompiledRule]],
    definitions: Sequence[ToolDefinition],
) -> tuple[list[str], list[str]]:
    """Witnesses of the read and the write path regions a shell line's files can fall in
    where something other than an allow decides on a side (or the path is absolute)."""
    named = {d.name: d for d in definitions}
    if any(name not in named for name in _FILE_TOOLS):
        named.update((d.name, d) for d in builtin_definitions() if d.name in _FILE_TOOLS)
    out: list[list[str]] = []
    for name in _FILE_TOOLS:
        d = named[name]
        # A line's files are decided by path rules only (a rule that looks at no path,
        # such as a profile's "confirm every write", does not hide them).
        rules = (_path_rules(policies[0], d), _path_rules(policies[1], d))
        out.append(
            [
                item.value
                for item in paths.regions(rules, d.effect is Effect.WRITE)
                if item.value is not None
                and (
                    item.special is not None
                    or any(
                        source is not None and everything[i][source].behavior >= Behavior.ASK
                        for i, source in enumerate((item.left, item.right))
                        if isinstance(source, int)
                    )
                )
            ]
        )
    return out[0], out[1]


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


def _path_rules(policy: ToolPolicy, d: ToolDefinition) -> tuple[CompiledRule, ...]:
    """The rules with paths that can apply to calls of ``d``."""
    return tuple(rule for rule in _applicable(policy, d) if rule.paths is not None)


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
        sides: Sides,
        protected: Sequence[ProtectedEntry],
        shared: frozenset[ProtectedEntry],
        root: str,
        home: str,
        hand: Here | None = None,
        beside: _CommandSearches | None = None,
    ) -> None:
        """``beside`` is prepared once this process's share is searched, and begun once
        the twin's share is in (before the two are merged)."""
        home = home if home not in ("", "/") else ""
        inputs = _Inputs(tuple(protected), shared, root, home)
        # With a twin, it searches the absolute paths and a share of the relative ones
        # while this process searches the rest; it builds the automaton itself, from the
        # rules it holds, while this process does (sending it would cost more).
        pending = hand.send(_twin_share, inputs) if hand is not None and hand.parallel else None
        work = _work(sides, inputs)
        self.ids, self.at_root, self.stop = work.ids, work.at_root, work.stop
        self.root = len(self.ids)
        self.specials = [ROOT_SPECIAL, *(f"protected: {entry.path}" for entry in protected)]
        alphabet, top = work.alphabet, self.root + len(self.specials)
        if pending is not None:
            here = _relative(work, _HERE)
            if beside is not None:
                beside.prepare()
            absolute, there = pending.result()
            if beside is not None:
                beside.begin()
            relative = merged((here, there), PathDomain(alphabet))
        else:
            relative, absolute = _relative(work, None), _absolute(work)
            if beside is not None:
                beside.prepare()
                beside.begin()
        found = [
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
        self.found = sorted(found, key=lambda item: len(item[1]))  # shortest witness first

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
        # A set's label once (an absolute path's set is mostly a relative one's too).
        labels: dict[frozenset[int], tuple[int | None, int | None, tuple[int, ...]]] = {}
        for matched, value, absolute in self.found:
            if root in matched:
                # No workspace glob matches the root (``_NOT_ROOT``); outside ones may.
                matched = self.at_root | {root}
            label = labels.get(matched)
            if label is None:
                marks = tuple(sorted(i for i in matched if root <= i < last))
                if write and not self.stop.isdisjoint(matched):
                    label = (None, None, marks)
                else:
                    label = (
                        _order(plain[0], (r for i in matched for r in hitters[0].get(i, ()))),
                        _order(plain[1], (r for i in matched for r in hitters[1].get(i, ()))),
                        marks,
                    )
                labels[matched] = label
            out.setdefault((*label, absolute), value)
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


_FoundSets = dict[frozenset[int], tuple[int, ...]]


@dataclass(frozen=True)
class _Inputs:
    """What the path search is built from, beside the rules (the twin holds those)."""

    protected: tuple[ProtectedEntry, ...]
    shared: frozenset[ProtectedEntry]
    root: str
    home: str


@dataclass(frozen=True)
class _Work:
    """The path search's automaton: every glob (its pattern number by its text), then the
    root and each protected path, then ``/`` alone (see :class:`_PathSearch`)."""

    ids: dict[str, int]
    compiled: CompiledNfa
    absolute_starts: list[int]
    relative_starts: list[int]
    alphabet: PathAlphabet
    stop: frozenset[int]
    at_root: frozenset[int]
    symmetry: Shapes


def _work(sides: Sides, inputs: _Inputs) -> _Work:
    """The path search's automaton for the rules of both sides; the same in this process
    and the twin (which holds the same sides)."""
    protected, root, home = inputs.protected, inputs.root, inputs.home
    globs: dict[str, GlobPattern] = {}
    for side in (_all(sides[0]), _all(sides[1])):
        for rule in side:
            if rule.commands is None:
                for glob in rule.paths or ():
                    globs.setdefault(glob.text, glob)
    ids = {text: id_ for id_, text in enumerate(globs)}
    first_special = len(ids)
    keys = [entry.path.casefold() for entry in protected]
    alphabet = path_alphabet([*globs, *(folded_spellings(key) for key in keys), root, home])
    nfa = Nfa()
    bodies: dict[str, int] = {}
    owned: list[tuple[int, int, int]] = []  # each glob's states: first, end, pattern
    for text in globs:
        first = len(nfa.edges)
        bodies[text] = add_glob(nfa, text, alphabet, ids[text])
        owned.append((first, len(nfa.edges), ids[text]))
    specials = [add_exact(nfa, "", alphabet, first_special)]
    specials += [
        add_protected(nfa, key, entry.folder, entry.anywhere, alphabet, first_special + 1 + i)
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
    marker = nfa.state()
    nfa.accept(marker, first_special + 1 + len(protected))
    absolute_starts.append(marker)
    compiled = nfa.compiled()
    # The globs' patterns may be renamed in a search (the protected ones stop it; the
    # shared prefix chains are every pattern's).
    owner = [SHARED] * len(nfa.edges)
    for first, end, pattern in owned:
        owner[first:end] = [pattern] * (end - first)
    relative_starts = [*specials]
    for text, glob in globs.items():
        spelled = _relative_spelling(glob.root, root, home)
        if spelled is None:
            continue
        if spelled:
            relative_starts.extend(compiled.advance([bodies[text]], alphabet.symbols(spelled)))
        else:
            relative_starts.append(bodies[text])
    stop = frozenset(first_special + 1 + i for i, e in enumerate(protected) if e in inputs.shared)
    # The root's own absolute spelling has no trailing slash: matched as a whole.
    at_root = frozenset(
        ids[text]
        for text, glob in globs.items()
        if glob.outside and glob.matches_absolute(root, home)
    )
    symmetry = Shapes(compiled, owner, SEGMENT_START)  # the relative and absolute searches
    return _Work(ids, compiled, absolute_starts, relative_starts, alphabet, stop, at_root, symmetry)


_HERE = Share(frozenset(range(7)), 8)
"""This process's share of the relative search beside a twin; the twin's is the rest,
after the absolute search (measured: this process's path search 0.27 -> 0.23 s with folders
alike, 0.62 -> 0.53 s without, against three in four)."""


def _absolute(work: _Work) -> _FoundSets:
    """What follows the first ``/`` of every absolute path, by the patterns it matches."""
    domain = PathDomain(work.alphabet, devices=False)
    return explore(work.compiled, work.absolute_starts, domain, symmetry=work.symmetry)


def _relative(work: _Work, share: Share | None) -> _FoundSets:
    """Every workspace-relative path, by the patterns it matches (a ``share`` of them)."""
    domain = PathDomain(work.alphabet)
    below = work.alphabet.slash
    return explore(
        work.compiled,
        work.relative_starts,
        domain,
        stop=work.stop,
        below=below,
        share=share,
        symmetry=work.symmetry,
    )


def _twin_share(sides: Sides, inputs: _Inputs) -> tuple[_FoundSets, _FoundSets]:
    """The twin's part of the path search: the absolute paths, and the relative ones
    this process leaves (:data:`_HERE`)."""
    work = _work(sides, inputs)
    kept = frozenset(range(_HERE.parts)) - _HERE.kept
    return _absolute(work), _relative(work, Share(kept, _HERE.parts))


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


def _hitters(
    side: Sequence[CompiledRule], pattern_ids: Callable[[CompiledRule], list[int]]
) -> dict[int, list[CompiledRule]]:
    """Pattern id → the rules of ``side`` that hit when it matches."""
    out: dict[int, list[CompiledRule]] = {}
    for rule in side:
        for id_ in pattern_ids(rule):
            out.setdefault(id_, []).append(rule)
    return out


class _Describer:
    """Each decider as a :class:`RuleRef`, with those of its patterns that match the
    witness; what a pattern matches is worked out once per witness part (a part is in
    many regions) and per glob text (both sides' copies of a glob match alike)."""

    def __init__(self, matches: Callable[[GlobPattern, str], bool]) -> None:
        self.matches = matches
        self.parts: dict[tuple[int, tuple[str, ...]], frozenset[str]] = {}

    def ref(
        self, source: Source | None, rules: Mapping[int, CompiledRule], item: _Found
    ) -> RuleRef | None:
        """The rule or boundary decision ``source`` (``None``: no rule decides)."""
        if source is None:
            return None
        if isinstance(source, Decision):
            return RuleRef(source.source, source.reason, source.behavior, ())
        rule = rules[source]
        patterns: tuple[str, ...] = ()
        if item.parts is not None:
            shown = frozenset().union(*(self._in_part(rule, words) for words in item.parts))
            patterns = tuple(p.text for p in rule.paths or rule.commands or () if p.text in shown)
        elif item.value is not None:
            patterns = tuple(g.text for g in rule.paths or () if self.matches(g, item.value))
        return RuleRef(rule.name, rule.label, rule.decision.behavior, patterns)

    def _in_part(self, rule: CompiledRule, words: tuple[str, ...]) -> frozenset[str]:
        """The texts of ``rule``'s patterns that match one part: a path pattern a word
        after the first names, a command pattern the part hits."""
        key = (id(rule), words)
        found = self.parts.get(key)
        if found is None:
            if rule.paths is not None:
                named = [p for p in (_as_path(word) for word in words[1:]) if p is not None]
                found = frozenset(
                    g.text for g in rule.paths if any(self.matches(g, p) for p in named)
                )
            else:
                behavior = rule.decision.behavior
                found = frozenset(
                    p.text for p in rule.commands or () if pattern_hits(p, behavior, words)
                )
            self.parts[key] = found
        return found


def _as_path(word: str) -> str | None:
    """A shell word as the path a file rule reads (``None``: no path)."""
    if word.startswith("/"):
        return os.path.normpath(word)
    try:
        return normalized_path(word) or ROOT_PATH
    except WorkspacePathError:
        return None


class _WitnessMatcher:
    """Whether a glob matches a witness path as the engine reads it (symlinks aside): a
    relative path also as ``ROOT/p`` for outside patterns, an absolute one also as what
    follows ``ROOT/`` for workspace patterns."""

    def __init__(self, root: str, home: str) -> None:
        self.root = root
        self.home = home
        self.known: dict[tuple[str, bool, str], bool] = {}

    def __call__(self, glob: GlobPattern, value: str) -> bool:
        """Remembered by the glob's text: both sides' copies of a glob, and the regions
        naming the same file, match once (and compile each pattern once)."""
        key = (glob.text, glob.gitignore, value)
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = self._matches(glob, value)
        return found

    def _matches(self, glob: GlobPattern, value: str) -> bool:
        if value.startswith("/"):
            if glob.outside:
                return glob.matches_absolute(value, self.home)
            inside = value[len(self.root) + 1 :] if value.startswith(self.root + "/") else None
            return inside is not None and glob.matches(inside)
        path = "" if value == ROOT_PATH else value
        if glob.outside:
            return glob.matches_absolute(f"{self.root}/{path}" if path else self.root, self.home)
        return glob.matches(path)
