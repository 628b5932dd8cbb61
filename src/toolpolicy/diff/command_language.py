"""Simple commands as a regular language over words, under the engine's command-rule semantics.

The model is one *simple command*: a sequence of words, written as a line with each word
shell-quoted. The alphabet is every word the rules spell (alternatives included), extra
words a search asks for, and one *neutral* word standing for all the rest.
The functions here encode how ``compile/command_patterns.py`` reads a pattern:

* an allow covers a plain command whose first words are the pattern's, each one of its
  word's alternatives (``*`` any one word);
* a deny or ask *occurs* where the program (by basename) stands anywhere in the words,
  followed by the other plain words in any order with anything between them, and its options
  as a set: every word after the program adds its short letters and its long option, in
  any order and grouping (``-rf`` is hit by ``-f -r``; ``--forc`` abbreviates ``--force``).

The deny and ask patterns read a line's *runs* of words, the allow patterns its plain
commands' words: a redirection's target is a word to the first and none to the second. So
each word a deny or ask pattern tells apart, and the neutral word, has two *twins*: itself as
the target of a redirection in its place (``< w``: the runs read it where it stands) and of
one that starts a new run (``&> w``: the runs break before it, and it may be a program
there). An allow skips both; a deny or ask reads the first as the word and, at the second,
loses what it had read of the run.

A *neutral* word (:func:`neutral_words`: ``--+w``) is one no rule can tell from any other
word it does not name: it is no rule's word, runs as no rule's program, is no path argument
(it starts with ``-``) and gives no option a rule looks for. A *fresh spelling* of a program
(``--+git``) runs as that program and is otherwise neutral: a deny's program written so that
no allow's literal word sees it.

Wrappers, ``bash -c`` and ``eval`` need no model: the engine's conservative reading finds a
deny's program wherever it is written, and no allow covers a line outside the plain subset
(every witness here is plain).
"""

from __future__ import annotations

import itertools
import shlex
from collections.abc import Hashable, Iterable, Iterator, Sequence

from ..compile.command_patterns import CommandPattern, holds, program_key, value_splits
from ..core.vocabulary import Behavior
from .automaton import Nfa, SymbolSet

__all__ = [
    "IN_PLACE",
    "NEW_RUN",
    "WordAlphabet",
    "WordDomain",
    "add_pattern",
    "always_quoted",
    "command_line",
    "fresh_spelling",
    "is_option",
    "neutral_words",
    "option_needs",
    "pattern_hits",
    "pattern_key",
    "provided_atoms",
    "quoted",
    "told_apart",
]

_WILDCARD = "*"
_NEUTRAL = "--+"


def is_option(word: str) -> bool:
    """An option word, as the engine reads one (``-x``, ``-rf``, ``--force``; not ``--``)."""
    return len(word) > 1 and word[0] == "-" and word != "--"


def _long(word: str) -> str | None:
    return word.split("=", 1)[0] if word.startswith("--") and len(word) > 2 else None


def option_needs(alternative: str) -> tuple[frozenset[str], ...]:
    """What an option alternative needs, any one of: its long name; or its short letters,
    or some of them and a word holding the rest as a value (``=VALUE``: ``-XDELETE`` is
    hit by ``-X DELETE``, :func:`~toolpolicy.compile.command_patterns.value_splits`)."""
    long = _long(alternative)
    if long is not None:
        return (frozenset((long,)),)
    letters = frozenset(alternative.split("=", 1)[0][1:])  # Go's -flag=value: by its name
    splits = value_splits(alternative)
    return (letters, *(frozenset((*short, "=" + value)) for short, value in splits))


def provided_atoms(word: str, atoms: Iterable[str]) -> frozenset[str]:
    """The ``atoms`` (short letters, long names, values as ``=VALUE``) the word ``word`` provides
    after a program: its letters if it is a short cluster (and the long name it spells with
    two dashes), the long names it abbreviates if it is long, the values it holds."""
    values = frozenset(a for a in atoms if a[0] == "=" and holds(word, (a[1:],)))
    long = _long(word)
    if long is not None:
        return values | {a for a in atoms if a.startswith("--") and a.startswith(long)}
    if is_option(word):
        letters = set(word[1:])
        # a single-dash word of several letters is also a Go flag's long name, exactly
        named = "-" + word.split("=", 1)[0] if len(word) > 3 else None
        return values | {a for a in atoms if (len(a) == 1 and a in letters) or a == named}
    return values


