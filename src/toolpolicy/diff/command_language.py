"""Command lines as a regular language over words, under the engine's command-rule semantics.

The model is one *simple command*: a sequence of words, written as a line with each word
shell-quoted. The alphabet is every word the rules spell (alternatives included) plus one
"other word" standing for all the rest. :class:`PrefixSemantics` encodes how
``compile/command_patterns.py`` reads a pattern:

* an allow covers a plain command whose first words are the pattern's, each one of its
  word's alternatives (``*`` any one word);
* a deny or ask *occurs* where the program (by basename) stands anywhere in the words,
  followed by the other words in order with anything between them.

Assumptions — what the model does not see (the engine decides every witness anyway, so a
printed decision is always the engine's; what can be missed is a region):

* option words of a deny or ask are read as literal words in order; the engine reads them
  as a set (``-rf`` also hits ``-f -r``, ``--forc``);
* path rules that decide a shell line's path arguments and redirections (read rules on
  the arguments of read-only commands, rules naming the shell with ``paths``);
* the plain subset: every witness is plain (literal words), so lines outside it (which
  no allow covers) are not enumerated — they are decided like lines no allow covers;
* wrappers, ``bash -c``, ``eval`` and the like that hide a further command in the words.

A line of several simple commands (joined by ``;``) is decided by combining them: a deny
or ask hits if it hits one of them, an allow only if it covers every one
(``compile/rules.py``); the regions of such lines are searched too
(:mod:`toolpolicy.diff.regions`). Another semantics is another class with the same methods.
"""

from __future__ import annotations

import shlex
from collections.abc import Hashable, Iterable, Sequence
from typing import Protocol

from ..compile.command_patterns import CommandPattern, program_key
from ..core.vocabulary import Behavior
from .automaton import Nfa, SymbolSet

__all__ = ["CommandSemantics", "PrefixSemantics", "WordAlphabet", "WordDomain"]

_WILDCARD = "*"
_OTHER_WORDS = ("w", "x", "y", "z")


class WordAlphabet:
    """The words the rules spell (symbols ``0..n-1``) and one other word (symbol ``n``)."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = tuple(sorted({w for w in words if w != _WILDCARD}))
        self._ids = {word: index for index, word in enumerate(self.words)}
        self.other = len(self.words)
        keys = {program_key(word) for word in self.words}
        self.other_word = next(w for w in _candidates() if w not in self._ids and w not in keys)

    def of(self, word: str) -> int:
        """The symbol of a rule word."""
        return self._ids[word]

    def programs(self, key: str) -> frozenset[int]:
        """The rule words that run as the program ``key`` (by basename)."""
        return frozenset(i for i, word in enumerate(self.words) if program_key(word) == key)

    def text(self, symbols: Sequence[int]) -> tuple[str, ...]:
        """The words of a symbol string."""
        return tuple(self.other_word if s == self.other else self.words[s] for s in symbols)


def _candidates() -> Iterable[str]:
    yield from _OTHER_WORDS
    index = 0
    while True:
        yield f"w{index}"
        index += 1


class WordDomain:
    """Every word sequence is a valid simple command; one state."""

    def __init__(self, alphabet: WordAlphabet) -> None:
        self._alphabet = alphabet
        self.start: Hashable = 0

    def step(self, state: Hashable, symbol: int) -> Hashable | None:
        """Any word may follow."""
        return state

    def accepting(self, state: Hashable) -> bool:
        """Every sequence, the empty line included."""
        return True

    def split(self, named: frozenset[int]) -> tuple[frozenset[int], int | None]:
        """The other word stands for every word no live edge names."""
        return frozenset(), self._alphabet.other

    def rank(self, symbol: int) -> int:
        """The other word first, then the rule words in order."""
        return -1 if symbol == self._alphabet.other else symbol


class CommandSemantics(Protocol):
    """How a command rule's prefix reads a simple command, as a word automaton."""

    def add_pattern(
        self,
        nfa: Nfa,
        pattern: CommandPattern,
        behavior: Behavior,
        alphabet: WordAlphabet,
        id_: int,
        *,
        anywhere: bool = True,
    ) -> int:
        """Add ``pattern`` as a rule of ``behavior`` reads it; returns its start state.
        ``anywhere=False``: a deny's program only as the first word (a bounded search)."""
        ...

    def key(self, pattern: CommandPattern, behavior: Behavior) -> Hashable:
        """Two (pattern, behavior) pairs with the same key are the same language."""
        ...

    def hits(self, pattern: CommandPattern, behavior: Behavior, words: tuple[str, ...]) -> bool:
        """Whether ``pattern`` hits the simple command ``words`` (to describe a region)."""
        ...

    def line(self, commands: Sequence[tuple[str, ...]]) -> str:
        """The command line a witness of one or more simple commands is decided as."""
        ...


class PrefixSemantics:
    """Today's semantics (see the module docstring)."""

    def key(self, pattern: CommandPattern, behavior: Behavior) -> Hashable:
        """Allow reads a prefix, deny and ask an occurrence."""
        return (pattern.alternatives, behavior is Behavior.ALLOW)

    def add_pattern(
        self,
        nfa: Nfa,
        pattern: CommandPattern,
        behavior: Behavior,
        alphabet: WordAlphabet,
        id_: int,
        *,
        anywhere: bool = True,
    ) -> int:
        """Allow: the words of a choice at each position, from the first word. Deny and
        ask: the program by basename anywhere (with ``anywhere=False`` first), then each
        further choice in order with anything between."""
        anything = SymbolSet(frozenset(), negated=True)
        allow = behavior is Behavior.ALLOW
        start = state = nfa.state()
        for position, choice in enumerate(pattern.alternatives):
            if not allow and (position or anywhere):
                nfa.edge(state, anything, state)
            if choice == (_WILDCARD,):
                reads = anything
            elif position == 0 and not allow:
                reads = SymbolSet(alphabet.programs(pattern.key))
            else:
                reads = SymbolSet(frozenset(alphabet.of(word) for word in choice))
            nxt = nfa.state()
            nfa.edge(state, reads, nxt)
            state = nxt
        nfa.edge(state, anything, state)
        nfa.accept(state, id_)
        return start

    def hits(self, pattern: CommandPattern, behavior: Behavior, words: tuple[str, ...]) -> bool:
        """The engine's own matchers on one simple command."""
        if behavior is Behavior.ALLOW:
            return pattern.matches(words)
        return pattern.occurs_in(words)

    def line(self, commands: Sequence[tuple[str, ...]]) -> str:
        """Words shell-quoted and joined by spaces, commands by ``;``."""
        return " ; ".join(" ".join(shlex.quote(word) for word in words) for words in commands)
