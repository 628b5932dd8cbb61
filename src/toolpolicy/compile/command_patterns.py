"""Command patterns: the ``commands`` of a rule, and how allow and deny read them.

A pattern is a command prefix written as words separated by spaces (``git push``,
``rm -rf``, ``npm run *``). ``*`` is a whole word and matches exactly one word. A word may
list alternatives separated by ``|``: ``git status|log``, ``rm -r|--recursive -f|--force``
(all alternatives of one word are options, or none is; the program takes none).

An **allow** reads a pattern exactly: the command's first words are the pattern's words, in
order (:meth:`CommandPattern.matches`). A **deny or ask** reads it conservatively
(:meth:`CommandPattern.occurs_in`): the program is matched by basename anywhere in a run of
words, each other plain word by a word of its own after it, in any order and with anything
between (operands a program takes in any order: ``dd if=/dev/zero of=/dev/sda`` hits ``dd
of=/dev/sda if=/dev/zero``), and options are a set — a short-option cluster stands for its
letters in any order and any grouping (``-rf`` hits ``-r -f``, ``-fr``, ``-f -r``; ``-R`` is
not ``-r``), a long option matches as written or abbreviated (``--force``, ``--force=yes``,
``--forc``) and, as Go's flags take it, with a single dash (``-force``, ``-force=yes``; not
abbreviated). A single-dash option of three letters or more is also read as that long
option (``-auto-approve`` hits ``--auto-approve``).
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Iterator, Mapping

from ..core.lean_typing import TYPE_CHECKING, NamedTuple
from ..core.text_checks import has_control_character

if TYPE_CHECKING:
    from .plain_subset import PlainCommand

__all__ = [
    "MAX_COMMAND_PATTERN_LENGTH",
    "CommandPattern",
    "CommandPatternError",
    "as_path",
    "compile_command_pattern",
    "compile_occurrence_pattern",
    "glued_values",
    "held_words",
    "holds",
    "is_glob",
    "program_key",
    "value_splits",
]

MAX_COMMAND_PATTERN_LENGTH = 1024

_WILDCARD = "*"
_FORBIDDEN_IN_PATTERN = frozenset("'\"\\`;&<>()")
# The characters a line's runs of words break at (``command_scan``) that a pattern may hold.
_WORD_BREAKS = re.compile(r"[${}=,:]")
_GLOB = re.compile(r"[*?[]")


class CommandPatternError(ValueError):
    """A command pattern that cannot be compiled; the message says what is wrong."""


def program_key(word: str) -> str:
    """The name a word may run as a program: its basename (``/usr/bin/git``, ``../git``),
    without the operator a ``${x:-git}`` default leaves in front of it."""
    return word.rsplit("/", 1)[-1].lstrip("-+?#%")


def _is_option(word: str) -> bool:
    return len(word) > 1 and word[0] == "-" and word != "--"


class _Option(NamedTuple):
    """One option alternative: the short letters it needs (or some of them, with the rest
    a value a word holds: :func:`value_splits`), or a long option's name."""

    letters: frozenset[str]
    long: str
    splits: tuple[tuple[str, str], ...] = ()

    def found(
        self,
        letters: frozenset[str],
        longs: tuple[str, ...],
        named: frozenset[str],
        words: tuple[str, ...],
    ) -> bool:
        if self.long:
            return self.long in named or any(self.long.startswith(word) for word in longs)
        return self.letters <= letters or any(
            letters.issuperset(short) and any(holds(word, (value,)) for word in words)
            for short, value in self.splits
        )