def neutral_words(taken_words: Iterable[str], taken_keys: Iterable[str]) -> Iterator[str]:
    """Neutral words (``--+w``, ``--+x``, ...): none is in ``taken_words`` or runs as a
    program of ``taken_keys``, and none abbreviates a long option of ``taken_words``."""
    words = set(taken_words)
    keys = set(taken_keys)
    longs = [w for w in words if w.startswith("--")]
    for name in itertools.chain(("w", "x", "y", "z"), (f"w{i}" for i in itertools.count())):
        word = _NEUTRAL + name
        if word not in words and name not in keys and not any(w.startswith(word) for w in longs):
            yield word


def fresh_spelling(key: str, taken_words: Iterable[str]) -> str:
    """A word that runs as the program ``key`` and is none of ``taken_words`` and no prefix of
    their long options (``--+git``; more ``+`` when taken)."""
    words = set(taken_words)
    longs = [w for w in words if w.startswith("--")]
    prefix = _NEUTRAL
    while True:
        word = prefix + key
        if word not in words and not any(w.startswith(word) for w in longs):
            return word
        prefix += "+"


IN_PLACE = "<"
"""The redirection of an in-place twin: its target is read as a word where it stands."""
NEW_RUN = "&>"
"""The redirection of a new-run twin: the runs break before its target."""


class WordAlphabet:
    """The words the rules spell and the extra words asked for (symbols ``0..n-1``), a
    neutral word (symbol ``n``) standing for every other word, and the twins (symbols
    above ``n``) of the ``twinned`` words and of the neutral one: each as the target of an
    :data:`IN_PLACE` and of a :data:`NEW_RUN` redirection. A word without twins is one no
    deny or ask pattern tells from the neutral word: the neutral word's twins stand for
    its."""

    def __init__(self, words: Iterable[str], neutral: str, twinned: Iterable[str] = ()) -> None:
        self.words = tuple(sorted({w for w in words if w != _WILDCARD}))
        self._ids = {word: index for index, word in enumerate(self.words)}
        self.other = len(self.words)
        self.other_word = neutral
        bases = [*sorted(self._ids[w] for w in set(twinned) if w in self._ids), self.other]
        self.in_place = {base: self.other + 1 + i for i, base in enumerate(bases)}
        self.new_run = {base: self.other + 1 + len(bases) + i for i, base in enumerate(bases)}
        self.twin_of = {twin: (IN_PLACE, base) for base, twin in self.in_place.items()}
        self.twin_of |= {twin: (NEW_RUN, base) for base, twin in self.new_run.items()}
        self.twins = SymbolSet(frozenset(self.twin_of))
        self.run_breaks = SymbolSet(frozenset(self.new_run.values()))
        """Every new-run twin: where a run of words ends."""

    def of(self, word: str) -> int:
        """The symbol of a word of the alphabet."""
        return self._ids[word]

    def programs(self, key: str) -> frozenset[int]:
        """The words of the alphabet that run as the program ``key`` (by basename)."""
        return frozenset(i for i, word in enumerate(self.words) if program_key(word) == key)

    def word(self, symbol: int) -> str:
        """The word of a symbol (of a twin: its target)."""
        symbol = self.twin_of.get(symbol, ("", symbol))[1]
        return self.other_word if symbol == self.other else self.words[symbol]

    def command(
        self, symbols: Sequence[int]
    ) -> tuple[tuple[str, ...], tuple[tuple[int, str, str], ...]]:
        """The words of a symbol string, and its redirections: (the index of the word they
        stand before, operator, target)."""
        words: list[str] = []
        redirections: list[tuple[int, str, str]] = []
        for symbol in symbols:
            twin = self.twin_of.get(symbol)
            if twin is None:
                words.append(self.word(symbol))
            else:
                redirections.append((len(words), twin[0], self.word(symbol)))
        return tuple(words), tuple(redirections)

    def in_run(self, symbols: SymbolSet, *, starting: bool = False) -> SymbolSet:
        """``symbols`` as the deny and ask patterns read them inside a run: each word with
        its in-place twin, no new-run twin (the run ends there); with ``starting``, a word's
        new-run twin too (it starts the run it is read in)."""
        ids = symbols.symbols
        if symbols.negated:
            hidden = {self.in_place[s] for s in ids if s in self.in_place}
            return SymbolSet(ids | hidden | self.run_breaks.symbols, negated=True)
        twins = [self.in_place, self.new_run] if starting else [self.in_place]
        return SymbolSet(ids | {t[s] for t in twins for s in ids if s in t})

    def new_runs(self, symbols: frozenset[int]) -> SymbolSet:
        """The new-run twins of the words ``symbols``: what starts a run with one of them."""
        return SymbolSet(frozenset(self.new_run[s] for s in symbols if s in self.new_run))


