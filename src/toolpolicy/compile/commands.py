"""Command patterns, and the split of a command line into the simple commands it runs.

A pattern is a command prefix written as words (``git push``, ``rm -rf``, ``npm run *``);
``*`` matches exactly one word. A command line is split into its simple commands
(:mod:`toolpolicy.compile.shell_syntax`); each wrapper (``sudo``, ``env``, ``timeout`` ...,
see :mod:`toolpolicy.compile.command_wrappers`) adds its inner command as a further part,
``bash -c``/``sh -c``/``zsh -c``/``dash -c`` strings and ``eval`` arguments are split too,
``find -exec COMMAND ;`` adds COMMAND, and a program given by absolute path (``/bin/rm``)
also appears under its basename.

The engine combines the parts: an allow needs every part to match an allow pattern; a deny
or ask hits if any part matches. ``complete=False`` means the split is a best effort and must
never satisfy an allow: the line could not be parsed (unbalanced quotes or parentheses,
here-documents, ``case``, nesting or length over the limits, NUL), or what runs is decided
at run time (a program name from an expansion or glob, a shell reading its commands from
stdin or from a substitution such as ``bash <(curl ...)`` or ``source <(...)``, an unknown
wrapper option, a dynamic ``-c``/``eval`` string), or nothing runs at all.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from .command_wrappers import SHELLS, unwrap
from .shell_syntax import (
    COMPOUND_RESERVED_WORDS,
    MAX_NESTING,
    ShellSyntaxError,
    SimpleCommand,
    Word,
    parse_script,
)

__all__ = [
    "MAX_COMMAND_LINE_LENGTH",
    "MAX_COMMAND_PATTERN_LENGTH",
    "CommandLine",
    "CommandPattern",
    "CommandPatternError",
    "compile_command_pattern",
    "split_command_line",
]

MAX_COMMAND_LINE_LENGTH = 16 * 1024
MAX_COMMAND_PATTERN_LENGTH = 1024

_WILDCARD = "*"
_MAX_EMITTED_LEVELS = 16
_FORBIDDEN_IN_PATTERN = frozenset("'\"\\`;&|<>()")
_BEST_EFFORT_SEPARATORS = re.compile(r"[;&|(){}<>`\n\r\x00]+")
_QUOTING = re.compile(r"['\"\\]")
_SOURCE = frozenset({"source", "."})
_STDIN_FILES = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "-"})
# Programs with an argument that is shell code: ``trap 'CODE' SIGNAL`` and ``su -c 'CODE'``.
_CODE_ARGUMENT = frozenset({"trap", "su", "runuser"})
# Builtins that evaluate an array subscript (arithmetic) inside a plain-looking argument.
_SUBSCRIPT_EVALUATORS = frozenset(
    {"let", "printf", "test", "[", "[[", "declare", "typeset", "local", "export", "readonly",
     "unset", "read", "mapfile", "readarray", "wait", "shift", "return", "exit"}
)  # fmt: skip
_FIND_ACTIONS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


class CommandLine(NamedTuple):
    """The simple commands of a line as word tuples, in order of appearance (outer first).

    ``complete=False``: unparsable, over the limits or decided at run time; ``parts`` are
    then a best effort that a deny can still hit but that never satisfies an allow.
    """

    parts: tuple[tuple[str, ...], ...]
    complete: bool


class CommandPatternError(ValueError):
    """A command pattern that cannot be compiled; the message says what is wrong."""


class CommandPattern(NamedTuple):
    """A command prefix as words; build it with :func:`compile_command_pattern`."""

    text: str
    words: tuple[str, ...]

    def matches(self, words: tuple[str, ...]) -> bool:
        """Whether ``words`` start with this pattern's words (``*`` matches any one word)."""
        expected = self.words
        if len(words) < len(expected):
            return False
        if _WILDCARD not in expected:  # one tuple comparison
            return words[: len(expected)] == expected
        for pattern_word, word in zip(expected, words, strict=False):
            if pattern_word != word and pattern_word != _WILDCARD:
                return False
        return True

    def occurs_in(self, words: tuple[str, ...]) -> bool:
        """Whether the program is this pattern's and its other words follow in order, with
        anything (options, their values) between them: how a deny or an ask reads a prefix,
        so that ``git -C . push`` or ``git --no-pager push`` still hits ``git push``."""
        expected = self.words
        if not words or (expected[0] != _WILDCARD and expected[0] != words[0]):
            return False
        position = 1
        for pattern_word in expected[1:]:
            while position < len(words) and pattern_word not in (_WILDCARD, words[position]):
                position += 1
            if position >= len(words):
                return False
            position += 1
        return True


