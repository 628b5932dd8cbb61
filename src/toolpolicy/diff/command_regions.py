"""Every region of a shell's command line where two sides' rules decide, with a witness line.

What decides a line, per side (``engine/evaluate.py``): the command rules matched against
the whole line (sorted by declaration order), then the files the plain line names — its
redirections, then its path arguments, in the order written — each decided by the boundary
and the deny and ask path rules of ``read_file``/``write_file``. The first candidate of the
strongest behavior is the decider. A :class:`SideSignature` keeps exactly what joining
commands into a line can change: the first command deny and ask, the allow rules covering
every command, and the first redirection and argument deny and ask.

Deny and ask hits only grow when a command grows, so no search over every mix of started
patterns is needed (it is exponential in the number of deny and ask patterns):

1. *Hits on both sides.* Every such line's deciders are those of a line of at most two
   *parts*: each deny or ask pattern's occurrence witnesses
   (:mod:`toolpolicy.diff.command_witnesses`), and each file region's witness as an
   argument (``--+w PATH``), read redirection (``--+w < PATH``) and write redirection
   (``--+w > PATH``). The part that decides a side in the line is a weaker command below it
   (a subsequence with weaker words) that the same thing decides; together the two parts
   decide the line alike. All pairs are found by a dominance scan, not by trying each.
2. *No hit on a side.* Then the allow rules decide that side, which depend on the first
   words exactly: a search over the allow patterns' words (:func:`.automaton.explore`),
   with the deny and ask patterns whose programs those words can run kept in the automaton
   and every word that is a denied or asked file kept out of the arguments; redirections
   between the words are spelled too (the deny and ask patterns read their targets, the
   allow patterns do not: :class:`~.command_language.WordAlphabet`). A line with a
   hit on the other side needs that hit too: one such search per deny or ask pattern and
   per file word that only one side hits. Each search stops a line at a hit on a side that
   must stay quiet (the line is then one of 1) and leaves out the patterns the tracked one
   beats. Lines of several commands intersect the allow sets of theirs.

3. *Outside the plain subset* (a line ending in ``&``): no allow with commands covers it and
   of the files it names only those its redirections write are decided (the engine reads
   them conservatively, :mod:`toolpolicy.compile.redirect_scan`); its deny and ask hits and
   its written files' stay — joined as in 1.

Lines that mix two deciders are listed by class (:mod:`.command_classes`). So a search of
step 2 spells every allow rule's words beside a hit only until a line has its class (a
deny, or an ask, on the hit's side and an allow on the other); every later search for that
class spells only the allow words of the rules that decide its own hit (the lines that may
keep one rule on both sides) and the lines beside no allow rule. Likewise the allow words'
lines with a redirection one side only decides.

Each search is bounded; a bounded search that had to stop leaves its regions marked
``incomplete: ...`` (the verdict is then never equivalent). So are the regions when a
redirection is decided on one side only beside allow rules on the other (tried: ``w > PATH``
and each line the allow words reach), when an allow pattern's word is a file a rule decides,
when a file region has no neutral plain word, when an option cannot be spelled
neutrally or an allow pattern's option names a file a rule decides (a program that only
reads would read it, where the neutral program may write it), and when a word of a deny or
ask pattern is a file a rule decides (the patterns read a redirection's target, a
redirection's fd number or a program behind a redirection as a word in its place, where the
file rules see a file read, written or nothing; its last word is still tried as a read and a
write target).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import NamedTuple, TypeVar

from ..compile.command_patterns import CommandPattern, program_key, value_splits
from ..compile.command_scan import scan_runs
from ..compile.plain_subset import NotPlain, PlainLine, recognise_plain
from ..compile.program_table import reads_only
from ..compile.rules import CompiledRule
from ..core.errors import WorkspacePathError
from ..core.vocabulary import Behavior, Effect
from ..engine.evaluate import BOUNDARY, RULES
from ..engine.selection import ToolPolicy
from ..tools.real_path import real_path
from ..tools.workspace import normalized_path
from .automaton import AutomatonTooLarge, Nfa, SymbolSet, explore
from .command_classes import Collector, Kinds, Source
from .command_language import (
    WordAlphabet,
    WordDomain,
    add_pattern,
    always_quoted,
    fresh_spelling,
    is_option,
    neutral_words,
    pattern_key,
    quoted,
    told_apart,
)
from .command_witnesses import glued_spellings, neutral_option, occurrence_witnesses
from .prefix_best import Entry, PrefixBest, best_two
from .twin import Here, Pending, Sides

__all__ = [
    "EMPTY_SPECIAL",
    "INCOMPLETE",
    "Command",
    "CommandRegion",
    "CommandSearch",
    "SideSignature",
]

EMPTY_SPECIAL = "the empty command line"
INCOMPLETE = "incomplete: "
SEARCH_STATES = 50_000
BATCH = 64  # from this many commands, a share goes to the twin
AHEAD_CHUNK = 64  # commands a twin decides ahead between two looks for work that goes first
MAX_ALLOW_SETS = 4_096
_WILDCARD = "*"
_PLAIN_NEUTRAL = ("w", "x", "y", "z")
_PLAIN_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_%+-./@^]!")


UNREAD_WRITE = "&>"
"""A write redirection whose target the deny and ask patterns do not read in its command's
run of words (it starts a run of its own, as ``>|``'s and ``>&``'s; ``>``'s they read in its
place): both are searched."""


class Command(NamedTuple):
    """One simple command of a witness line: its words, at most one redirection after them
    (``redirect``, ``target``) and redirections between them that only the deny and ask
    patterns read (``hidden``: the index of the word each stands before, its operator —
    :data:`~.command_language.IN_PLACE` or :data:`~.command_language.NEW_RUN` — and its
    target)."""

    words: tuple[str, ...]
    redirect: str = ""
    target: str = ""
    background: bool = False
    hidden: tuple[tuple[int, str, str], ...] = ()
    shaped: bool = False
    """Every word and target in single quotes: a line the engine reads for its files even
    where no rule asks it to (a quote is one of the shapes it reads a line for)."""

    @property
    def read_words(self) -> tuple[str, ...]:
        """The words the deny and ask patterns read: the target of a redirection too, in
        its place, but for :data:`UNREAD_WRITE`'s (the hidden redirections not counted)."""
        if self.redirect and self.redirect != UNREAD_WRITE:
            return (*self.words, self.target)
        return self.words

    @property
    def seen_words(self) -> tuple[str, ...]:
        """Every word and target in the order written (runs not told apart): what a
        region's description matches the patterns against."""
        words = [*self.words, self.target] if self.redirect else list(self.words)
        for index, _, target in reversed(self.hidden):
            words.insert(index, target)
        return tuple(words)

    @property
    def text(self) -> str:
        """The command as written in a line (``&``: run in the background)."""
        quote = always_quoted if self.shaped else quoted
        pieces = [quote((word,)) for word in self.words]
        for index, operator, target in reversed(self.hidden):
            pieces.insert(index, f"{operator} {quote((target,))}")
        if self.redirect:
            pieces.append(f"{self.redirect} {quote((self.target,))}")
        if self.background:
            pieces.append("&")
        return " ".join(pieces)


