"""The smallest simple commands a deny or ask command pattern occurs in.

A deny or ask hit is *monotone*: a command that holds another one as a subsequence, or
holds a word where the other holds a weaker one, is hit by every pattern the other is hit
by. A word is weaker than another when every rule slot it fills, the other fills too: a
neutral word (:func:`~toolpolicy.diff.command_language.neutral_words`) fills only ``*``
slots, a fresh spelling of a program only that program's slots, a short-option cluster
only the letters it holds (a letter no rule reads may fill it out; none of the values glued
to it is a rule's word). So every command in which a pattern occurs holds, below it in
that order, one of the pattern's *occurrence witnesses*: the program's fresh spelling, then
each plain word (an alternative; a neutral word for ``*``; and glued to an option no rule
reads, ``-zb``, where as a word of its own it runs as a rule's program or names a file a
rule decides: a line may hold it glued only, which is weaker) in every order, with the
options' letters and long names as option words placed in every order among them (grouped
in every way, and also standing in for a ``*``). Whatever decides such a witness on either side,
decides the bigger command too or is beaten there by something stronger — which is what
lets :mod:`toolpolicy.diff.command_regions` join witnesses instead of searching every mix
of started patterns.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence

from ..compile.command_patterns import CommandPattern, glued_values, program_key
from .command_language import fresh_spelling, is_option, option_needs

__all__ = [
    "MAX_WITNESSES",
    "glued_spellings",
    "neutral_option",
    "occurrence_witnesses",
]

MAX_WITNESSES = 512
_WILDCARD = "*"
_FILLERS = "zyxqjk"  # letters a cluster may hold beside its own, where no rule reads them


def occurrence_witnesses(
    pattern: CommandPattern,
    neutral: str,
    taken_words: Iterable[str],
    taken_keys: Iterable[str],
    strong: Callable[[str], bool] = lambda word: False,
) -> tuple[list[tuple[str, ...]], bool]:
    """The occurrence witnesses of ``pattern`` (a deny or ask reading), each also with the
    program as written, and whether the list is complete (``False``: more than
    :data:`MAX_WITNESSES`, or an option no word spells without running as a program).
    ``strong`` tells the plain words a line's word may hold glued to an option instead, where
    as words of their own they run as a rule's program or name a file a rule decides."""
    words = set(taken_words)
    keys = set(taken_keys)
    program = neutral if pattern.key == _WILDCARD else fresh_spelling(pattern.key, words)
    # The program as written reads better; it is tried too (a weaker spelling it is not).
    spellings = dict.fromkeys((pattern.program if pattern.key != _WILDCARD else program, program))
    rest = pattern.alternatives[1:]
    # A ``strong`` plain word is also glued to an option (``b`` as ``-zb``): weaker, where
    # a line holds it glued only.
    plain = [
        (*choice, *glued_spellings(choice, words, keys, strong))
        for choice in rest
        if not is_option(choice[0])
    ]
    options = [
        [need for a in choice for need in option_needs(a)]
        for choice in rest
        if is_option(choice[0])
    ]
    found: dict[tuple[str, ...], None] = {}
    complete = True
    orders = dict.fromkeys(
        order
        for plain_words in itertools.product(*plain)
        for order in itertools.permutations(None if w == _WILDCARD else w for w in plain_words)
    )
    for slots in orders:
        for chosen in itertools.product(*options):
            atoms = frozenset().union(*chosen)
            for groups in _option_words(atoms, keys, words):
                if groups is None:
                    complete = False
                    continue
                for arranged in _arrangements(slots, groups, neutral):
                    for spelled in spellings:
                        found[(spelled, *arranged)] = None
                    if len(found) > MAX_WITNESSES:
                        return list(found)[:MAX_WITNESSES], False
    return list(found), complete


def neutral_option(
    word: str, taken_words: Iterable[str], taken_keys: Iterable[str]
) -> tuple[str, ...]:
    """How an occurrence witness spells the option ``word`` of a pattern: itself where it
    runs as no rule's program and holds no rule's word glued, else the way of
    :func:`_option_words` in the fewest words that does (``-a`` as ``-az`` where a rule's
    program is ``a``); ``()`` if none does."""
    words, keys = set(taken_words), set(taken_keys)
    atoms = option_needs(word)[0]
    if all(len(a) == 1 for a in atoms) and _spells_nothing(word, keys, words):
        return (word,)
    ways = [tuple(way) for way in _option_words(atoms, keys, words) if way is not None]
    return min(ways, key=len) if ways else ()


