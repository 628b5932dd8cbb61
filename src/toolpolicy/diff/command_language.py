"""Command lines as a regular language over words, under today's command-rule semantics.

The model is one *simple command*: a sequence of words, written as a line with each word
shell-quoted. The alphabet is every word the rules spell plus one "other word" standing
for all the rest. :class:`PrefixSemantics` encodes how ``compile/commands.py`` reads a
prefix today:

* an allow prefix matches when the words *start with* the prefix (``*`` is any one word);
* a deny or ask prefix *occurs* when the first word is the prefix's program and its other
  words follow in order, anything between them.

Assumptions (what the model does not see; the engine decides every witness anyway): the
program is not a wrapper, a shell with ``-c``, ``eval``, ``find -exec``, ``source``,
``trap`` or ``su -c`` and does not start with ``/`` or ``~`` (the engine would add the
command they run, or the basename, as a further simple command), and no word is an
assignment, a reserved word or a glob that bash would expand. A line of several simple
commands (joined by ``;``) is decided by combining them: a deny or ask hits if it hits one
of them, an allow only if it covers every one (``compile/rules.py``); the regions of such
lines are searched too (:mod:`toolpolicy.diff.regions`).

A future semantics (say, programs by basename anywhere in the line) is another class with
the same two methods.
"""

from __future__ import annotations

import shlex
from collections.abc import Hashable, Iterable, Sequence
from typing import Protocol

from ..compile.commands import CommandPattern
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
        self.other_word = next(
            (w for w in _candidates() if w not in self._ids),
        )

    def of(self, word: str) -> int:
        """The symbol of a rule word."""
        return self._ids[word]

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
    ) -> int:
        """Add ``pattern`` as a rule of ``behavior`` reads it; returns its start state."""
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
        return (pattern.words, behavior is Behavior.ALLOW)

    def add_pattern(
        self,
        nfa: Nfa,
        pattern: CommandPattern,
        behavior: Behavior,
        alphabet: WordAlphabet,
        id_: int,
    ) -> int:
        """Prefix for allow; program then the other words in order for deny and ask."""
        anything = SymbolSet(frozenset(), negated=True)
        start = state = nfa.state()
        for position, word in enumerate(pattern.words):
            if position and behavior is not Behavior.ALLOW:
                nfa.edge(state, anything, state)
            nxt = nfa.state()
            nfa.edge(
                state,
                anything if word == _WILDCARD else SymbolSet(frozenset({alphabet.of(word)})),
                nxt,
            )
            state = nxt
        nfa.edge(state, anything, state)
        nfa.accept(state, id_)
        return start

    def hits(self, pattern: CommandPattern, behavior: Behavior, words: tuple[str, ...]) -> bool:
        """The engine's own matcher on one simple command."""
        if behavior is Behavior.ALLOW:
            return pattern.matches(words)
        return pattern.occurs_in(words)

    def line(self, commands: Sequence[tuple[str, ...]]) -> str:
        """Words shell-quoted and joined by spaces, commands by ``;``."""
        return " ; ".join(" ".join(shlex.quote(word) for word in words) for words in commands)
