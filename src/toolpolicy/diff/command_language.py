"""Simple commands as a regular language over words, under the engine's command-rule semantics.

The model is one *simple command*: a sequence of words, written as a line with each word
shell-quoted. The alphabet is every word the rules spell (alternatives included), extra
words a search asks for, and one *neutral* word standing for all the rest.
The functions here encode how ``compile/command_patterns.py`` reads a pattern:

* an allow covers a plain command whose first words are the pattern's, each one of its
  word's alternatives (``*`` any one word);
* a deny or ask *occurs* where the program (by basename) stands anywhere in the words,
  followed by the other plain words in order with anything between them, and its options
  as a set: every word after the program adds its short letters and its long option, in
  any order and grouping (``-rf`` is hit by ``-f -r``; ``--forc`` abbreviates ``--force``).

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

from ..compile.command_patterns import CommandPattern, program_key
from ..core.vocabulary import Behavior
from .automaton import Nfa, SymbolSet

__all__ = [
    "WordAlphabet",
    "WordDomain",
    "add_pattern",
    "command_line",
    "fresh_spelling",
    "is_option",
    "neutral_words",
    "option_atoms",
    "pattern_hits",
    "pattern_key",
    "provided_atoms",
    "quoted",
]

_WILDCARD = "*"
_NEUTRAL = "--+"


def is_option(word: str) -> bool:
    """An option word, as the engine reads one (``-x``, ``-rf``, ``--force``; not ``--``)."""
    return len(word) > 1 and word[0] == "-" and word != "--"


def _long(word: str) -> str | None:
    return word.split("=", 1)[0] if word.startswith("--") and len(word) > 2 else None


def option_atoms(alternative: str) -> frozenset[str]:
    """What an option alternative needs: its short letters, or its long name."""
    long = _long(alternative)
    return frozenset((long,)) if long is not None else frozenset(alternative[1:])


def provided_atoms(word: str, atoms: Iterable[str]) -> frozenset[str]:
    """The ``atoms`` (short letters, long names) the word ``word`` provides after a program:
    its letters if it is a short cluster, the long names it abbreviates if it is long."""
    long = _long(word)
    if long is not None:
        return frozenset(a for a in atoms if len(a) > 1 and a.startswith(long))
    if is_option(word):
        letters = set(word[1:])
        return frozenset(a for a in atoms if len(a) == 1 and a in letters)
    return frozenset()


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


class WordAlphabet:
    """The words the rules spell and the extra words asked for (symbols ``0..n-1``), and a
    neutral word (symbol ``n``) standing for every other word."""

    def __init__(self, words: Iterable[str], neutral: str) -> None:
        self.words = tuple(sorted({w for w in words if w != _WILDCARD}))
        self._ids = {word: index for index, word in enumerate(self.words)}
        self.other = len(self.words)
        self.other_word = neutral

    def of(self, word: str) -> int:
        """The symbol of a word of the alphabet."""
        return self._ids[word]

    def programs(self, key: str) -> frozenset[int]:
        """The words of the alphabet that run as the program ``key`` (by basename)."""
        return frozenset(i for i, word in enumerate(self.words) if program_key(word) == key)

    def text(self, symbols: Sequence[int]) -> tuple[str, ...]:
        """The words of a symbol string."""
        return tuple(self.other_word if s == self.other else self.words[s] for s in symbols)


class WordDomain:
    """Every word sequence is a simple command; ``barred`` words may stand only first (as
    the program), where no file rule reads them."""

    def __init__(self, alphabet: WordAlphabet, barred: frozenset[int] = frozenset()) -> None:
        self._alphabet = alphabet
        self._barred = barred
        self.start: Hashable = 0

    def step(self, state: Hashable, symbol: int) -> Hashable | None:
        """Any word may follow, a barred one only first."""
        if state and symbol in self._barred:
            return None
        return 1

    def accepting(self, state: Hashable) -> bool:
        """Every sequence, the empty line included."""
        return True

    def split(self, named: frozenset[int]) -> tuple[frozenset[int], int | None]:
        """The neutral word stands for every word no live edge names; barred words are
        tried one by one."""
        return self._barred - named, self._alphabet.other

    def rank(self, symbol: int) -> int:
        """The neutral word first, then the alphabet in order."""
        return -1 if symbol == self._alphabet.other else symbol


def pattern_key(pattern: CommandPattern, behavior: Behavior) -> Hashable:
    """Two (pattern, behavior) pairs with the same key are the same language: an allow
    reads a prefix, a deny and an ask an occurrence."""
    return (pattern.alternatives, behavior is Behavior.ALLOW)


def add_pattern(
    nfa: Nfa, pattern: CommandPattern, behavior: Behavior, alphabet: WordAlphabet, id_: int
) -> int:
    """Add ``pattern`` as a rule of ``behavior`` reads it (``id_`` names it); returns its
    start state. Allow: the words of a choice at each position, from the first word. Deny and
    ask: the program by basename anywhere, then each further plain choice in order
    with anything between, while the words after the program gather the options'
    atoms (states: plain choices read x atoms seen)."""
    anything = SymbolSet(frozenset(), negated=True)
    if behavior is Behavior.ALLOW:
        start = state = nfa.state()
        for choice in pattern.alternatives:
            nxt = nfa.state()
            nfa.edge(state, _reads(choice, alphabet), nxt)
            state = nxt
        nfa.edge(state, anything, state)
        nfa.accept(state, id_)
        return start
    rest = pattern.alternatives[1:]
    plain = [choice for choice in rest if not is_option(choice[0])]
    options = [[option_atoms(a) for a in choice] for choice in rest if is_option(choice[0])]
    atoms = sorted({atom for choice in options for needed in choice for atom in needed})
    bit = {atom: 1 << i for i, atom in enumerate(atoms)}
    providers: dict[int, int] = {}
    for symbol, word in enumerate(alphabet.words):
        mask = sum(bit[a] for a in provided_atoms(word, atoms))
        if mask:
            providers[symbol] = mask
    quiet = frozenset(providers)
    start = nfa.state()
    nfa.edge(start, anything, start)
    masks = range(1 << len(atoms))
    states = {(i, m): nfa.state() for i in range(len(plain) + 1) for m in masks}
    program = anything if pattern.key == _WILDCARD else SymbolSet(alphabet.programs(pattern.key))
    nfa.edge(start, program, states[(0, 0)])
    for (i, m), state in states.items():
        nfa.edge(state, SymbolSet(quiet, negated=True), state)
        for symbol, mask in providers.items():
            nfa.edge(state, SymbolSet(frozenset((symbol,))), states[(i, m | mask)])
        if i < len(plain):
            reads = _reads(plain[i], alphabet)
            if reads.negated:
                nfa.edge(state, SymbolSet(reads.symbols | quiet, negated=True), states[(i + 1, m)])
            else:
                nfa.edge(state, SymbolSet(reads.symbols - quiet), states[(i + 1, m)])
            for symbol, mask in providers.items():
                if symbol in reads:
                    nfa.edge(state, SymbolSet(frozenset((symbol,))), states[(i + 1, m | mask)])
        elif all(any(sum(bit[a] for a in need) & ~m == 0 for need in c) for c in options):
            nfa.accept(state, id_)
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


def _reads(choice: tuple[str, ...], alphabet: WordAlphabet) -> SymbolSet:
    if choice == (_WILDCARD,):
        return SymbolSet(frozenset(), negated=True)
    return SymbolSet(frozenset(alphabet.of(word) for word in choice))