def glued_spellings(
    choice: Iterable[str], words: set[str], keys: set[str], strong: Callable[[str], bool]
) -> tuple[str, ...]:
    """Each plain word of ``choice`` that is ``strong``, glued as a value to a short option
    no rule reads (``b`` as ``-zb``): a line's word that holds it for the pattern (a deny or
    an ask reads the values a short option may hold glued) without running as a program or
    naming a file. None for a word where every such option word holds or spells another
    rule's word, or runs as a rule's program."""
    fillers = _fillers(words)
    return tuple(
        glued
        for word in choice
        if word != _WILDCARD
        and strong(word)
        and (glued := _glued(word, words, keys, fillers)) is not None
    )


def _glued(word: str, words: set[str], keys: set[str], fillers: Sequence[str]) -> str | None:
    others = words - {word}  # the word it holds is the one wanted
    return next(
        (
            spelled
            for filler in fillers
            if _spells_nothing(spelled := f"-{filler}{word}", keys, others)
        ),
        None,
    )


def _fillers(words: set[str]) -> tuple[str, ...]:
    """The letters a cluster may hold beside its own: those no rule's option reads."""
    return _fillers_of(frozenset(words))


@functools.lru_cache(maxsize=64)
def _fillers_of(words: frozenset[str]) -> tuple[str, ...]:
    """:func:`_fillers`, once per set of words (a search asks it for every pattern)."""
    read = {letter for word in words if is_option(word) for letter in word.lstrip("-")}
    return tuple(f for f in _FILLERS if f not in read)


def _option_words(
    atoms: frozenset[str], keys: set[str], words: set[str]
) -> Iterator[list[str] | None]:
    """Every way to write ``atoms`` as option words (letters grouped in clusters in every
    way, each long name as one word, each value as itself); ``None`` for a way no word
    spells neutrally."""
    letters = sorted(a for a in atoms if len(a) == 1)
    longs = sorted(a for a in atoms if a.startswith("--"))
    values = sorted(a[1:] for a in atoms if a[0] == "=")  # each a word of its own
    long_words: list[str] = []
    for long in longs:
        word = next((long[:n] for n in range(len(long), 2, -1) if _neutral(long[:n], keys)), None)
        if word is None:
            yield None
            return
        long_words.append(word)
    fillers = _fillers(words)
    for blocks in _partitions(letters):
        clusters = [_cluster(block, keys, words, fillers) for block in blocks]
        if any(w is None for w in clusters):
            yield None
            continue
        yield [w for w in clusters if w is not None] + long_words + values


def _neutral(word: str, keys: set[str]) -> bool:
    return program_key(word) not in keys


def _cluster(
    letters: Sequence[str], keys: set[str], words: set[str], fillers: Sequence[str]
) -> str | None:
    """``-`` and the letters, in some order and with the last repeated or a letter no rule
    reads added if need be, so that it runs as no rule's program (``-a`` runs as ``a``;
    ``-aa`` holds the same letter) and holds as a glued value none of the rules' words
    (``-ab`` may be ``-a b``), nor spells a long option of theirs (``-abc`` is ``--abc`` to
    Go's flags)."""
    for filler in ("", *fillers):
        for repeat in range(4):
            for order in itertools.permutations(letters):
                word = "-" + "".join(order) + order[-1] * repeat + filler
                if _spells_nothing(word, keys, words):
                    return word
    return None


def _spells_nothing(word: str, keys: set[str], words: set[str]) -> bool:
    """Whether the cluster ``word`` runs as no rule's program, holds none of the rules'
    words as a glued value and spells none of their long options."""
    return _neutral(word, keys) and words.isdisjoint(glued_values(word)) and "-" + word not in words


def _partitions(items: Sequence[str]) -> Iterator[list[list[str]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for smaller in _partitions(rest):
        yield [[first], *smaller]
        for i in range(len(smaller)):
            yield [*smaller[:i], [first, *smaller[i]], *smaller[i + 1 :]]


def _arrangements(
    slots: Sequence[str | None], options: Sequence[str], neutral: str
) -> Iterator[tuple[str, ...]]:
    """The plain words in the order given (``None``: a ``*`` slot, a neutral word or an
    option word), with the option words in every order and place among them."""
    if not slots and not options:
        yield ()
        return
    if slots:
        head, tail = slots[0], slots[1:]
        if head is None:
            for after in _arrangements(tail, options, neutral):
                yield (neutral, *after)
            for i, option in enumerate(options):
                for after in _arrangements(tail, [*options[:i], *options[i + 1 :]], neutral):
                    yield (option, *after)
        else:
            for after in _arrangements(tail, options, neutral):
                yield (head, *after)
    for i, option in enumerate(options):
        for after in _arrangements(slots, [*options[:i], *options[i + 1 :]], neutral):
            yield (option, *after)