class WordDomain:
    """Every word sequence with a word is a simple command, redirections before, between and
    after its words; so is the empty line. ``barred`` words may stand only first (as the
    program), where no file rule reads them; the twins of ``files`` never stand (a file as a
    redirection's target is searched where its file regions are)."""

    def __init__(
        self,
        alphabet: WordAlphabet,
        barred: frozenset[int] = frozenset(),
        files: frozenset[int] = frozenset(),
    ) -> None:
        self._alphabet = alphabet
        self._barred = barred
        self._files = files
        other = alphabet.other
        self._other_twins = frozenset((alphabet.in_place[other], alphabet.new_run[other]))
        self.start: Hashable = 0  # 0: nothing yet, 1: redirections only, 2: a word read

    def step(self, state: Hashable, symbol: int) -> Hashable | None:
        """Any word may follow, a barred one only first; a twin of a file never."""
        twin = self._alphabet.twin_of.get(symbol)
        if twin is not None:
            return None if twin[1] in self._files else state or 1
        if state == 2 and symbol in self._barred:
            return None
        return 2

    def accepting(self, state: Hashable) -> bool:
        """Every sequence with a word, and the empty line."""
        return state != 1

    def split(self, named: frozenset[int]) -> tuple[frozenset[int], int | None]:
        """The neutral word stands for every word no live edge names; barred words and the
        neutral word's twins are tried one by one."""
        return (self._barred | self._other_twins) - named, self._alphabet.other

    def rank(self, symbol: int) -> int:
        """The neutral word first, then the alphabet in order, then the twins."""
        return -1 if symbol == self._alphabet.other else symbol


def pattern_key(pattern: CommandPattern, behavior: Behavior) -> Hashable:
    """Two (pattern, behavior) pairs with the same key are the same language: an allow
    reads a prefix, a deny and an ask an occurrence."""
    return (pattern.alternatives, behavior is Behavior.ALLOW)


def told_apart(pattern: CommandPattern, words: Iterable[str]) -> frozenset[str]:
    """The ``words`` the deny or ask ``pattern`` tells from the neutral word: those that run
    as its program, spell one of its further choices or give one of its options' atoms
    (:func:`add_pattern` names no other)."""
    rest = pattern.alternatives[1:]
    spelled = {word for choice in rest for word in choice}
    plain = [choice for choice in rest if not is_option(choice[0])]
    atoms = [
        atom for word in spelled if is_option(word) for need in option_needs(word) for atom in need
    ]
    return frozenset(
        word
        for word in words
        if word in spelled
        or (pattern.key != _WILDCARD and program_key(word) == pattern.key)
        or provided_atoms(word, atoms)
        or any(holds(word, choice) for choice in plain)
    )


