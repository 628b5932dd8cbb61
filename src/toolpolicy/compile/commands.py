"""A command line as the rules see it: its plain reading, if any, and its conservative one.

Two readings, kept apart because they answer opposite questions:

- *What is proven to run* — :mod:`toolpolicy.compile.plain_subset`, a whitelist of literal
  commands. Only this reading can satisfy an allow; a line outside the plain subset has no
  plain reading, and :attr:`CommandLine.not_plain` says why.
- *Where a denied command could be* — :mod:`toolpolicy.compile.command_scan`, runs of words
  with every quote and expansion character taken away. Deny and ask rules look here, so
  wrappers, quoted code and odd spellings cannot hide a program from them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import MappingProxyType

from ..core.lean_typing import TYPE_CHECKING, NamedTuple
from .brace_words import brace_words
from .command_patterns import (
    MAX_COMMAND_PATTERN_LENGTH,
    CommandPattern,
    CommandPatternError,
    compile_command_pattern,
    compile_occurrence_pattern,
    held_words,
    program_key,
)
from .command_scan import scan_runs
from .plain_subset import (
    MAX_PLAIN_LINE_LENGTH,
    NotPlain,
    PlainLine,
    below_entered,
    code_runs,
    recognise_plain,
    through_links,
)
from .program_table import CONFIGURING, WRITES_BELOW, config_written, writes_below
from .redirect_scan import WrittenTarget, scan_written

if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")

__all__ = [
    "MAX_COMMAND_LINE_LENGTH",
    "MAX_COMMAND_PATTERN_LENGTH",
    "CommandLine",
    "CommandPattern",
    "CommandPatternError",
    "WrittenTarget",
    "beyond_plain",
    "compile_command_pattern",
    "compile_occurrence_pattern",
    "split_command_line",
]

MAX_COMMAND_LINE_LENGTH = MAX_PLAIN_LINE_LENGTH


class CommandLine(NamedTuple):
    """Both readings of one line.

    ``plain`` is the proven reading (``None`` when the line is not plain, and then
    ``not_plain`` says what was found where); ``runs`` are the conservative runs of words;
    ``positions`` maps every word's program name to where it stands (run, word).
    ``index_programs`` and ``index_words`` are what the rule index looks command rules up by
    (:meth:`~toolpolicy.compile.index.ToolBucket.candidates`): every word's program name and
    every plain command's, every word of the runs and of the plain commands. ``written``:
    the files the line's literal redirections may write beyond a plain reading's own
    (:mod:`toolpolicy.compile.redirect_scan`): every ``>`` of a line that is not plain, and
    of a plain line those inside its words, which a program may run as shell code. The
    boundary decides them all the same. ``maybe_written``: when the line is not plain, every
    word of its runs and every word its brace expansions make
    (:mod:`toolpolicy.compile.brace_words`), as what a program may write through its
    arguments (a plain line has ``PlainLine.maybe_written``); the protected set and the
    write rules decide them. ``too_many_words``: its brace expansions make more words than
    are checked, so a protected name could hide among them (the engine refuses it).
    ``written_below``: the folders a program of the line may write anything below, each
    with whether even as the folder the line runs in
    (:func:`~toolpolicy.compile.program_table.writes_below`), for every run and every word
    in it that names such a program (``sudo rm -rf .``, ``sh -c 'rm -rf .'``); the protected
    set decides what lies below them.
    """

    plain: PlainLine | None
    not_plain: NotPlain | None
    runs: tuple[tuple[str, ...], ...]
    positions: Mapping[str, tuple[tuple[int, int], ...]]
    index_programs: frozenset[str] = frozenset()
    index_words: frozenset[str] = frozenset()
    written: tuple[WrittenTarget, ...] = ()
    maybe_written: tuple[str, ...] = ()
    too_many_words: bool = False
    written_below: tuple[tuple[str, bool], ...] = ()

    @property
    def programs(self) -> frozenset[str]:
        """Every word's program name."""
        return frozenset(self.positions)

    @property
    def complete(self) -> bool:
        """True when the line is plain: what runs is known exactly."""
        return self.plain is not None

    @property
    def parts(self) -> tuple[tuple[str, ...], ...]:
        """The plain commands' words, or the conservative runs when the line is not plain."""
        if self.plain is None:
            return self.runs
        return tuple(command.words for command in self.plain.commands)


def split_command_line(line: str) -> CommandLine:
    """Read ``line`` both ways (cached, LRU of 1024 lines)."""
    if not isinstance(line, str):
        return CommandLine(None, NotPlain("a command that is not text", 1), (), _NOWHERE)
    return _read_cached(line)