class CommandPattern(NamedTuple):
    """A command prefix as words; build it with :func:`compile_command_pattern`.

    ``words`` are the words as written, ``alternatives`` the choices of each word, ``key``
    the program's basename (``*`` for any program).
    """

    text: str
    words: tuple[str, ...]
    alternatives: tuple[tuple[str, ...], ...]
    key: str

    @property
    def program(self) -> str:
        """The program word (``*`` for any program)."""
        return self.words[0]

    def as_written(self) -> CommandPattern:
        """This pattern as its text is written (a deny's or an ask's words are broken where a
        line's words break, :func:`compile_occurrence_pattern`): what another agent's rules,
        which read the command's own words, are given."""
        return compile_command_pattern(self.text)

    def spellings(self) -> tuple[tuple[str, ...], ...]:
        """Every prefix the alternatives stand for (``git status|log``: ``git status``,
        ``git log``), for dialects that have no alternatives."""
        return tuple(itertools.product(*self.alternatives))

    def matches(self, words: tuple[str, ...]) -> bool:
        """Allow: whether ``words`` start with this pattern's words, exactly and in order
        (``*`` matches any one word)."""
        choices = self.alternatives
        if len(words) < len(choices):
            return False
        for choice, word in zip(choices, words, strict=False):
            if word not in choice and choice != (_WILDCARD,):
                return False
        return True

    def covers(self, command: PlainCommand) -> bool:
        """Allow: whether this pattern matches a plain command through words bash passes
        unchanged (a glob word can stand only after the pattern's words)."""
        return len(self.words) <= command.literal and self.matches(command.words)

    def occurs_in(self, words: tuple[str, ...]) -> bool:
        """Deny and ask: whether the program appears in ``words`` (by basename) followed by
        the other plain words in any order and the options as a set (see the module
        docstring)."""
        rest = self.alternatives[1:]
        program = self.key
        for start, word in enumerate(words):
            if (program == _WILDCARD or program_key(word) == program) and _rest_occurs(
                rest, words[start + 1 :]
            ):
                return True
        return False

    def found_in(
        self,
        runs: tuple[tuple[str, ...], ...],
        positions: Mapping[str, tuple[tuple[int, int], ...]],
    ) -> int | None:
        """:meth:`occurs_in` over a line's runs, looking only where the program stands
        (``positions``: program key → (run, word) indexes); the index of the run hit."""
        if self.key == _WILDCARD:
            return next((i for i, run in enumerate(runs) if self.occurs_in(run)), None)
        rest = self.alternatives[1:]
        for run, start in positions.get(self.key, ()):
            if _rest_occurs(rest, runs[run][start + 1 :]):
                return run
        return None


def _rest_occurs(choices: tuple[tuple[str, ...], ...], words: tuple[str, ...]) -> bool:
    plain = [choice for choice in choices if not _is_option(choice[0])]
    if plain and not _each_held(plain, words):
        return False
    options = [tuple(_option(a) for a in choice) for choice in choices if _is_option(choice[0])]
    if not options:
        return True
    letters: set[str] = set()
    longs: list[str] = []
    named: set[str] = set()
    for word in words:
        if word.startswith("--") and len(word) > 2:
            longs.append(word.split("=", 1)[0])
        elif _is_option(word):
            letters.update(word[1:])
            if _single_dash_long(word):  # a Go flag's long name, never abbreviated
                named.add("-" + word.split("=", 1)[0])
    found = (frozenset(letters), tuple(longs), frozenset(named), words)
    return all(any(o.found(*found) for o in choice) for choice in options)


def _each_held(plain: list[tuple[str, ...]], words: tuple[str, ...]) -> bool:
    """Whether each plain choice holds a word of ``words`` of its own, in any order (``*``
    any word): a matching of choices to words, grown by augmenting paths."""
    if len(words) < len(plain):
        return False
    if len(plain) == 1:  # the common case: one word, no matching to grow
        choice = plain[0]
        return choice == (_WILDCARD,) or any(holds(word, choice) for word in words)
    wildcards = sum(choice == (_WILDCARD,) for choice in plain)
    holders = [
        [i for i, word in enumerate(words) if holds(word, choice)]
        for choice in plain
        if choice != (_WILDCARD,)
    ]
    owner: dict[int, int] = {}  # word index -> choice index

    def place(choice: int, seen: set[int]) -> bool:
        for index in holders[choice]:
            if index not in seen:
                seen.add(index)
                if index not in owner or place(owner[index], seen):
                    owner[index] = choice
                    return True
        return False

    # the wildcards take any words left over: there are enough (checked above)
    return wildcards == len(plain) or all(place(c, set()) for c in range(len(holders)))