def compile_command_pattern(text: str) -> CommandPattern:
    """Compile a prefix such as ``"git push"``; raise :class:`CommandPatternError` if invalid.

    Words are separated by spaces. Invalid: not a string, no words, longer than
    :data:`MAX_COMMAND_PATTERN_LENGTH`, control characters, shell syntax (quotes,
    backslashes, backquotes, ``; & | < > ( )``), or ``*`` inside a word (``*`` is a whole word).
    """
    if not isinstance(text, str):
        raise CommandPatternError(f"invalid command pattern {text!r}: it must be a string")
    if len(text) > MAX_COMMAND_PATTERN_LENGTH:
        raise CommandPatternError(
            f"invalid command pattern: longer than {MAX_COMMAND_PATTERN_LENGTH} characters"
        )
    if any(ord(char) < 0x20 or 0x7F <= ord(char) <= 0x9F for char in text):
        raise CommandPatternError(
            f"invalid command pattern {text!r}: control characters are not allowed"
        )
    words = tuple(word for word in text.split(" ") if word)
    if not words:
        raise CommandPatternError(f"invalid command pattern {text!r}: it has no words")
    for word in words:
        if forbidden := sorted(_FORBIDDEN_IN_PATTERN.intersection(word)):
            raise CommandPatternError(
                f"invalid command pattern {text!r}: {' '.join(forbidden)} not allowed "
                "(write plain words separated by spaces)"
            )
        if _WILDCARD in word and word != _WILDCARD:
            raise CommandPatternError(
                f"invalid command pattern {text!r}: '*' must be a whole word ({word!r})"
            )
    return CommandPattern(text=text, words=words)


def split_command_line(line: str) -> CommandLine:
    """Split ``line`` into the simple commands it would run (see the module docstring).

    Results are cached (LRU, 1024 lines); lines over :data:`MAX_COMMAND_LINE_LENGTH`
    are split best effort, flagged incomplete and not cached.
    """
    if not isinstance(line, str):
        return CommandLine((), False)
    if len(line) > MAX_COMMAND_LINE_LENGTH:
        return _split(line)
    return _split_cached(line)


def _split(line: str) -> CommandLine:
    collector = _Collector()
    if len(line) > MAX_COMMAND_LINE_LENGTH or "\x00" in line:
        collector.best_effort(line)
    else:
        collector.script(line, 0)
    return CommandLine(tuple(collector.parts), collector.complete and bool(collector.parts))


_split_cached = functools.lru_cache(maxsize=1024)(_split)