_NOWHERE: Mapping[str, tuple[tuple[int, int], ...]] = MappingProxyType({})


@functools.lru_cache(maxsize=1024)
def _read_cached(line: str) -> CommandLine:
    found = recognise_plain(line)
    runs = scan_runs(line)
    positions: dict[str, list[tuple[int, int]]] = {}
    words: set[str] = set()
    for run_index, run in enumerate(runs):
        words.update(held for word in run for held in held_words(word))  # a deny's words
        for word_index, word in enumerate(run):
            key = program_key(word)
            places = positions.get(key)
            if places is None:
                positions[key] = [(run_index, word_index)]
            else:
                places.append((run_index, word_index))
    where = MappingProxyType({key: tuple(places) for key, places in positions.items()})
    programs = set(positions)
    if isinstance(found, NotPlain):
        return CommandLine(
            None,
            found,
            runs,
            where,
            frozenset(programs),
            frozenset(words),
            *beyond_plain(line, found, runs),
        )
    for command in found.commands:
        programs.add(program_key(command.words[0]))
        words.update(command.words)
    return CommandLine(
        found,
        None,
        runs,
        where,
        frozenset(programs),
        frozenset(words),
        *beyond_plain(line, found, runs),
    )


def beyond_plain(
    line: str, found: PlainLine | NotPlain, runs: tuple[tuple[str, ...], ...]
) -> tuple[tuple[WrittenTarget, ...], tuple[str, ...], bool, tuple[tuple[str, bool], ...]]:
    """What ``line`` may write beyond its plain reading ``found``: ``CommandLine.written``,
    ``maybe_written``, ``too_many_words`` and ``written_below`` (see :class:`CommandLine`)."""
    if isinstance(found, PlainLine):
        below = _written_below(_words_and_code(found))
        written = (_code_writes(found) if ">" in line else ()) + _configured(_words_and_code(found))
        return written, (), False, below
    below = _written_below(runs)
    written = (scan_written(line) if ">" in line else ()) + _configured(runs)
    braced, complete = brace_words(line) if "{" in line else ((), True)
    words = [*(word for run in runs for word in run), *braced]
    entered = [*words, *below_entered(runs, words, "$" in line or "`" in line)]
    named = tuple(dict.fromkeys([*entered, *through_links(runs, entered)]))
    return written, named, not complete, below


def _words_and_code(line: PlainLine) -> Iterator[tuple[str, ...]]:
    """The words of each command of a plain line, and the runs of the code in its words
    (``plain_subset.code_runs``)."""
    for command in line.commands:
        yield command.words
        yield from code_runs(command)


def _written_below(runs: Iterable[tuple[str, ...]]) -> tuple[tuple[str, bool], ...]:
    """``CommandLine.written_below``: each word of a run that names a program writing below
    its folders starts a command there, whatever stands before it."""
    return tuple(dict.fromkeys(_wherever(runs, WRITES_BELOW, writes_below)))


def _configured(runs: Iterable[tuple[str, ...]]) -> tuple[WrittenTarget, ...]:
    """The configuration files outside the workspace a run of words writes wherever a
    program's name stands in it (``program_table.config_written``), as written targets."""
    found = _wherever(runs, CONFIGURING, config_written)
    return tuple(dict.fromkeys(WrittenTarget(path, None) for path in found))


def _wherever(
    runs: Iterable[tuple[str, ...]],
    programs: frozenset[str],
    read: Callable[[tuple[str, ...]], tuple[T, ...]],
) -> Iterator[T]:
    """What ``read`` finds in the command that starts at each word of a run naming one of
    ``programs`` (``sudo rm -rf .``, ``sh -c 'git config --global …'``)."""
    for run in runs:
        for index, word in enumerate(run):
            if word.rsplit("/", 1)[-1] in programs:
                yield from read(run[index:])


def _code_writes(line: PlainLine) -> tuple[WrittenTarget, ...]:
    """The files the words of a plain line write if a program runs them as shell code.

    An unquoted ``>`` of a plain line is an operator, read exactly; a word holding one had it
    quoted or escaped, and a program may run the word (``sh -c 'echo x > .git/config'``,
    ``python -c "os.system('... > f')"``): it is scanned as a line of its own, so no quoting
    of the outer line can hide a target from the boundary."""
    found: dict[WrittenTarget, None] = {}
    for command in line.commands:
        for word in command.words:
            if ">" in word:
                found.update(dict.fromkeys(scan_written(word)))
    return tuple(found)