def holds(word: str, choice: tuple[str, ...]) -> bool:
    """Deny and ask: whether the line's ``word`` holds one of ``choice``'s words (a deny's
    words are written as :func:`as_path` writes them): one of its :func:`held_words`, or
    one it may expand to as a glob (:func:`is_glob`; ``buil?`` holds ``build``)."""
    return any(held in choice for held in held_words(word)) or (
        is_glob(word) and any(_expands_to(word, other) for other in choice)
    )


def is_glob(word: str) -> bool:
    """Whether the shell may expand ``word`` to the names of files (``*``, ``?``, ``[``)."""
    return _GLOB.search(word) is not None


def _expands_to(glob: str, word: str) -> bool:
    """Whether ``glob`` may expand to the path ``word``: segment by segment, as the shell
    matches names (a ``*`` never crosses a ``/``; a leading dot is matched too, as under
    ``dotglob``: a deny may hit more)."""
    import fnmatch  # only a glob in a line needs it

    words = word.split("/")
    for spelled in dict.fromkeys(_paths_of(glob)):
        globs = spelled.split("/")
        if len(globs) == len(words) and all(
            fnmatch.fnmatchcase(name, pattern) for name, pattern in zip(words, globs, strict=True)
        ):
            return True
    return False


def held_words(word: str) -> Iterator[str]:
    """The words a line's ``word`` holds for a deny or an ask: itself, the path it spells
    (:func:`as_path`, and with each ``name/..`` dropped) and the values glued to it if it is
    a short option (:func:`glued_values`)."""
    yield word
    if "/" in word:
        yield from _paths_of(word)
    yield from glued_values(word)


def _paths_of(word: str) -> Iterator[str]:
    """The path ``word`` spells (:func:`as_path`) and, when it goes through ``..``, that path
    with each ``name/..`` dropped (``b/../secret``: ``secret``): the file it names when no
    name on the way is a symbolic link, which a deny holds too (it may hit more)."""
    path = as_path(word)
    yield path
    if ".." in path.split("/"):
        yield _not_an_option(posixpath.normpath(path))


def as_path(word: str) -> str:
    """``word`` as the path it names, spelled the shortest way: ``./`` in front, ``/`` at
    the end, ``/.`` and repeated ``/`` dropped (``./build/``, ``build//.``: ``build``;
    ``//``: ``/``). A word without ``/`` is itself. A relative path whose first name starts
    with ``-`` keeps ``./`` (``.//-a``: ``./-a``, :func:`_not_an_option`)."""
    if "/" not in word:
        return word
    rooted = word.startswith("/")
    parts = [part for part in word.split("/") if part not in ("", ".")]
    path = "/".join(parts)
    return "/" + path if rooted else _not_an_option(path or ".")


def _not_an_option(path: str) -> str:
    """The relative ``path`` with ``./`` in front where its first name starts with ``-``:
    spelled ``-a`` it would be an option, to a program and to a deny alike."""
    return "./" + path if path.startswith("-") else path


def glued_values(word: str) -> Iterator[str]:
    """The values a short option's ``word`` may hold glued to it (``-XDELETE``: ``DELETE``;
    ``-oKey``: ``Key``): where a value starts is the program's to say, so every tail after
    the first letter."""
    if len(word) > 2 and word[0] == "-" and word[1] != "-":
        for start in range(2, len(word)):
            yield word[start:]


def _option(word: str) -> _Option:
    name = word.split("=", 1)[0]  # a value kept on a long option is read by its name
    if word.startswith("--"):
        return _Option(frozenset(), name)
    return _Option(frozenset(name[1:]), "", value_splits(word))


def value_splits(alternative: str) -> tuple[tuple[str, str], ...]:
    """A deny's short option word read as its first letter and a value glued to it, of two
    characters or more (``-XDELETE``: ``X`` and ``DELETE``; ``-rf`` is the letters ``r``
    and ``f`` only): a line may give the value as a word of its own (``-X DELETE``)."""
    if alternative.startswith("--"):
        return ()
    name = alternative.split("=", 1)[0]
    return ((name[1], name[2:]),) if len(name) > 3 else ()