class _Collector:
    """Accumulates parts (first occurrence of each) and whether the split is complete."""

    __slots__ = ("_seen", "complete", "parts")

    def __init__(self) -> None:
        self.parts: list[tuple[str, ...]] = []
        self._seen: set[tuple[str, ...]] = set()
        self.complete = True

    def script(self, text: str, depth: int) -> None:
        try:
            commands = parse_script(text, depth)
        except (ShellSyntaxError, RecursionError):
            # RecursionError cannot happen within MAX_NESTING; if it ever did, fail closed.
            self.best_effort(text)
            return
        for command in commands:
            self.command(command)

    def command(self, command: SimpleCommand) -> None:
        words = command.words
        start = _skip_assignments(words, 0)
        if start < len(words):
            self.chain(words, start, command.depth, best_effort=False)
        for inner in command.nested:
            self.command(inner)

    def chain(self, words: tuple[Word, ...], start: int, depth: int, *, best_effort: bool) -> None:
        """Emit a command and, through each wrapper, the command it runs."""
        level = 0
        emitted = False
        while True:
            program = words[start]
            if program.dynamic or program.pattern:
                self.complete = False
                expanded = _brace_list(program.text)
                if expanded and level == 0:
                    # {rm,-rf,x} runs "rm -rf x": a deny must see that command too.
                    self.chain((*expanded, *words[start + 1 :]), 0, depth, best_effort=True)
            emitted = level < _MAX_EMITTED_LEVELS
            if emitted:
                self.emit(words, start)
            else:
                self.complete = False
            name = program.text.rsplit("/", 1)[-1]
            if name in _SOURCE and (
                start + 1 >= len(words)
                or words[start + 1].dynamic
                or words[start + 1].text in _STDIN_FILES
            ):
                self.complete = False  # sourcing stdin or a substitution runs unknown code
            if name in _CODE_ARGUMENT:
                self.code_argument(words, start, name, depth, best_effort=best_effort)
            if name in _SUBSCRIPT_EVALUATORS and not best_effort and depth < MAX_NESTING:
                # let 'a[$(cmd)]=1', printf -v 'a[$(cmd)]', test -v 'a[$(cmd)]': bash
                # evaluates the subscript, so the quoted text is code after all.
                for word in words[start + 1 :]:
                    if "$(" in word.text or "`" in word.text:
                        self.script(word.text, depth + 1)
            if name == "find":
                self.find_actions(words, start, depth, best_effort=best_effort)
            if name in SHELLS or name == "eval":
                inner = self.interpreted(words, start, depth, best_effort=best_effort)
                if inner is None:
                    break
                start = inner
            else:
                unwrapped = unwrap(words, start)
                if unwrapped is None:
                    break
                self.complete = self.complete and unwrapped.certain
                if unwrapped.start is None:
                    break
                words, start = unwrapped.words, unwrapped.start
            level += 1
        if not emitted:
            self.emit(words, start)

    def interpreted(
        self, words: tuple[Word, ...], start: int, depth: int, *, best_effort: bool
    ) -> int | None:
        """A shell or ``eval``: split the code it runs.

        In a best-effort split the code is already flat words, so its start is returned for
        the caller to continue the chain; otherwise the string is parsed one level deeper.
        """
        if words[start].text.rsplit("/", 1)[-1] == "eval":
            index = start + 1
            if index >= len(words):
                return None
            if best_effort:
                return index
            arguments = words[index:]
            if any(argument.dynamic for argument in arguments):
                self.complete = False
            self.script(" ".join(argument.text for argument in arguments), depth + 1)
            return None
        index, command_string, from_stdin = _shell_options(words, start + 1)
        if not command_string:
            if from_stdin or index >= len(words) or words[index].dynamic:
                self.complete = False  # the code arrives on stdin or from a substitution
            return None
        if index >= len(words):
            self.complete = False
            return None
        if best_effort:
            return index
        script = words[index]
        if script.dynamic:
            self.complete = False
        self.script(script.text, depth + 1)
        return None

    def code_argument(
        self, words: tuple[Word, ...], start: int, name: str, depth: int, *, best_effort: bool
    ) -> None:
        """Split the shell code that ``trap`` or ``su -c`` / ``runuser -c`` will run."""
        index: int | None = None
        if name == "trap":
            index = start + 1
            if index < len(words) and words[index].text == "--":
                index += 1
        else:
            for position in range(start + 1, len(words) - 1):
                if words[position].text in ("-c", "--command"):
                    index = position + 1
                    break
        if index is None or index >= len(words):
            return
        code = words[index]
        if code.dynamic:
            self.complete = False
        if depth >= MAX_NESTING:
            self.complete = False
            return
        if best_effort:
            self.emit(words, index)
            return
        self.script(code.text, depth + 1)

    def find_actions(
        self, words: tuple[Word, ...], start: int, depth: int, *, best_effort: bool
    ) -> None:
        """``find -exec/-execdir/-ok/-okdir COMMAND ... ;`` runs COMMAND: emit it as a part."""
        if depth >= MAX_NESTING:
            self.complete = False
            return
        index = start + 1
        while index < len(words):
            if words[index].text not in _FIND_ACTIONS:
                index += 1
                continue
            end = index + 1
            while end < len(words) and words[end].text not in (";", "+"):
                end += 1
            if end > index + 1:
                self.chain(words[index + 1 : end], 0, depth + 1, best_effort=best_effort)
            index = end + 1

    def emit(self, words: tuple[Word, ...], start: int) -> None:
        texts = tuple(word.text for word in words[start:])
        self._add(texts)
        program = texts[0]
        if program.startswith(("/", "~")):
            basename = program.rsplit("/", 1)[-1]
            if basename:
                self._add((basename, *texts[1:]))

    def _add(self, texts: tuple[str, ...]) -> None:
        if texts not in self._seen:
            self._seen.add(texts)
            self.parts.append(texts)

    def best_effort(self, text: str) -> None:
        """Split on every operator; quote characters are both removed and separators."""
        self.complete = False
        variants = dict.fromkeys((_QUOTING.sub("", text), _QUOTING.sub(" ", text)))
        for variant in variants:
            for segment in _BEST_EFFORT_SEPARATORS.split(variant):
                words = tuple(Word.plain(word) for word in segment.split())
                start = 0
                while start < len(words) and (
                    words[start].text in COMPOUND_RESERVED_WORDS or words[start].assignment
                ):
                    start += 1
                if start < len(words):
                    self.chain(words, start, 0, best_effort=True)


def _brace_list(text: str) -> tuple[Word, ...]:
    """The words of a plain ``{a,b,c}`` brace list (bash turns it into those words)."""
    if len(text) < 4 or text[0] != "{" or text[-1] != "}" or "," not in text:
        return ()
    inner = text[1:-1]
    if any(c in inner for c in "{}$`\\ "):
        return ()
    return tuple(Word.plain(piece) for piece in inner.split(","))


def _skip_assignments(words: tuple[Word, ...], start: int) -> int:
    while start < len(words) and words[start].assignment:
        start += 1
    return start


def _shell_options(words: tuple[Word, ...], index: int) -> tuple[int, bool, bool]:
    """Read a shell's options: (index of the first operand, has ``-c``, reads stdin ``-s``)."""
    command_string = from_stdin = False
    while index < len(words):
        text = words[index].text
        if text in ("-", "--"):
            index += 1
            break
        if text.startswith("--"):
            index += 2 if text in ("--rcfile", "--init-file") else 1
            continue
        if len(text) < 2 or text[0] not in "-+":
            break
        letters = text[1:]
        if text[0] == "-":
            command_string = command_string or "c" in letters
            from_stdin = from_stdin or "s" in letters
        index += 2 if "o" in letters or "O" in letters else 1
    return index, command_string, from_stdin
