"""Every region of a tool's arguments where the rules of two sides decide, with a witness.

For one tool, what the rules decide is a function of one argument: the path of a file
tool, the command of the shell. Each side's rules that can apply to the tool are compiled
into one automaton over that argument (globs over characters, command prefixes over
words); a state's label on each side is the rule the engine would report there (the first
rule of the strongest behavior, deny > ask > allow, or none: the default decides). The
search over both sides together (:func:`toolpolicy.diff.automaton.explore`) yields every
reachable pair of labels with a shortest argument value reaching it. Calls of a tool whose
rules look at no argument form one region.

Writes also tell apart the paths the workspace boundary protects whatever the rules say
(``.git`` and below, the policy files in use inside the workspace), so that a side that
enforces the boundary and one that does not are compared there too.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..compile.commands import CommandPattern
from ..compile.rules import CompiledRule
from ..core.vocabulary import Behavior, Effect
from ..engine.selection import ToolPolicy
from ..tools.registry import ToolDefinition
from .automaton import AutomatonTooLarge, Nfa, explore
from .command_language import CommandSemantics, PrefixSemantics, WordAlphabet, WordDomain
from .path_language import PathDomain, add_exact, add_glob, path_alphabet

__all__ = ["Region", "RuleRef", "argument_regions"]

ROOT_PATH = "."
ROOT_SPECIAL = "the workspace root"
EMPTY_SPECIAL = "the empty command line"
GIT_LANDMARK = "/.git"
MAX_LINE_SIGNATURES = 20_000
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
_Label = tuple[int | None, int | None, frozenset[int]]
K = TypeVar("K", bound=Hashable)


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
    protected = tuple(sorted(left.engine.protected | right.engine.protected))
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
                cache[key] = _path_regions(rules, protected if write else None)
        elif d.effect is Effect.EXECUTE and _COMMAND_FIELD in d.arguments.names:
            argument = _COMMAND_FIELD
            key = ("command", orders)
            if key not in cache:
                cache[key] = _command_regions(rules, reading)
        else:
            argument = None
            key = ("constant", orders)
            cache[key] = [_Found(None, None, _order(rules[0], ()), _order(rules[1], ()), None)]
        sides = ({r.order: r for r in rules[0]}, {r.order: r for r in rules[1]})
        # Ordinary regions first, then the root, protected paths, the empty line.
        for item in sorted(cache[key], key=lambda item: item.special is not None):
            refs = [
                None if order is None else _ref(side[order], item, reading)
                for side, order in zip(sides, (item.left, item.right), strict=True)
            ]
            found.append(Region(d.name, argument, item.value, refs[0], refs[1], item.special))
    return tuple(found)


def _applicable(policy: ToolPolicy, d: ToolDefinition) -> tuple[CompiledRule, ...]:
    """The rules that can apply to calls of ``d`` (none when the side installs no rules)."""
    if not policy.engine.enforces_policy:
        return ()
    return tuple(
        rule
        for rule in policy.compiled.rules
        if (rule.tools is None or any(p.matches(d.name) for p in rule.tools))
        and (rule.effects is None or d.effect in rule.effects)
    )


def _order(rules: Sequence[CompiledRule], hits: Iterable[CompiledRule]) -> int | None:
    """The rule the engine reports among the plain ``rules`` (they always hit) and ``hits``:
    the first, in declaration order, of the strongest behavior."""
    best: CompiledRule | None = None
    for rule in (*(r for r in rules if r.paths is None and r.commands is None), *hits):
        behavior = rule.decision.behavior
        if (
            best is None
            or behavior > best.decision.behavior
            or (behavior == best.decision.behavior and rule.order < best.order)
        ):
            best = rule
    return None if best is None else best.order


def _path_regions(rules: _Rules, protected: Sequence[str] | None) -> list[_Found]:
    """Regions of a path: the globs, the workspace root, and for a write (``protected`` not
    ``None``) ``.git`` and the protected policy files."""
    ids: dict[str, int] = {}
    for side in rules:
        for rule in side:
            if rule.commands is None:
                for glob in rule.paths or ():
                    ids.setdefault(glob.text, len(ids))
    specials = [("", ROOT_SPECIAL)]
    if protected is not None:
        specials += [(GIT_LANDMARK, "protected: .git")]
        specials += [(path, f"protected: {path}") for path in protected]
    alphabet = path_alphabet([*ids, *(text for text, _ in specials)])
    nfa = Nfa()
    starts = [add_glob(nfa, text, alphabet, id_) for text, id_ in ids.items()]
    for index, (text, _) in enumerate(specials):
        add = add_glob if text == GIT_LANDMARK else add_exact
        starts.append(add(nfa, text, alphabet, len(ids) + index))
    hitters = [
        _hitters(side, lambda r: [ids[g.text] for g in r.paths or ()] if r.commands is None else [])
        for side in rules
    ]
    first_special = len(ids)

    def label(matched: frozenset[int]) -> _Label:
        if first_special in matched:
            matched = frozenset({first_special})  # no glob matches the root (``_NOT_ROOT``)
        return (
            _order(rules[0], (r for i in matched for r in hitters[0].get(i, ()))),
            _order(rules[1], (r for i in matched for r in hitters[1].get(i, ()))),
            frozenset(i - first_special for i in matched if i >= first_special),
        )

    found = explore(nfa.compiled(), starts, PathDomain(alphabet), label)
    out = []
    for (left, right, marks), symbols in found.items():
        special = ", ".join(specials[i][1] for i in sorted(marks)) or None
        out.append(_Found(alphabet.text(symbols) or ROOT_PATH, None, left, right, special))
    return out


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
    alphabet = WordAlphabet(w for pattern, _ in patterns for w in pattern.words)
    nfa = Nfa()
    starts = [
        semantics.add_pattern(nfa, pattern, behavior, alphabet, id_)
        for id_, (pattern, behavior) in enumerate(patterns)
    ]
    empty = nfa.state()
    nfa.accept(empty, len(ids))
    starts.append(empty)
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
    plains = [[r for r in side if r.paths is None and r.commands is None] for side in rules]

    def label(matched: frozenset[int]) -> tuple[_Signature, _Signature, bool]:
        return (
            _signature(plains[0], (r for i in matched for r in hitters[0].get(i, ()))),
            _signature(plains[1], (r for i in matched for r in hitters[1].get(i, ()))),
            len(ids) in matched,
        )

    found = explore(nfa.compiled(), starts, WordDomain(alphabet), label)
    parts: dict[tuple[_Signature, _Signature], tuple[str, ...]] = {}
    out: list[_Found] = []
    for (left, right, is_empty), symbols in found.items():
        words = alphabet.text(symbols)
        if is_empty:
            deciders = _deciders(left, right)
            out.append(_Found(semantics.line([words]), (words,), *deciders, EMPTY_SPECIAL))
        else:
            parts[(left, right)] = words
    lines = _combinations(parts)
    seen: set[tuple[int | None, int | None]] = set()
    for pair, line in sorted(lines.items(), key=lambda item: len(item[1])):
        deciders = _deciders(*pair)
        if deciders not in seen:
            seen.add(deciders)
            special = None if len(line) == 1 else f"{len(line)} simple commands"
            out.append(_Found(semantics.line(line), line, *deciders, special))
    return out


# What decides a line on one side, reduced to what combining commands can change: the
# first deny hit, else the first ask hit, else the allow rules that cover every command.
_Signature = tuple[Behavior, int] | tuple[Behavior, frozenset[int]]
_Pair = tuple[_Signature, _Signature]


def _signature(plain: Sequence[CompiledRule], hits: Iterable[CompiledRule]) -> _Signature:
    every = (*plain, *hits)
    for behavior in (Behavior.DENY, Behavior.ASK):
        orders = [r.order for r in every if r.decision.behavior is behavior]
        if orders:
            return behavior, min(orders)
    return Behavior.ALLOW, frozenset(
        r.order for r in every if r.decision.behavior is Behavior.ALLOW
    )


def _joined(a: _Signature, b: _Signature) -> _Signature:
    """The signature of a line holding the commands of both."""
    for behavior in (Behavior.DENY, Behavior.ASK):
        orders = [s[1] for s in (a, b) if s[0] is behavior and isinstance(s[1], int)]
        if orders:
            return behavior, min(orders)
    assert isinstance(a[1], frozenset) and isinstance(b[1], frozenset)
    return Behavior.ALLOW, a[1] & b[1]


def _deciders(left: _Signature, right: _Signature) -> tuple[int | None, int | None]:
    return _decider(left), _decider(right)


def _decider(signature: _Signature) -> int | None:
    value = signature[1]
    if isinstance(value, frozenset):
        return min(value) if value else None
    return value


def _combinations(
    parts: Mapping[_Pair, tuple[str, ...]],
) -> dict[_Pair, tuple[tuple[str, ...], ...]]:
    """Every signature pair a line of one or more simple commands reaches, with the fewest
    commands (breadth first), from the single commands ``parts``."""
    known: dict[_Pair, tuple[tuple[str, ...], ...]] = {
        pair: (words,) for pair, words in parts.items()
    }
    frontier = list(known)
    while frontier:
        following = []
        for pair in frontier:
            for part, words in parts.items():
                joined = (_joined(pair[0], part[0]), _joined(pair[1], part[1]))
                if joined not in known:
                    if len(known) >= MAX_LINE_SIGNATURES:
                        raise AutomatonTooLarge(
                            "the command rules are too intricate to compare completely "
                            f"(more than {MAX_LINE_SIGNATURES} kinds of command lines)"
                        )
                    known[joined] = (*known[pair], words)
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


def _ref(rule: CompiledRule, item: _Found, semantics: CommandSemantics) -> RuleRef:
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
        path = "" if item.value == ROOT_PATH else item.value
        patterns = tuple(g.text for g in rule.paths or () if g.matches(path))
    return RuleRef(rule.name, rule.label, behavior, patterns)