def compile_command_pattern(text: str) -> CommandPattern:
    """Compile a prefix such as ``"git push"``; raise :class:`CommandPatternError` if invalid.

    Words are separated by spaces. Invalid: not a string, no words, longer than
    :data:`MAX_COMMAND_PATTERN_LENGTH`, control characters, shell syntax (quotes,
    backslashes, backquotes, ``; & < > ( )``), ``*`` inside a word (``*`` is a whole word),
    an empty alternative, alternatives on the program, or options mixed with plain words in
    one word's alternatives.
    """
    if not isinstance(text, str):
        raise CommandPatternError(f"invalid command pattern {text!r}: it must be a string")
    if len(text) > MAX_COMMAND_PATTERN_LENGTH:
        raise CommandPatternError(
            f"invalid command pattern: longer than {MAX_COMMAND_PATTERN_LENGTH} characters"
        )
    if has_control_character(text):
        raise CommandPatternError(
            f"invalid command pattern {text!r}: control characters are not allowed"
        )
    words = tuple(word for word in text.split(" ") if word)
    if not words:
        raise CommandPatternError(f"invalid command pattern {text!r}: it has no words")
    if _WILDCARD not in text and "|" not in text and _FORBIDDEN_IN_PATTERN.isdisjoint(text):
        # Plain words, the common pattern: nothing below could refuse them.
        return CommandPattern(text, words, tuple([(w,) for w in words]), program_key(words[0]))
    alternatives: list[tuple[str, ...]] = []
    for index, word in enumerate(words):
        if forbidden := sorted(_FORBIDDEN_IN_PATTERN.intersection(word)):
            raise CommandPatternError(
                f"invalid command pattern {text!r}: {' '.join(forbidden)} not allowed "
                "(write plain words separated by spaces)"
            )
        choice = tuple(word.split("|"))
        if "|" in word:
            if index == 0:
                raise CommandPatternError(
                    f"invalid command pattern {text!r}: the program cannot list alternatives"
                )
            if not all(choice):
                raise CommandPatternError(
                    f"invalid command pattern {text!r}: empty alternative in {word!r}"
                )
            if len({_is_option(alternative) for alternative in choice}) > 1:
                raise CommandPatternError(
                    f"invalid command pattern {text!r}: {word!r} mixes options and words"
                )
        for alternative in choice:
            if _WILDCARD in alternative and word != _WILDCARD:
                raise CommandPatternError(
                    f"invalid command pattern {text!r}: '*' must be a whole word ({word!r})"
                )
        alternatives.append(choice)
    return CommandPattern(text, words, tuple(alternatives), program_key(words[0]))


def compile_occurrence_pattern(text: str) -> CommandPattern:
    """Compile ``text`` as a deny or ask rule reads it: as :func:`compile_command_pattern`,
    then each word broken where a line's runs of words break (``$ { } = , :`` and after a
    variable's name), so that the pattern holds only words a run can hold: ``*
    https://evil.example`` is ``* https //evil.example``, ``rm -rf $HOME`` is ``rm -rf
    HOME``, ``cat $HOME/.netrc`` (and ``cat ${HOME}/.netrc``) is ``cat HOME /.netrc``,
    ``-a=b`` is ``-a b``. A long option keeps its value (``--force=yes`` and Go's
    ``-auto-approve=true`` are read by their names), a single-dash option of three letters
    or more may also be the long option Go's flags read it as (``-auto-approve`` is
    ``-auto-approve|--auto-approve``), and ``--`` after the program is dropped. The text
    stays as written; raise :class:`CommandPatternError` where the alternatives of a word
    would break into different numbers of words (or none), or nothing is left of the
    program."""
    pattern = compile_command_pattern(text)
    words, alternatives = pattern.words, pattern.alternatives
    if _WORD_BREAKS.search(text) is not None:
        words, alternatives = _broken(pattern)
    if " -- " in f"{text} ":
        words, alternatives = _without_end_of_options(words, alternatives)
    if "/" in text or " -" in text:
        alternatives = (alternatives[0], *map(_as_a_deny_reads, alternatives[1:]))
    elif words is pattern.words and alternatives is pattern.alternatives:
        return pattern  # nothing to break, drop or read otherwise
    return CommandPattern(text, words, alternatives, program_key(words[0]))