class SideSignature(NamedTuple):
    """What decides a line on one side, as far as joining commands can change it."""

    deny: int | None = None
    ask: int | None = None
    allow: frozenset[int] = frozenset()
    redirect_deny: Source | None = None
    redirect_ask: Source | None = None
    argument_deny: Source | None = None
    argument_ask: Source | None = None

    @property
    def key(self) -> tuple[int, int, int] | None:
        """Lower decides before higher when joined: (deny 0 / ask 1, command 0 / redirection
        1 / argument 2, rule order among commands); ``None``: no deny or ask. Between two
        redirections, or two arguments, the one written first decides whatever the rules'
        order: equal keys, and a line may put either first."""
        for kind, fields in enumerate(
            ((self.deny, self.redirect_deny, self.argument_deny),
             (self.ask, self.redirect_ask, self.argument_ask))
        ):  # fmt: skip
            for place, source in enumerate(fields):
                if source is not None:
                    return kind, place, source if place == 0 and isinstance(source, int) else 0
        return None

    @property
    def decider(self) -> Source | None:
        """The rule or boundary decision the engine reports (``None``: the default)."""
        for source in (
            self.deny, self.redirect_deny, self.argument_deny,
            self.ask, self.redirect_ask, self.argument_ask,
        ):  # fmt: skip
            if source is not None:
                return source
        return min(self.allow) if self.allow else None

    def joined(self, other: SideSignature) -> SideSignature:
        """The signature of a line holding this one's commands, then ``other``'s."""
        return SideSignature(
            _least(self.deny, other.deny),
            _least(self.ask, other.ask),
            self.allow & other.allow,
            _first(self.redirect_deny, other.redirect_deny),
            _first(self.redirect_ask, other.redirect_ask),
            _first(self.argument_deny, other.argument_deny),
            _first(self.argument_ask, other.argument_ask),
        )