def add_pattern(
    nfa: Nfa, pattern: CommandPattern, behavior: Behavior, alphabet: WordAlphabet, id_: int
) -> int:
    """Add ``pattern`` as a rule of ``behavior`` reads it (``id_`` names it); returns its
    start state. Allow: the words of a choice at each position, from the first word,
    redirections skipped. Deny and ask: the program by basename anywhere in a run, then
    each further plain choice held by a word of its own, in any order with anything
    between, while the words after the program gather the options' atoms (states: the set
    of plain choices held x atoms seen); a new run
    starts the search of the run again, once the pattern has hit it stays hit."""
    anything = SymbolSet(frozenset(), negated=True)
    if behavior is Behavior.ALLOW:
        start = state = nfa.state()
        for choice in pattern.alternatives:
            nfa.edge(state, alphabet.twins, state)  # a redirection's target is no word here
            nxt = nfa.state()
            reads = _reads(choice, alphabet)
            if reads.negated:
                reads = SymbolSet(reads.symbols | alphabet.twins.symbols, negated=True)
            nfa.edge(state, reads, nxt)
            state = nxt
        nfa.edge(state, anything, state)
        nfa.accept(state, id_)
        return start
    rest = pattern.alternatives[1:]
    plain = [choice for choice in rest if not is_option(choice[0])]
    options = [
        [need for a in choice for need in option_needs(a)]
        for choice in rest
        if is_option(choice[0])
    ]
    atoms = sorted({atom for choice in options for needed in choice for atom in needed})
    bit = {atom: 1 << i for i, atom in enumerate(atoms)}
    providers: dict[int, int] = {}
    for symbol, word in enumerate(alphabet.words):
        mask = sum(bit[a] for a in provided_atoms(word, atoms))
        if mask:
            providers[symbol] = mask
    quiet = frozenset(providers)
    in_run = alphabet.in_run
    start = nfa.state()
    nfa.edge(start, anything, start)
    full = (1 << len(plain)) - 1
    masks = range(1 << len(atoms))
    states = {(p, m): nfa.state() for p in range(full + 1) for m in masks}
    programs = SymbolSet(alphabet.programs(pattern.key))
    program = anything if pattern.key == _WILDCARD else in_run(programs, starting=True)
    nfa.edge(start, program, states[(0, 0)])
    new_runs = alphabet.run_breaks
    held = [_held(choice, alphabet) for choice in plain]
    for (p, m), state in states.items():
        nfa.edge(state, in_run(SymbolSet(quiet, negated=True)), state)
        for symbol, mask in providers.items():
            nfa.edge(state, in_run(SymbolSet(frozenset((symbol,)))), states[(p, m | mask)])
        for i, reads in enumerate(held):
            if p >> i & 1:
                continue
            if reads.negated:
                following = in_run(SymbolSet(reads.symbols | quiet, negated=True))
            else:
                following = in_run(SymbolSet(reads.symbols - quiet))
            nfa.edge(state, following, states[(p | 1 << i, m)])
            for symbol, mask in providers.items():
                if symbol in reads:
                    edge = in_run(SymbolSet(frozenset((symbol,))))
                    nfa.edge(state, edge, states[(p | 1 << i, m | mask)])
        if p == full and all(
            any(sum(bit[a] for a in need) & ~m == 0 for need in c) for c in options
        ):
            nfa.accept(state, id_)
            nfa.edge(state, new_runs, state)
            continue
        # A new run: what was read of this one is lost; its first word may be the program.
        nfa.edge(state, new_runs, start)
        restart = new_runs if pattern.key == _WILDCARD else alphabet.new_runs(programs.symbols)
        nfa.edge(state, restart, states[(0, 0)])
    return start


def pattern_hits(pattern: CommandPattern, behavior: Behavior, words: tuple[str, ...]) -> bool:
    """Whether ``pattern`` hits the simple command ``words``, by the engine's own matchers
    (to describe a region)."""
    if behavior is Behavior.ALLOW:
        return pattern.matches(words)
    return pattern.occurs_in(words)


def command_line(commands: Sequence[str]) -> str:
    """The command line of one or more simple commands (each already quoted), joined by
    ``;``."""
    return " ; ".join(commands)


def quoted(words: Iterable[str]) -> str:
    """Words shell-quoted and joined by spaces."""
    return " ".join(shlex.quote(word) for word in words)


def always_quoted(words: Iterable[str]) -> str:
    """Words in single quotes (a ``'`` as ``'"'"'``), joined by spaces."""
    return " ".join("'" + word.replace("'", "'\"'\"'") + "'" for word in words)


def _held(choice: tuple[str, ...], alphabet: WordAlphabet) -> SymbolSet:
    """The words that hold a deny's or an ask's plain ``choice``: its own, and the short
    options with a value glued to them that is one of them (``holds``)."""
    if choice == (_WILDCARD,):
        return SymbolSet(frozenset(), negated=True)
    return SymbolSet(frozenset(i for i, word in enumerate(alphabet.words) if holds(word, choice)))


def _reads(choice: tuple[str, ...], alphabet: WordAlphabet) -> SymbolSet:
    if choice == (_WILDCARD,):
        return SymbolSet(frozenset(), negated=True)
    return SymbolSet(frozenset(alphabet.of(word) for word in choice))