def _as_a_deny_reads(choice: tuple[str, ...]) -> tuple[str, ...]:
    """A choice after the program as a deny or an ask holds it: a path in the shortest
    spelling a line may give it (``holds``), a single-dash option of three letters or more
    also as Go's long option."""
    if not _is_option(choice[0]):
        return tuple(dict.fromkeys(map(as_path, choice)))
    return tuple(dict.fromkeys(_long_spellings(choice)))


def _broken(pattern: CommandPattern) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The words and choices of ``pattern`` broken where a line's runs of words break."""
    text = pattern.text
    words: list[str] = []
    alternatives: list[tuple[str, ...]] = []
    for word, choice in zip(pattern.words, pattern.alternatives, strict=True):
        pieces = [_pieces(alternative) for alternative in choice]
        if all(piece == [alternative] for piece, alternative in zip(pieces, choice, strict=True)):
            words.append(word)
            alternatives.append(choice)
        elif len(choice) > 1 and (zipped := _zipped(pieces)) is not None:
            # each alternative stays one word (``$HOME|~`` is ``HOME|~``), or all break into
            # as many, read place by place (``$HOME/a|$HOME/b`` is ``HOME /a|/b``: it may
            # hit more than the alternatives, as a deny may)
            words += ["|".join(broken) for broken in zipped]
            alternatives += zipped
        elif len(choice) > 1:
            raise CommandPatternError(
                f"invalid deny or ask pattern {text!r}: the alternatives of {word!r} break into "
                "other words where a line's words break ($ { } = , : and after a variable's "
                "name); write one pattern each"
            )
        else:
            words += pieces[0]
            alternatives += [(piece,) for piece in pieces[0]]
        if not words:
            raise CommandPatternError(
                f"invalid deny or ask pattern {text!r}: its program {word!r} is no word a line "
                "can hold (a line's words break at $ { } = , :)"
            )
    return tuple(words), tuple(alternatives)


def _zipped(pieces: list[list[str]]) -> list[tuple[str, ...]] | None:
    """The alternatives' pieces place by place, if they have as many pieces and none of
    the places mixes options and words."""
    if len({len(piece) for piece in pieces}) != 1 or not pieces[0]:
        return None
    places = [tuple(dict.fromkeys(place)) for place in zip(*pieces, strict=True)]
    if any(len({_is_option(word) for word in place}) > 1 for place in places):
        return None
    return places


def _without_end_of_options(
    words: tuple[str, ...], alternatives: tuple[tuple[str, ...], ...]
) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """``--`` (the end of the options) dropped after the program: a line may well do the
    same without it (``git checkout -- .`` and ``git checkout .``)."""
    kept = [i for i, choice in enumerate(alternatives) if i == 0 or choice != ("--",)]
    return tuple(words[i] for i in kept), tuple(alternatives[i] for i in kept)


def _single_dash_long(word: str) -> bool:
    """A single-dash option of several letters: a cluster, or a Go flag's long name."""
    return len(word) > 3 and word[0] == "-" and word[1] != "-"


def _long_spellings(choice: tuple[str, ...]) -> Iterator[str]:
    for word in choice:
        yield word
        if _single_dash_long(word):
            yield "-" + word


def _pieces(word: str) -> list[str]:
    """``word`` as a line's runs hold it: broken at the word-break characters, but a long
    option with a value (read by its name)."""
    name, _, _ = word.partition("=")
    if (  # a long option's value, or a Go flag's: read by its name (``--=`` names none)
        (len(name) > 2 if word.startswith("--") else _single_dash_long(name))
        and _WORD_BREAKS.search(name) is None
    ):
        return [word]
    from .command_scan import word_pieces  # the scanner stays off a read's warm path

    return list(word_pieces(word))