def _least(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def _first(a: Source | None, b: Source | None) -> Source | None:
    return b if a is None else a


_Pair = tuple[SideSignature, SideSignature]
_Key = tuple[int, int, int]
_T = TypeVar("_T", bound=Hashable)
_NO_KEY = (9, 9, 0)  # after every key: no deny or ask
_Note = Callable[[tuple["Command", ...], Source | None, Source | None], None]


class CommandRegion(NamedTuple):
    """A region of the command line: its witness commands, the deciders, what else."""

    commands: tuple[Command, ...]
    left: Source | None
    right: Source | None
    special: str | None


class _Side:
    """One side's engine, deciding single commands to signatures."""

    def __init__(self, policy: ToolPolicy, tool: str, rules: Sequence[CompiledRule]) -> None:
        self.policy = policy
        self.tool = tool
        self.orders = {rule.name: rule.order for rule in reversed(rules)}
        self.paths = {rule.name for rule in rules if rule.paths is not None}
        self.foreign: set[str] = set()
        """Command rules seen deciding with another source than their own: their regions
        cannot be told apart by the rule, so the search says it is incomplete."""

    def signature(self, command: Command, text: str) -> SideSignature:
        """The signature of ``command``, written as ``text``."""
        evaluation = self.policy.evaluate(self.tool, {"command": text})
        deny: int | None = None
        ask: int | None = None
        allow: set[int] = set()
        files: dict[Behavior, Source] = {}
        candidates = evaluation.candidates
        start = 1 if candidates and candidates[0].participant == BOUNDARY else 0
        for candidate in candidates[start:]:
            decision = candidate.decision
            if decision is None:
                continue
            behavior = decision.behavior
            if candidate.participant == RULES and candidate.rule is not None:
                order = self.orders[candidate.rule]
                own = decision.source == candidate.rule
                if candidate.rule in self.paths:
                    # A rule's own decision is named by the rule; one the rule leads to is
                    # that decision (a line reading a folder that holds what a rule closes
                    # asks, source ``search-scope``: not the rule's deny).
                    files.setdefault(behavior, order if own else decision)
                elif not own:
                    self.foreign.add(candidate.rule)  # no command rule's decision is another's
                elif behavior is Behavior.DENY:
                    deny = order if deny is None else min(deny, order)
                elif behavior is Behavior.ASK:
                    ask = order if ask is None else min(ask, order)
                elif behavior is Behavior.ALLOW:
                    allow.add(order)
            elif candidate.participant == BOUNDARY:
                files.setdefault(behavior, decision)
        file_deny, file_ask = files.get(Behavior.DENY), files.get(Behavior.ASK)
        if command.redirect:
            return SideSignature(deny, ask, frozenset(allow), file_deny, file_ask)
        return SideSignature(deny, ask, frozenset(allow), None, None, file_deny, file_ask)


_Early = tuple[_Pair, tuple[frozenset[str], frozenset[str]]]
"""A command's signatures decided in the twin, and the command rules it showed deciding with
another source on each side (``_Side.foreign``): counted only once the command is taken."""


def _each_signed(sides: Sides, commands: list[tuple[str, Command, str]]) -> list[_Early]:
    """Both sides' signatures of each of a batch of commands (each with its tool and its
    text), each with the command rules it showed deciding with another source: the work a
    twin shares (ahead, it may go unused)."""
    made: dict[str, tuple[_Side, _Side]] = {}
    out: list[_Early] = []
    for tool, command, text in commands:
        found = made.get(tool)
        if found is None:
            found = made[tool] = (
                _Side(sides[0], tool, sides[0].compiled.rules),
                _Side(sides[1], tool, sides[1].compiled.rules),
            )
        left, right = found
        pair = (left.signature(command, text), right.signature(command, text))
        out.append((pair, (frozenset(left.foreign), frozenset(right.foreign))))
        left.foreign.clear()
        right.foreign.clear()
    return out


def _background(command: Command) -> Command:
    """``command``'s words alone, run in the background: as :meth:`CommandSearch._join`
    decides a part outside the plain subset."""
    return Command(
        command.read_words, background=True, hidden=command.hidden, shaped=command.shaped
    )


def _pairs(left: _Side, right: _Side, commands: Iterable[tuple[Command, str]]) -> list[_Pair]:
    """Both sides' signatures of ``commands``, each decided on the left, then on the right
    (which finds the line read already)."""
    return [(left.signature(c, text), right.signature(c, text)) for c, text in commands]


def _files_on_writes_only(policy: ToolPolicy, tool: str) -> bool:
    """Whether ``policy`` decides a ``tool`` line's files only when the line writes one (a
    ``>``): it enforces rules, yet none looks at commands or at the files a line names."""
    from ..engine.shell_files import files_ruled

    index = policy.compiled.rule_index
    return (
        policy.engine.enforces_policy
        and not files_ruled(index)
        and not index.rules_for(tool).has_command_rules
    )


def _reads_inside(policy: ToolPolicy, tool: str) -> bool:
    """Whether ``policy`` reads every ``tool`` line for its files, with no path rule that
    names an absolute or home path: a path inside the workspace is then decided by its
    workspace-relative spelling (see :meth:`CommandSearch.file_twin`)."""
    index = policy.compiled.rule_index
    return (
        policy.engine.enforces_policy
        and not _files_on_writes_only(policy, tool)
        and not any(index.rules_for(t).has_outside_paths for t in ("read_file", "write_file"))
    )


def _inside_spelling(root: str, word: str) -> str | None:
    """The workspace-relative spelling of the absolute path ``word``, where it is one of a
    path in the workspace that holds no symlink on its way, and plain (no character a
    shell expands, not an option); else ``None``. The walk is the engine's own
    (``real_path`` below the workspace root, real since the engine resolved it): it reads
    the path as the engine does, a component at a time below the root."""
    if not word.startswith(root + "/") or not _PLAIN_WORD.issuperset(word):
        return None
    relative = word[len(root) + 1 :]
    try:
        if relative[:1] in ("", "-") or normalized_path(relative) != relative:
            return None
    except WorkspacePathError:
        return None
    if real_path(word, root) != word:
        return None
    return relative


class CommandSearch:
    """The search of one command tool's regions (see the module docstring): made, then
    :meth:`begin` (optional), then :meth:`regions` once."""

    def __init__(
        self,
        policies: tuple[ToolPolicy, ToolPolicy],
        tool: str,
        rules: tuple[Sequence[CompiledRule], Sequence[CompiledRule]],
        hand: Here | None = None,
    ) -> None:
        self.hand = hand or Here(policies)
        self.sides = (
            _Side(policies[0], tool, policies[0].compiled.rules),
            _Side(policies[1], tool, policies[1].compiled.rules),
        )
        self.limits: list[str] = []
        patterns: dict[Hashable, tuple[CommandPattern, Behavior]] = {}
        self.kinds = Kinds((policies[0].compiled.rules, policies[1].compiled.rules))
        # The rules of each allow pattern (by key), both sides'.
        self.allow_names: dict[Hashable, set[str]] = {}
        # Each deny or ask pattern's key (see ``SideSignature.key``) where it hits a side.
        self.hit_keys: tuple[dict[Hashable, _Key], dict[Hashable, _Key]] = ({}, {})
        for side, side_rules in zip(self.hit_keys, rules, strict=True):
            for rule in side_rules:
                if rule.paths is None:
                    for pattern in rule.commands or ():
                        behavior = rule.decision.behavior
                        key = pattern_key(pattern, behavior)
                        patterns.setdefault(key, (pattern, behavior))
                        if behavior is Behavior.ALLOW:
                            self.allow_names.setdefault(key, set()).add(rule.name)
                        else:
                            hit = (int(behavior is Behavior.ASK), 0, rule.order)
                            side[key] = min(side.get(key, hit), hit)
        self.patterns = patterns
        self.words = {w for p, _ in patterns.values() for c in p.alternatives for w in c}
        # the values a deny's short option may hold glued are words it reads too
        self.words |= {
            value
            for word in [w for w in self.words if is_option(w)]
            for _, value in value_splits(word)
        }
        self.programs = {p.key for p, _ in patterns.values() if p.key != _WILDCARD}
        self.keys = self.programs | {program_key(w) for w in self.words}
        self.neutral = next(neutral_words(self.words, self.keys))
        self.allows = [item for item in patterns.values() if item[1] is Behavior.ALLOW]
        self.allowing = tuple(
            any(r.decision.behavior is Behavior.ALLOW and r.commands for r in side)
            for side in rules
        )
        self.occurs = [item for item in patterns.values() if item[1] is not Behavior.ALLOW]
        for pattern, _ in self.occurs:
            # The runs never hold a word with a break character (``=``, ...): a deny or ask
            # pattern is broken there when compiled, but for a long option's value
            # (``--o=b``, read by its name), which the search does not model.
            words = {w for choice in pattern.alternatives for w in choice} - {_WILDCARD}
            if any(scan_runs(quoted((word,))) != ((word,),) for word in words):
                self._limit(f"the pattern '{pattern.text}' holds a word no run of words holds")
        # The programs of the deny and ask patterns with a plain word ``*`` (a
        # redirection's target may fill it: they read it as a word, the allow patterns do
        # not), all of them (``None``) if one has a wildcard program.
        self.open_programs: frozenset[str] | None = frozenset(
            p.key for p, _ in self.occurs if (_WILDCARD,) in p.alternatives[1:]
        )
        if any(p.key == _WILDCARD for p, _ in self.occurs):
            self.open_programs = None
        if any(_files_on_writes_only(policy, tool) for policy in policies):
            # That side decides a line's files only when it writes one: a redirection's
            # signature is not put together from the line without it.
            self.open_programs = None
        self.parts: dict[_Pair, Command] = {}
        self.cache: dict[Command, _Pair] = {}
        # The pairs a command spelled for its own sake reaches (not only one that mixes a
        # tracked hit with other rules' allow words), and the classes of every pair.
        self.primary: set[_Pair] = set()
        self.classes: set[tuple[str, str]] = set()
        self.mixing = False
        self.texts = _Texts()
        self.read = _Read(self.texts)
        self.filed: dict[str, _Pair] = {}
        # The first batch (``first_batch``); the commands the hand decides ahead, each batch
        # with its work (``_ahead``), and those decisions once collected, each taken when its
        # command is signed.
        self.first: list[Command] | None = None
        self.occurring: list[Command] = []
        self.aheads: list[tuple[list[Command], Pending[list[list[_Early]]]]] = []
        self.early: dict[Command, _Early] = {}
        # The workspace root, where an absolute path in it is decided as the relative one
        # (``file_twin``); ``None`` where it may not be.
        root = policies[0].workspace
        same = root == policies[1].workspace
        self.inside = root if same and all(_reads_inside(p, tool) for p in policies) else None
        self.relative: dict[str, str | None] = {}  # each word's ``_inside_spelling``
        self.named: dict[str, bool] = {}  # each word's ``_names_rule_words``
        # A plain word reads better than ``--+w`` where no file rule reads it as a path.
        for name in _PLAIN_NEUTRAL:
            if name not in self.words and name not in self.keys and not any(self.hits_files(name)):
                self.neutral = name
                break
        self.decide(Command((self.neutral,)))

    # -- parts --------------------------------------------------------------------------

    def decide(self, command: Command) -> _Pair:
        pair = self.cache.get(command)
        if pair is None:
            pair = _pairs(*self.sides, [(command, self.texts[command])])[0]
            self._keep(command, pair)
        return pair

    def prefetch(self, commands: Iterable[Command]) -> None:
        """Decide the ``commands`` not known yet; a share of a large batch by the hand (in
        the twin, at the same time as the rest here)."""
        todo = [c for c in dict.fromkeys(commands) if c not in self.cache]
        for command, pair in zip(todo, self._signed(todo), strict=True):
            self._keep(command, pair)

    def _signed(self, commands: Sequence[Command]) -> list[_Pair]:
        """Both sides' signatures of ``commands``: those decided ahead as they were (with
        the command rules they saw deciding with another source), the others now."""
        early = self.early
        if not early:
            return self._shared(commands)
        rest = iter(self._shared([command for command in commands if command not in early]))
        return [self._taken(early[c]) if c in early else next(rest) for c in commands]

    def _taken(self, found: _Early) -> _Pair:
        """A command's signatures decided in the twin, now taken: with the command rules it
        saw deciding with another source."""
        pair, foreign = found
        self.sides[0].foreign |= foreign[0]
        self.sides[1].foreign |= foreign[1]
        return pair

    def _shared(self, commands: Sequence[Command]) -> list[_Pair]:
        """Both sides' signatures of ``commands``; a share of a large batch by the hand."""
        if len(commands) < BATCH:
            return _pairs(*self.sides, [(command, self.texts[command]) for command in commands])
        tool = self.sides[0].tool
        batch = [(tool, command, self.texts[command]) for command in commands]
        return [self._taken(found) for found in self.hand.share(_each_signed, batch)]

    def _keep(self, command: Command, pair: _Pair) -> None:
        """``command`` decided as ``pair``: a part, unless a shorter one decides alike."""
        self.cache[command] = pair
        if not self.mixing:
            self.primary.add(pair)
        kinds = self.kinds
        self.classes.add((kinds.kind(0, pair[0].decider), kinds.kind(1, pair[1].decider)))
        text = self.texts[command]
        known = self.parts.get(pair)
        if known is None or (len(text), text) < (len(self.texts[known]), self.texts[known]):
            self.parts[pair] = command

    def redirection(self, words: tuple[str, ...], operator: str, word: str) -> _Pair:
        """The signature of ``words OP word``, without an engine call where it follows from
        known ones: the command rules see ``words`` alone, and the file is decided as in
        ``w OP word`` (which the engine decides), its candidates before those of
        ``words``' own arguments. That holds when no command pattern reads a piece of
        ``word``, none whose last plain word is ``*`` (the target could fill it) can run
        here (a wildcard program, or one of ``words``), every line is plain and ``word``
        none of ``words``' arguments that leave the workspace."""
        command = Command(words, operator, word)
        pair = self.cache.get(command)
        if pair is None and not self._derived(command):
            return self.decide(command)
        return self.cache[command]

    def _derived(self, command: Command) -> bool:
        """Whether ``command``'s signature follows from known ones (see :meth:`redirection`);
        if so, it is kept."""
        words, operator, word = command.words, command.redirect, command.target
        if words == (self.neutral,) or command.hidden:
            # ``w > PATH`` and ``w < PATH`` are decided by the engine: the argument of ``w PATH``
            # is also a possible write of ``w``'s, a read redirection's target is not; so is
            # a command with redirections between its words (the patterns read them there)
            return False
        fields = [(s.redirect_deny, s.redirect_ask) for s in self.redirection(
            (self.neutral,), operator, word
        )]  # fmt: skip
        if not self._plain_redirection(command):
            return False
        left, right = (
            SideSignature(
                side.deny,
                side.ask,
                side.allow,
                _first(deny, side.argument_deny),
                _first(ask, side.argument_ask),
            )
            for side, (deny, ask) in zip(self.decide(Command(words)), fields, strict=True)
        )
        self._keep(command, (left, right))
        return True

    def _plain_redirection(self, command: Command) -> bool:
        """Whether ``command`` and its words alone are plain lines that name the same
        files but for the redirection, which no command pattern can read (nor a glob
        widen), and ``w target`` one whose only path argument is the target."""
        word = command.target
        open_programs = self.open_programs
        if (
            open_programs is None
            or any(program_key(w) in open_programs for w in command.words)
            or "*" in word
            or "?" in word
            or self._names_rule_words(word)
        ):
            return False
        line = recognise_plain(self.texts[command])
        before = self.read[Command(command.words)]  # each read once: met again and again
        argument = self.read[Command((self.neutral, word))]
        effect = Effect.READ if command.redirect == "<" else Effect.WRITE
        return (
            isinstance(line, PlainLine)
            and isinstance(before, PlainLine)
            and isinstance(argument, PlainLine)
            and not before.redirects
            and [(r.effect, r.target) for r in line.redirects] == [(effect, word)]
            and (line.arguments, line.leaving) == (before.arguments, before.leaving)
            and word not in before.leaving
            and argument.arguments == (word,)
        )

    def file_word(self, word: str) -> _Pair:
        """The signature of ``word`` as the argument of a neutral program."""
        pair = self.filed.get(word)
        if pair is None:
            pair = self.filed[word] = self.decide(Command((self.neutral, word)))
        return pair

    def _option_names_file(self, word: str) -> bool:
        """Whether the option ``word`` names a file a rule decides (a cluster's tail, or a
        long option's value, is read as a path glued to it)."""
        if not is_option(word):
            return False
        pair = self.decide(Command((self.neutral, word)))
        return any(s.argument_deny is not None or s.argument_ask is not None for s in pair)

    def _strong(self, word: str) -> bool:
        """Whether the plain word ``word`` runs as a rule's program, or names a file a rule
        of either side decides, where a line holds it as a word of its own."""
        return program_key(word) in self.programs or any(self.hits_files(word))

    def hits_files(self, word: str) -> tuple[bool, bool]:
        if word == _WILDCARD or is_option(word):
            return False, False
        pair = self.file_word(word)
        return tuple(  # type: ignore[return-value]
            s.argument_deny is not None or s.argument_ask is not None for s in pair
        )

    def begin(self) -> None:
        """Have the hand decide the first batch of commands ahead (a twin: while this
        process does other work); :meth:`regions` takes what it decided and decides the
        rest as ever."""
        self._ahead(self.first_batch())

    def _ahead(self, commands: list[Command]) -> None:
        """Have the hand decide ``commands`` ahead, a chunk at a time, until
        :meth:`_collect` (a twin: while this process does other work; none here)."""
        if not self.hand.parallel or len(commands) < BATCH:
            return
        tool = self.sides[0].tool
        texts = [(tool, command, self.texts[command]) for command in commands]
        chunks = [texts[i : i + AHEAD_CHUNK] for i in range(0, len(texts), AHEAD_CHUNK)]
        self.aheads.append((commands, self.hand.ahead(_each_signed, chunks)))

    def _collect(self) -> None:
        """End the work ahead and keep what it decided (the first commands of each batch):
        each is taken when its command is signed."""
        for commands, pending in self.aheads:
            done = [item for chunk in pending.result() for item in chunk]
            self.early.update(zip(commands, done, strict=False))
        self.aheads.clear()

    def first_batch(self) -> list[Command]:
        """Each deny or ask pattern's occurrences, and each of their words as a neutral
        program's argument (whether a file rule decides it): the first batch of the search
        (worked out once)."""
        if self.first is None:
            occurring: list[Command] = []
            for pattern, _ in self.occurs:
                witnesses, complete = occurrence_witnesses(
                    pattern, self.neutral, self.words, self.keys, self._strong
                )
                if not complete:
                    self._limit(f"the options of '{pattern.text}' were not all spelled")
                occurring += (Command(words) for words in witnesses)
            words = (
                Command((self.neutral, word))
                for command in occurring
                for word in command.words
                if word != _WILDCARD
            )
            self.occurring = occurring
            self.first = [c for c in dict.fromkeys([*occurring, *words]) if c not in self.cache]
        return self.first

    def regions(self, reads: Iterable[str], writes: Iterable[str]) -> list[CommandRegion]:
        """Every region of the tool's command line; ``reads`` and ``writes`` are witnesses
        of every region of a read and a write path."""
        self._collect()
        self.prefetch(self.first_batch())
        occurring = self.occurring
        self.prefetch(self._as_targets(occurring))
        options = {word for command in occurring for word in command.words if is_option(word)}
        for option in sorted(options):
            if self._option_names_file(option):
                self._limit(f"the option spelling '{option}' names a file a rule decides")
        tracked: list[str] = []
        redirected: list[tuple[str, str]] = []
        words = {path: self._path_word(path) for path in dict.fromkeys((*reads, *writes))}
        spelled = [
            (operator, word)
            for operator, paths in (("<", reads), (">", writes), (UNREAD_WRITE, writes))
            for path in dict.fromkeys(paths)
            if (word := words[path]) is not None
        ]
        self._prefetch_files(
            [
                command
                for operator, word in spelled
                for command in (
                    (Command((self.neutral, word)), Command((self.neutral,), operator, word))
                    if operator == "<"
                    else (Command((self.neutral,), operator, word),)
                )
            ]
        )
        for operator, word in spelled:
            if operator == "<" and self._one_sided(self.file_word(word), redirect=False):
                tracked.append(word)
            # A read redirection is decided as an argument is, but before every
            # argument of the line and in its place among the write redirections: a
            # part too. Beside the allow words it stands for itself only where it
            # leaves the workspace (elsewhere ``PREFIX PATH``, tracked, does).
            pair = self.redirection((self.neutral,), operator, word)
            beside = operator != "<" or word.startswith("/")
            if beside and self._one_sided(pair, redirect=True):
                redirected.append((operator, word))
        self.prefetch(
            Command((self.neutral, word))
            for word in sorted(self.words)
            if word != _WILDCARD and not is_option(word)
        )
        # The background lines of the parts known by now (``_join`` decides those of every
        # part), decided ahead while the allow words are searched.
        self._ahead(
            [c for c in dict.fromkeys(map(_background, self.parts.values())) if c not in self.cache]
        )
        for allow, _ in self.allows:
            for choice in allow.alternatives[1:]:
                if any(any(self.hits_files(w)) or self._option_names_file(w) for w in choice):
                    self._limit(f"a word of the allow pattern '{allow.text}' is a file")
            if spelled and any(reads_only((program,)) for program in allow.alternatives[0]):
                # its arguments are reads only, while a neutral program's are possible writes
                self._limit(f"the allow pattern '{allow.text}' names a program that only reads")
        # Each line the allow words reach with a redirection one side only decides, until
        # a line has that class (see :meth:`_allows_beside`; the redirection beside no allow
        # rule is a part already). A line with an ask of one side only is one too where a
        # redirection that side denies beats that ask: the other side stays with the line's
        # allow rules.
        prefixes = self._explore(None)
        for operator, word in redirected:
            pair = self.redirection((self.neutral,), operator, word)
            hit = int(pair[0].redirect_deny is None and pair[0].redirect_ask is None)
            denied = pair[hit].redirect_deny is not None
            if not self._witnessed(hit, Behavior.DENY if denied else Behavior.ASK):
                self._redirected([(prefix, [(operator, word)]) for prefix in prefixes])
        lines: list[tuple[Command, list[tuple[str, str]]]] = []
        for pattern, behavior in self.occurs:
            key = pattern_key(pattern, behavior)
            one_sided = [key in self.hit_keys[0], key in self.hit_keys[1]]
            if one_sided[0] != one_sided[1] and self.allowing[one_sided.index(False)]:
                hit = one_sided.index(True)
                found = self.hit_keys[hit][key]
                denying = [
                    (operator, word)
                    for operator, word in redirected
                    if found[0]  # an ask
                    and self.redirection((self.neutral,), operator, word)[hit].redirect_deny
                    is not None
                ]
                names = self.kinds.names_of(hit, [found[2]])
                allows = self._allows_beside(hit, found[0], names, bool(denying))
                hit_lines = self._explore((pattern, behavior), allows)
                lines += [(line, denying) for line in hit_lines]
        self._redirected(lines)
        for word in sorted(set(self.words) - set(tracked)):
            # ``*`` in a pattern is any word, not the shell's glob (``hits_files``)
            if (
                word != _WILDCARD
                and not is_option(word)
                and self._one_sided(self.file_word(word), redirect=False)
            ):
                tracked.append(word)
        for word in tracked:
            hit = self.hits_files(word).index(True)
            signature = self.file_word(word)[hit]
            assert signature.key is not None  # a file hit
            names = self.kinds.names_of(hit, [signature.decider])
            self._explore(word, self._allows_beside(hit, signature.key[0], names, False))
        return self._combine()

    def _redirected(self, lines: Iterable[tuple[Command, Sequence[tuple[str, str]]]]) -> None:
        """Decide each line's command with each of its redirections (operator, target)."""
        self.mixing = True  # an allow rule's line with a file one side decides
        self.prefetch(
            command
            for prefix, targets in lines
            for operator, word in targets
            if (command := prefix._replace(redirect=operator, target=word)) not in self.cache
            and not self._derived(command)
        )
        self.mixing = False

    def _witnessed(self, hit: int, behavior: Behavior) -> bool:
        """Whether a command is known with ``behavior`` deciding side ``hit`` and an allow
        rule the other."""
        found = ["", ""]
        found[hit], found[1 - hit] = behavior.label, Behavior.ALLOW.label
        return (found[0], found[1]) in self.classes

    def _allows_beside(
        self, hit: int, ask: int, names: frozenset[str], denying: bool
    ) -> list[tuple[CommandPattern, Behavior]]:
        """The allow patterns a search for lines with a deny (``ask``: 0) or an ask (1) on
        side ``hit`` only needs: every one, until a line has that class (that behavior on
        ``hit``, an allow on the other side; an ask beaten by a denied redirection then
        needs a deny's too); then only those of the rules ``names`` (the deciders of the
        hit). Any other allow rule beside the hit decides a line that mixes two rules'
        decisions (listed by class, :mod:`.command_classes`): such a line adds no class,
        and joined with others none either, but for those a line of the hit beside no
        allow rule gives (which the search finds)."""
        if not self._witnessed(hit, (Behavior.DENY, Behavior.ASK)[ask]) or (
            denying and not self._witnessed(hit, Behavior.DENY)
        ):
            return self.allows
        return [item for item in self.allows if self.allow_names[pattern_key(*item)] & names]

    def _as_targets(self, occurring: Iterable[Command]) -> list[Command]:
        """Each occurrence with its last plain word a redirection's target instead (``a b``
        as ``a < b`` and ``a > b``) where a file rule decides that word. The deny and ask
        patterns read a line's words wherever it has them — a redirection's target, the fd
        number of a redirection (``2>&1``), a program behind a redirection (``< a b`` runs
        ``b``) — while the file rules see a file read, written, or nothing: a word of a
        pattern that a file rule decides (its program too) is not searched in every such
        place, and the regions are limited; the targets found still show a difference."""
        found: list[Command] = []
        for command in occurring:
            words = command.words
            plain = [i for i, w in enumerate(words) if w != _WILDCARD and not is_option(w)]
            filed = [i for i in plain if any(self.hits_files(words[i]))]
            for i in filed:
                self._limit(f"the pattern word '{words[i]}' is a file a rule decides")
            last = plain[-1] if plain else 0
            if filed == [last] and last > 0:
                # the target is then the command's one file (its signature's redirection)
                rest = words[:last] + words[last + 1 :]
                if not any(self._option_names_file(w) for w in rest):
                    found += [Command(rest, operator, words[last]) for operator in "<>"]
        return found

    def _one_sided(self, pair: _Pair, *, redirect: bool) -> bool:
        """Whether one side only has a file hit in ``pair`` and the other allow rules (so
        that its allow sets matter beside that hit)."""
        hits = [
            (s.redirect_deny, s.redirect_ask) if redirect else (s.argument_deny, s.argument_ask)
            for s in pair
        ]
        found = [any(source is not None for source in side) for side in hits]
        return found[0] != found[1] and self.allowing[found.index(False)]

    def _prefetch_files(self, commands: Sequence[Command]) -> None:
        """Decide the neutral program's commands with a file: each with a twin
        (:meth:`file_twin`) is signed as its twin, decided with them if none of them."""
        twins = {command: self.file_twin(command) for command in commands}
        self.prefetch(twin or command for command, twin in twins.items())
        for command, twin in twins.items():
            if twin is not None and command not in self.cache:
                self._keep(command, self.cache[twin])

    def file_twin(self, command: Command) -> Command | None:
        """The command a neutral program's file command is decided as (``None``: none),
        where no command pattern can tell them apart (``PATH`` is a word none reads,
        :meth:`_path_word`, and no deny or ask has a wildcard program or can run ``w`` with a
        ``*`` its target fills):

        - ``w &> PATH`` as ``w > PATH``: both write the file;
        - ``w ROOT/PATH`` and ``w < ROOT/PATH`` as ``w PATH`` and ``w < PATH``, where the
          workspace holds ``PATH`` as written (no symlink on its way), each side reads every
          line and no path rule of either side names an absolute or home path: the file
          rules then see the workspace-relative path alone, and a read's boundary the file
          it resolves to;
        - ``w > ROOT/PATH`` there as ``w > ROOT/w`` (``w`` the neutral word): the boundary
          refuses every absolute write, whatever the file.
        """
        if command.hidden or self.open_programs is None:
            return None
        if command.redirect:
            if command.words != (self.neutral,):
                return None
            word = command.target
        elif len(command.words) == 2 and command.words[0] == self.neutral:
            word = command.words[1]
        else:
            return None
        if "*" in word or "?" in word:
            return None
        if command.redirect == UNREAD_WRITE:
            written = Command(command.words, ">", word)
            return self.file_twin(written) or written
        if self.inside is None:
            return None
        if word not in self.relative:
            self.relative[word] = _inside_spelling(self.inside, word)
        relative = self.relative[word]
        if relative is None:
            return None
        if command.redirect == ">":
            twin = Command(command.words, ">", f"{self.inside}/{self.neutral}")
        elif command.redirect:
            twin = Command(command.words, "<", relative)
        else:
            twin = Command((self.neutral, relative))
        if any(map(self._names_rule_words, (word, twin.target or twin.words[-1]))):
            return None  # a pattern could read one of them as a word or a program
        return twin

    def _path_word(self, path: str) -> str | None:
        """``path`` as a plain argument word the rules read as that path alone (no ``>``:
        such a word is scanned as code too) and no command rule tells from a neutral word
        (``None``, and the regions are limited, if none)."""
        word = "./" + path if path.startswith("-") else path
        for spelled in (word, word.rstrip("/") + "/."):
            if ">" in spelled:  # a word holding '>' is also read as code that writes
                continue
            line = recognise_plain(quoted((self.neutral, spelled)))
            if not isinstance(line, PlainLine) or line.arguments != (spelled,):
                continue
            if not self._names_rule_words(spelled):
                return spelled
        self._limit(f"the file region of {path!r} has no neutral plain argument word")
        return None

    def _names_rule_words(self, word: str) -> bool:
        """Whether a command pattern could read ``word`` (or a piece of it) as one of its
        words or programs."""
        named = self.named.get(word)
        if named is None:
            pieces = {w for run in scan_runs(quoted((word,))) for w in run}
            named = self.named[word] = any(
                p in self.words or program_key(p) in self.keys for p in pieces
            )
        return named

    def _limit(self, why: str) -> None:
        if why not in self.limits:
            self.limits.append(why)

    # -- searches for lines an allow decides on a side -----------------------------------

    def _explore(
        self,
        tracked: tuple[CommandPattern, Behavior] | str | None,
        allows: Sequence[tuple[CommandPattern, Behavior]] | None = None,
    ) -> list[Command]:
        """The ``allows`` patterns' words (by default every allow pattern's), with the deny
        and ask patterns they can run, and ``tracked`` (a pattern, or a file word as an
        argument) that must be reachable.

        A line stops where a deny or ask pattern hits the side that must stay quiet (both
        sides without ``tracked``; the side it does not hit with it), or beats ``tracked``
        on the side it hits: every longer line keeps that hit, a line with hits on both
        sides is decided by them alone (as the lines of step 1 are), and one where another
        pattern beats ``tracked`` is that pattern's search. A pattern ``tracked`` beats is
        left out: it changes nothing where ``tracked`` hits. Without this the search grows
        with every mix of the started patterns.

        The lines have redirections between their words too, whose targets the deny and ask
        patterns read and the allow patterns do not (the twins of
        :class:`~.command_language.WordAlphabet`): of each word a tracked pattern tells
        apart, and of the neutral word."""
        allows = self.allows if allows is None else allows
        words = {w for p, _ in allows for c in p.alternatives for w in c}
        extra: set[str] = set()
        if isinstance(tracked, tuple):
            # An option as written may run as another rule's program (``-a`` as ``a``) or
            # hold a rule's word glued: spelled as its occurrences spell it, the weakest word
            # that fills its slots (the lines the written word makes hit more are those
            # rules' own regions); as written where no word spells it (the occurrence
            # witnesses then say the regions are incomplete).
            # A plain word that runs as a rule's program or names a file a rule decides is
            # spelled glued to an option too (``b`` as ``-zb``), which the pattern reads
            # and nothing else does (``_strong``).
            for choice in tracked[0].alternatives[1:]:
                if is_option(choice[0]):
                    for word in choice:
                        words.update(neutral_option(word, self.words, self.keys) or (word,))
                else:
                    words.update(choice)
                    words.update(glued_spellings(choice, self.words, self.keys, self._strong))
            if tracked[0].key != _WILDCARD:
                extra.add(fresh_spelling(tracked[0].key, self.words))
        elif tracked is not None:
            extra.add(tracked)
        chosen: dict[Hashable, tuple[CommandPattern, Behavior]] = {}
        grown = True
        while grown:
            grown = False
            keys = {program_key(w) for w in words | extra}
            for key, (pattern, behavior) in self.patterns.items():
                if behavior is Behavior.ALLOW or key in chosen:
                    continue
                if pattern.key == _WILDCARD or pattern.key in keys:
                    chosen[key] = (pattern, behavior)
                    words |= {w for c in pattern.alternatives for w in c}
                    grown = True
        if tracked is not None:
            if isinstance(tracked, tuple):
                hit = int(pattern_key(*tracked) in self.hit_keys[1])
                beaten = self.hit_keys[hit][pattern_key(*tracked)]
            else:
                hit = self.hits_files(tracked).index(True)
                beaten = self.file_word(tracked)[hit].key or _NO_KEY
            quiet, loud = self.hit_keys[1 - hit], self.hit_keys[hit]
            chosen = {
                key: item for key, item in chosen.items() if key in quiet or loud[key] < beaten
            }
        first = len(allows)
        stop = frozenset(range(first, first + len(chosen)))
        nfa = Nfa()
        items = [*allows, *chosen.values()]
        if isinstance(tracked, tuple):
            items.append(tracked)
        # Only the tracked pattern's words need twins: the other deny and ask patterns here
        # only stop a line, which a word of theirs hidden from the allow patterns never
        # helps; the neutral word's twins break a run without hitting anything.
        spelled = words | extra
        twinned = told_apart(tracked[0], spelled) if isinstance(tracked, tuple) else ()
        alphabet = WordAlphabet(spelled, self.neutral, twinned)
        files = frozenset(alphabet.of(w) for w in alphabet.words if any(self.hits_files(w)))
        barred = files - ({alphabet.of(tracked)} if isinstance(tracked, str) else set())
        starts = [add_pattern(nfa, p, b, alphabet, i) for i, (p, b) in enumerate(items)]
        if isinstance(tracked, str):
            starts.append(_argument(nfa, alphabet, alphabet.of(tracked), len(items)))
        try:
            found = explore(
                nfa.compiled(),
                starts,
                WordDomain(alphabet, barred, files),
                prune=stop,
                limit=SEARCH_STATES,
            )
        except AutomatonTooLarge:
            self._limit("a search of the allow rules' words had to stop")
            return []
        # With something tracked, only the lines it hits are new (the rest are the base
        # search's: no file or pattern of one side only is needed for them).
        target = None if tracked is None else len(items) - isinstance(tracked, tuple)
        spelled_lines = (
            alphabet.command(symbols)
            for matched, symbols in found.items()
            if symbols and (target is None or target in matched)
        )
        witnesses = [Command(words, hidden=hidden) for words, hidden in spelled_lines]
        self.mixing = tracked is not None  # a tracked hit beside allow rules' words
        self.prefetch(witnesses)
        self.mixing = False
        return witnesses

    # -- joining commands into lines ----------------------------------------------------

    def _combine(self) -> list[CommandRegion]:
        texts = self.texts

        def size(line: tuple[Command, ...]) -> tuple[int, int]:
            return len(line), sum(len(texts[c]) for c in line) + 3 * (len(line) - 1)

        found: Collector[Command] = Collector(self.kinds, size, lambda line: _text(line, texts))

        def note(line: tuple[Command, ...], left: Source | None, right: Source | None) -> None:
            alone = len(line) == 1 and self.cache.get(line[0]) in self.primary
            found.note(line, left, right, mixing=not alone)

        self._join(list(self.parts.items()), note)
        if any(_files_on_writes_only(side.policy, side.tool) for side in self.sides):
            # That side reads a line's files only on some lines, one with a quote among
            # them, and then reads the whole line: every command decided again, quoted (two
            # that decide alike unquoted may not quoted), joined with quoted ones only.
            commands = [command._replace(shaped=True) for command in self.cache]
            shaped: dict[_Pair, Command] = {}
            for command, pair in zip(commands, self._signed(commands), strict=True):
                known = shaped.get(pair)
                if known is None or len(self.texts[command]) < len(self.texts[known]):
                    shaped[pair] = command
            self._join(list(shaped.items()), note)
        empty = self.decide(Command(()))
        for name in sorted(set().union(*(side.foreign for side in self.sides))):
            self._limit(f"the command rule '{name}' decided with another source")
        limited = INCOMPLETE + "; ".join(self.limits) if self.limits else None
        out = [CommandRegion((), empty[0].decider, empty[1].decider, EMPTY_SPECIAL)]
        for item in found.listed():
            several = None if len(item.line) == 1 else f"{len(item.line)} simple commands"
            special = ", ".join(filter(None, (several, item.special, limited))) or None
            out.append(CommandRegion(item.line, item.left, item.right, special))
        return out

    def _join(self, parts: Sequence[tuple[_Pair, Command]], note: _Note) -> None:
        """Each part alone, and the lines joining parts (see the module docstring)."""
        for (a, b), command in parts:
            note((command,), a.decider, b.decider)
        self._hits(parts, note)
        self._allow_sets(parts, note)
        # A line outside the plain subset (``&`` at the end keeps its words): no allow with
        # commands covers it; the files its redirections write are decided, then every word
        # as what a program may write; its deny and ask hits stay.
        hidden: dict[_Pair, Command] = {}
        words = [_background(c) for _, c in parts]
        unique = list(dict.fromkeys(words))  # ``w P``, ``w < P``, ``w > P``: one ``w P &``
        self._collect()
        signed = dict(zip(unique, self._signed(unique), strict=True))
        for ((a, b), command), word in zip(parts, words, strict=True):
            alone_a, alone_b = signed[word]
            writes = command.redirect not in ("", "<")
            pair = (_hidden(a, alone_a, writes), _hidden(b, alone_b, writes))
            hidden.setdefault(pair, command._replace(background=True))
            note((hidden[pair],), pair[0].decider, pair[1].decider)

        def note_hidden(
            line: tuple[Command, ...], left: Source | None, right: Source | None
        ) -> None:
            *head, last = line
            note(
                (*(c._replace(background=False) for c in head), last._replace(background=True)),
                left,
                right,
            )

        self._hits(list(hidden.items()), note_hidden)

    def _hits(self, parts: Sequence[tuple[_Pair, Command]], note: _Note) -> None:
        """Lines of two parts where one decides the left side and the other the right,
        both by a deny or ask: ``p`` then ``q`` with ``q`` no earlier on the left and
        strictly earlier on the right (or, tied on the right by position, ``q`` first and
        strictly later on the left).

        Two different deciders make a line that stands with its class
        (:mod:`.command_classes`), so of those only the shortest ``q`` of each behavior is
        joined to ``p`` (:class:`.prefix_best.PrefixBest`); every ``q`` the same decider
        decides is joined. So the scan grows with the parts, not with their pairs."""
        infinite = _NO_KEY
        keyed = sorted(
            ((a.key or infinite, b.key or infinite, a, b, command) for (a, b), command in parts),
            key=lambda item: item[0],
            reverse=True,
        )
        texts, group = self.texts, self.kinds.group
        rights = sorted({entry[1] for entry in keyed if entry[1] != infinite})
        before = (PrefixBest(len(rights)), PrefixBest(len(rights)))  # q's deny, q's ask
        tied: dict[_Key, tuple[Entry, ...]] = {}  # strictly later on the left, by right key
        # The q of each (right key, decider), once: by the group of that decider.
        alike: dict[Hashable, list[tuple[_Key, int]]] = {}
        alike_tied: dict[tuple[_Key, Hashable], list[int]] = {}
        asked: set[tuple[_Key, Source | None, _Key]] = set()
        kept: set[tuple[_Key, Source | None]] = set()
        start = 0
        while start < len(keyed):
            end = start
            while end < len(keyed) and keyed[end][0] == keyed[start][0]:
                end += 1
            block = range(start, end)
            entries: dict[int, Entry] = {}
            for index in block:
                right_key, decider, q = keyed[index][1], keyed[index][3].decider, keyed[index][4]
                if right_key == infinite:
                    continue
                entry = entries[index] = ((len(texts[q]), texts[q]), group(1, decider), index)
                before[right_key[0]].add(bisect.bisect_left(rights, right_key), entry)
                if (right_key, decider) not in kept:
                    kept.add((right_key, decider))
                    bisect.insort(alike.setdefault(entry[1], []), (right_key, index))
            for index in block:
                left_key, right_key, a, _, command = keyed[index]
                question = (left_key, a.decider, right_key)
                if left_key == infinite or question in asked:
                    continue
                asked.add(question)
                mine = group(0, a.decider)
                stop = bisect.bisect_left(rights, right_key)
                for tree in before:
                    found = tree.best(stop, mine)
                    if found is not None:
                        j = found[2]
                        note((command, keyed[j][4]), a.decider, keyed[j][3].decider)
                same = alike.get(mine, [])
                for _, j in same[: bisect.bisect_left(same, (right_key, -1))]:
                    note((command, keyed[j][4]), a.decider, keyed[j][3].decider)
                if right_key != infinite and right_key[1]:
                    for entry in tied.get(right_key, ()):
                        if entry[1] != mine:
                            j = entry[2]
                            note((keyed[j][4], command), a.decider, keyed[j][3].decider)
                            break
                    for j in alike_tied.get((right_key, mine), ()):
                        note((keyed[j][4], command), a.decider, keyed[j][3].decider)
            for index, entry in entries.items():
                right_key = keyed[index][1]
                tied[right_key] = best_two(tied.get(right_key, ()), entry)
                alike_tied.setdefault((right_key, entry[1]), []).append(index)
            start = end

    def _allow_sets(self, parts: Sequence[tuple[_Pair, Command]], note: _Note) -> None:
        """Lines that no deny or ask hits on one side at least: there the commands' allow
        sets intersect. With a hit on the other side, it comes from the first part, which
        the others do not beat; with none on either, both sides' sets intersect along."""
        for side in (0, 1):
            other = 1 - side
            quiet = sorted(
                (
                    (pair[other].key or _NO_KEY, pair, command)
                    for pair, command in parts
                    if pair[side].key is None
                ),
                key=lambda item: item[0],
            )
            keys = [item[0] for item in quiet]
            # The allow sets of the parts at and after each position (that beat no lead there).
            suffix: list[dict[frozenset[int], Command]] = [{}] * len(quiet)
            family: dict[frozenset[int], Command] = {}
            for i in range(len(quiet) - 1, -1, -1):
                allow, command = quiet[i][1][side].allow, quiet[i][2]
                if allow not in family:
                    family = {**family, allow: command}
                suffix[i] = family
            done: set[tuple[tuple[int, int, int], Source | None, frozenset[int]]] = set()
            for lead, pair, command in quiet:
                question = (lead, pair[other].decider, pair[side].allow)
                if lead == _NO_KEY or question in done:
                    continue
                done.add(question)
                members = suffix[bisect.bisect_left(keys, lead)]
                reached = self._intersections(
                    {pair[side].allow: (command,)}, members, lambda x, y: x & y
                )
                theirs = pair[other].decider
                for allow, line in reached.items():
                    mine = min(allow) if allow else None
                    note(line, *((mine, theirs) if side == 0 else (theirs, mine)))
        pure = {
            (pair[0].allow, pair[1].allow): command
            for pair, command in parts
            if pair[0].key is None and pair[1].key is None
        }
        reached_pairs = self._intersections(
            {key: (command,) for key, command in pure.items()},
            pure,
            lambda x, y: (x[0] & y[0], x[1] & y[1]),
        )
        for (left, right), line in reached_pairs.items():
            note(line, min(left) if left else None, min(right) if right else None)

    def _intersections(
        self,
        start: dict[_T, tuple[Command, ...]],
        family: Mapping[_T, Command],
        meet: Callable[[_T, _T], _T],
    ) -> dict[_T, tuple[Command, ...]]:
        """Every value ``start`` reaches by meeting members of ``family`` (breadth first, so
        with the fewest commands), with the commands that reach it."""
        reached = dict(start)
        frontier = list(start)
        while frontier:
            following = []
            for value in frontier:
                for member, command in family.items():
                    met = meet(value, member)
                    if met not in reached:
                        if len(reached) >= MAX_ALLOW_SETS:
                            self._limit("too many intersections of allow rules")
                            return reached
                        reached[met] = (*reached[value], command)
                        following.append(met)
            frontier = following
        return reached


def _hidden(plain: SideSignature, words: SideSignature, writes: bool) -> SideSignature:
    """The signature of a command in a line outside the plain subset, from its plain
    signature and that of its words alone in such a line (``words``: the target as one more
    word where the patterns read it, :attr:`Command.read_words`): the file its redirection
    writes (``writes``) is decided as in the plain line and first, then every word as a
    possible write; the deny, ask and allow rules are those the words get there."""
    return SideSignature(
        words.deny,
        words.ask,
        words.allow,
        plain.redirect_deny if writes else None,
        plain.redirect_ask if writes else None,
        words.argument_deny,
        words.argument_ask,
    )


def _text(line: tuple[Command, ...], texts: Mapping[Command, str]) -> str:
    """The line as written: its commands joined by ``" ; "`` (3 characters each)."""
    return " ; ".join(texts[c] for c in line)


class _Texts(dict[Command, str]):
    """Each command's text, written once (quoting every word is not free)."""

    def __missing__(self, command: Command) -> str:
        text = self[command] = command.text
        return text


class _Read(dict[Command, PlainLine | NotPlain]):
    """Each command's plain reading, read once."""

    def __init__(self, texts: _Texts) -> None:
        super().__init__()
        self._texts = texts

    def __missing__(self, command: Command) -> PlainLine | NotPlain:
        found = self[command] = recognise_plain(self._texts[command])
        return found


def _argument(nfa: Nfa, alphabet: WordAlphabet, symbol: int, id_: int) -> int:
    """A pseudo-pattern: ``symbol`` stands somewhere after the first word (redirections
    before that word are no word)."""
    anything = SymbolSet(frozenset(), negated=True)
    start, after, hit = nfa.state(), nfa.state(), nfa.state()
    nfa.edge(start, alphabet.twins, start)
    nfa.edge(start, SymbolSet(alphabet.twins.symbols, negated=True), after)
    nfa.edge(after, anything, after)
    nfa.edge(after, SymbolSet(frozenset((symbol,))), hit)
    nfa.edge(hit, anything, hit)
    nfa.accept(hit, id_)
    return start
