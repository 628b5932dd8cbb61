"""The plain subset of bash: the only lines an allow rule can cover.

A recogniser written as a whitelist. A plain line is simple commands of literal words
(bare words, ``'...'``, ``"..."`` without ``$`` or backquote, ``\\x`` escapes), joined by
``;``, ``&&``, ``||``, ``|`` and newlines, with ``#`` comments and redirections whose
target is one literal word (``>``, ``>>``, ``>|``, ``&>``, ``&>>`` write it, ``<`` reads it;
``N>&M``, ``N<&M`` and ``N>&-`` only move descriptors). Unquoted ``*`` and ``?`` and a
leading ``~/`` are allowed in arguments, never in the program, and a glob never first in a
word (``*.py`` may expand to a file named ``-delete``; ``./*.py`` cannot). Bracket globs
(``[a-z]``, ``[^x]``) are refused: their bash and Python readings differ. The first word
may not be a reserved word, an assignment, or a builtin that runs or defines code or changes
the shell's state (:mod:`toolpolicy.compile.program_table`).

Everything else is refused with what was found and where: :class:`NotPlain`. Nothing here
is a best effort — a character or construct not accepted below is a refusal.

Most lines an agent runs are bare words, operators and redirections between blanks
(``git status && ls src | wc -l``, ``make > build.log``): those are read token by token
(``_Recogniser.tokens``) through the same checks, with the same result. Anything else there
— including every line that is refused — is read character by character (``line``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from ..core.lean_typing import NamedTuple
from ..core.vocabulary import Effect
from .command_scan import scan_runs
from .program_table import (
    RESERVED_WORDS,
    builtin_refusal,
    lists_only,
    reads_only,
    reads_working_folder,
)

__all__ = [
    "MAX_PLAIN_LINE_LENGTH",
    "NotPlain",
    "PlainCommand",
    "PlainLine",
    "Redirect",
    "code_runs",
    "recognise_plain",
    "through_links",
]

MAX_PLAIN_LINE_LENGTH = 16 * 1024
WORKING_FOLDER = "."
"""The argument of a command that reads the folder it runs in without naming it."""

_BARE = re.compile(r"[A-Za-z0-9_%+,\-./:=@^\]!]+")
# The common word: bare runs and single-quoted strings (quotes are simply removed).
_SIMPLE_WORD = re.compile(r"(?:[A-Za-z0-9_%+,\-./:=@^\]!]+|'[^'\x00-\x08\x0b-\x1f\x7f]*')+")
_BLANKS = re.compile(r"(?:[ \t]+|\\\n)+")
# A line of bare words, the operators between commands and the file redirections, every
# token between blanks: the lines ``_Recogniser.tokens`` reads.
_TOKENS = re.compile(r"[ \t]*(?:(?:[A-Za-z0-9_%+,\-./:=@^\]!]+|;|&&|\|\||\||>>|>|<)(?:[ \t]+|\Z))+")
_TOKEN = re.compile(r"[^ \t]+")
_TOKEN_REDIRECTS = {">": Effect.WRITE, ">>": Effect.WRITE, "<": Effect.READ}
_TOKEN_OPERATORS = frozenset((";", "&&", "||", "|"))
_WORD_END = frozenset(" \t\n;&|<>")
_DIGITS = frozenset("0123456789")  # str.isdigit() also says yes to "²"
# Characters that can only start a word (not a comment, an operator or a redirection).
_WORD_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_%+,-./:=@^]!'")
_GLOB = frozenset("*?[")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
_DESCRIPTOR = re.compile(r"[0-9]+|-")
_DOLLAR = (
    ("$((", "arithmetic expansion"),
    ("$(", "command substitution"),
    ("${", "parameter expansion"),
    ("$'", "ANSI-C quoting"),
    ('$"', "locale quoting"),
)
_REFUSED_OPERATORS = (
    ("<<<", "here-string"),
    ("<<", "here-document"),
    ("<>", "read-write redirection"),
    ("<(", "process substitution"),
    (">(", "process substitution"),
    ("|&", "'|&'"),
    (";;", "'case' terminator"),
    ("&&", ""),
    ("&", "background job '&'"),
)
_WRITES = (">>", ">|", ">&", ">")


class NotPlain(NamedTuple):
    """Why a line is not plain: what was found, and its 1-based column."""

    what: str
    column: int

    @property
    def reason(self) -> str:
        """``parameter expansion at column 14: allow rules cover only plain commands``."""
        return f"{self.what} at column {self.column}: allow rules cover only plain commands"


class PlainCommand(NamedTuple):
    """One simple command's words after quote removal; ``literal`` counts the leading
    words that bash passes unchanged (the first glob or ``~`` word ends them)."""

    words: tuple[str, ...]
    literal: int


class Redirect(NamedTuple):
    """A redirection to a file: a read or a write of ``target`` (``~/`` not yet expanded)."""

    effect: Effect
    target: str
    column: int


class PlainLine(NamedTuple):
    """A plain line: its commands in order, every file its redirections touch, and the
    words its commands may read as paths (``arguments``: every argument that is not an
    option, every ``--option=value``'s value, every tail of a short option, the paths a
    word carries after ``=``, ``@``, ``,`` or ``:`` or in a ``file:`` URL, and ``.`` for a
    command that reads its working folder unnamed, see
    :func:`~toolpolicy.compile.program_table.reads_working_folder`; ``leaving``: those
    of them that leave the workspace as written — absolute, ``~``, or with a ``..``
    segment; ``listed``: those that only commands which list folders name, see
    :func:`~toolpolicy.compile.program_table.lists_only`; ``maybe_written``: what the
    commands may write through their words — of a command that may write what it names
    (see :func:`~toolpolicy.compile.program_table.reads_only`) each path argument and each
    operand joined below another as a folder (``cp a/settings.json .claude`` writes
    ``.claude/settings.json``); of every command each word of an argument that holds a
    blank, read as a line's words are (``sh -c 'cp x .git/config'``))."""

    commands: tuple[PlainCommand, ...]
    redirects: tuple[Redirect, ...]
    arguments: tuple[str, ...] = ()
    leaving: tuple[str, ...] = ()
    listed: tuple[str, ...] = ()
    maybe_written: tuple[str, ...] = ()


class _Word(NamedTuple):
    text: str
    literal: bool  # no glob character and no tilde: bash passes it unchanged
    column: int


class _Refused(Exception):
    def __init__(self, what: str, position: int) -> None:
        super().__init__(what)
        self.found = NotPlain(what, position + 1)


def recognise_plain(line: str) -> PlainLine | NotPlain:
    """The plain reading of ``line``, or why it is not plain."""
    if len(line) > MAX_PLAIN_LINE_LENGTH:
        return NotPlain(f"a line longer than {MAX_PLAIN_LINE_LENGTH} characters", 1)
    try:
        if _TOKENS.fullmatch(line):
            found = _Recogniser(line).tokens()
            if found is not None:
                return found
        return _Recogniser(line).line()
    except _Refused as refused:
        return refused.found


class _Recogniser:
    __slots__ = ("commands", "open_redirects", "pos", "redirects", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.commands: list[PlainCommand] = []
        self.redirects: list[Redirect] = []
        self.open_redirects = 0  # redirections read since the last command was finished

    def line(self) -> PlainLine:
        text = self.text
        words: list[_Word] = []
        pending: str | None = None  # an operator that still needs a command after it
        end = len(text)
        while True:
            if blanks := _BLANKS.match(text, self.pos):
                self.pos = blanks.end()
            if self.pos >= end:
                break
            char = text[self.pos]
            if char in _WORD_START:
                words.append(self.word())
                pending = None
                continue
            if char == "#":
                newline = text.find("\n", self.pos)
                self.pos = end if newline < 0 else newline
                continue
            if (
                char in "<>"
                or text.startswith("&>", self.pos)
                or (char in _DIGITS and self.descriptor_ahead())
            ):
                self.redirection()
                continue
            if char in "\n;|&":
                operator = self.operator()
                if words or operator != "\n" or self.open_redirects:
                    self.finish(words, operator)
                    words = []
                if operator != "\n" or pending is None:
                    pending = None if operator in ("\n", ";") else operator
                continue
            words.append(self.word())
            pending = None
        if pending is not None:
            raise _Refused(f"'{pending}' without a command after it", len(text) - 1)
        if words or self.open_redirects:
            self.finish(words, "")
        if not self.commands:
            raise _Refused("no command", 0)
        return self.result()

    def tokens(self) -> PlainLine | None:
        """A line ``_TOKENS`` matches, read a token at a time; ``None`` for one that ``line``
        must read (one it refuses, at the place it names): an operator or a redirection
        without what must come before or after it."""
        words: list[str] = []  # the command's words, all literal
        column = 0  # where its program starts
        redirect: tuple[Effect, int] | None = None  # a redirection waiting for its target
        open_redirects = False  # a redirection read since the last command was finished
        operator = ""  # the operator that ended the last command
        for token in _TOKEN.finditer(self.text):
            text = token.group()
            if redirect is not None:
                if text in _TOKEN_OPERATORS or text in _TOKEN_REDIRECTS:
                    return None
                self.redirects.append(Redirect(redirect[0], text, redirect[1] + 1))
                open_redirects = True
                redirect = None
            elif text in _TOKEN_REDIRECTS:
                redirect = (_TOKEN_REDIRECTS[text], token.start())
            elif text in _TOKEN_OPERATORS:
                if not words:
                    return None
                self.command(tuple(words), len(words), column)
                words, operator, open_redirects = [], text, False
            else:
                if not words:
                    column = token.start()
                words.append(text)
        if redirect is not None or (not words and (open_redirects or operator not in ("", ";"))):
            return None
        if words:
            self.command(tuple(words), len(words), column)
        return self.result() if self.commands else None

    def result(self) -> PlainLine:
        """The plain line of the commands and redirections read."""
        arguments = tuple(dict.fromkeys(_paths(self.commands)))
        read = set(_paths(c for c in self.commands if not lists_only(c.words)))
        if any(reads_working_folder(c.words) for c in self.commands):
            read.add(WORKING_FOLDER)
            if WORKING_FOLDER not in arguments:
                arguments = (*arguments, WORKING_FOLDER)
        leaving = tuple(path for path in arguments if _leaves(path))
        listed = tuple(path for path in arguments if path not in read)
        written = _maybe_written(self.commands)
        commands, redirects = tuple(self.commands), tuple(self.redirects)
        return PlainLine(commands, redirects, arguments, leaving, listed, written)

    def skip_blanks(self) -> None:
        if blanks := _BLANKS.match(self.text, self.pos):
            self.pos = blanks.end()

    def operator(self) -> str:
        text, pos = self.text, self.pos
        for operator, what in _REFUSED_OPERATORS:
            if text.startswith(operator, pos):
                if what:
                    raise _Refused(what, pos)
                self.pos += len(operator)
                return operator
        operator = "||" if text.startswith("||", pos) else text[pos]
        self.pos += len(operator)
        return operator

    def finish(self, words: list[_Word], operator: str) -> None:
        if not words:
            where = max(self.pos - len(operator), 0)
            if self.open_redirects:
                raise _Refused("a redirection without a command", where)
            raise _Refused(f"'{operator}' without a command before it", where)
        self.open_redirects = 0
        program = words[0]
        if not program.literal:
            raise _Refused("a glob or '~' in the program name", program.column)
        literal = len(words)
        for index, word in enumerate(words):
            if not word.literal:
                literal = index
                break
        self.command(tuple([word.text for word in words]), literal, program.column)

    def command(self, words: tuple[str, ...], literal: int, column: int) -> None:
        """Keep the simple command ``words`` (its program, a literal word, at ``column``)
        unless its program is one no plain line may start with."""
        program = words[0]
        if program in RESERVED_WORDS:
            raise _Refused(f"reserved word '{program}'", column)
        if _ASSIGNMENT.match(program):
            raise _Refused("an assignment", column)
        if refusal := builtin_refusal(words):
            raise _Refused(refusal, column)
        self.commands.append(PlainCommand(words, literal))

    def descriptor_ahead(self) -> bool:
        """Digits directly followed by ``<`` or ``>``: a descriptor number, not a word."""
        end = self.pos
        while end < len(self.text) and self.text[end] in _DIGITS:
            end += 1
        return end < len(self.text) and self.text[end] in "<>"

    def redirection(self) -> None:
        text, start = self.text, self.pos
        while text[self.pos] in _DIGITS:
            self.pos += 1
        for operator, what in _REFUSED_OPERATORS[:5]:
            if text.startswith(operator, self.pos):
                raise _Refused(what, self.pos)
        if text.startswith("&>", self.pos):
            operator = "&>>" if text.startswith("&>>", self.pos) else "&>"
        elif text[self.pos] == "<":
            operator = "<&" if text.startswith("<&", self.pos) else "<"
        else:
            operator = next(op for op in _WRITES if text.startswith(op, self.pos))
        self.pos += len(operator)
        self.skip_blanks()
        if self.pos >= len(text) or text[self.pos] in " \t\n;&|<>()":
            raise _Refused(f"redirection '{operator}' without a target", start)
        target = self.word()
        if operator in (">&", "<&"):
            self.open_redirects += 1
            if not _DESCRIPTOR.fullmatch(target.text):
                raise _Refused(f"'{operator}' to something other than a descriptor", start)
            return
        if not target.literal and not target.text.startswith("~/"):
            raise _Refused("a glob in a redirection target", target.column)
        if not target.text:
            raise _Refused("an empty redirection target", target.column)
        self.open_redirects += 1
        effect = Effect.READ if operator == "<" else Effect.WRITE
        self.redirects.append(Redirect(effect, target.text, start + 1))

    def word(self) -> _Word:
        text = self.text
        start = self.pos
        simple = _SIMPLE_WORD.match(text, start)
        if simple is not None:
            end = simple.end()
            if end == len(text) or text[end] in _WORD_END:
                self.pos = end
                return _Word(simple.group().replace("'", ""), True, start)
        parts: list[str] = []
        literal = True
        while self.pos < len(text):
            char = text[self.pos]
            if bare := _BARE.match(text, self.pos):
                parts.append(bare.group())
                self.pos = bare.end()
            elif char in " \t\n;&|<>":
                break
            elif char == "'":
                end = text.find("'", self.pos + 1)
                if end < 0:
                    raise _Refused("an unterminated quote", self.pos)
                parts.append(self.checked(text[self.pos + 1 : end], self.pos + 1))
                self.pos = end + 1
            elif char == '"':
                parts.append(self.double_quoted())
            elif char == "\\":
                if self.pos + 1 >= len(text):
                    raise _Refused("a backslash at the end of the line", self.pos)
                following = text[self.pos + 1]
                if following != "\n":
                    parts.append(self.checked(following, self.pos + 1))
                self.pos += 2
            elif char in _GLOB:
                if char == "[" and _bracket_closes(text, self.pos):
                    raise _Refused("a bracket glob", self.pos)
                if char != "[" and not any(parts):
                    # A file named "-delete" or "--output=x" would become an option.
                    raise _Refused("a glob that may expand to an option (write ./*)", self.pos)
                parts.append(char)
                literal = literal and char == "["
                self.pos += 1
            elif char == "~":
                if self.pos == start:
                    following = text[self.pos + 1 : self.pos + 2]
                    if following not in "/ \t\n;&|<>":
                        raise _Refused("tilde expansion", self.pos)
                    literal = False
                elif text[self.pos - 1] in "=:":
                    raise _Refused("tilde expansion", self.pos)
                parts.append(char)
                self.pos += 1
            elif char == "#" and self.pos != start:
                parts.append(char)
                self.pos += 1
            else:
                raise _Refused(_what(text, self.pos), self.pos)
        return _Word("".join(parts), literal, start)

    def double_quoted(self) -> str:
        text = self.text
        opening = self.pos
        self.pos += 1
        parts: list[str] = []
        while True:
            if self.pos >= len(text):
                raise _Refused("an unterminated quote", opening)
            char = text[self.pos]
            if char == '"':
                self.pos += 1
                return "".join(parts)
            if char in "$`":
                raise _Refused(_what(text, self.pos), self.pos)
            if char == "\\" and self.pos + 1 < len(text) and text[self.pos + 1] in '$`"\\\n':
                if text[self.pos + 1] != "\n":
                    parts.append(text[self.pos + 1])
                self.pos += 2
                continue
            parts.append(self.checked(char, self.pos))
            self.pos += 1

    def checked(self, value: str, position: int) -> str:
        """Quoted text: anything printable (a control character is refused)."""
        for offset, char in enumerate(value):
            if (ord(char) < 0x20 and char not in "\t\n") or ord(char) == 0x7F:
                raise _Refused("a control character", position + offset)
        return value


_MAX_JOINED = 16  # operands of one command joined pairwise, at most


def _maybe_written(commands: Iterable[PlainCommand]) -> tuple[str, ...]:
    """What ``commands`` may write, see ``PlainLine.maybe_written``: of a command that does
    not only read, every path argument, the path after a prefix in one (``_dot_tails``),
    every operand (a word that is no option) below every other, as ``cp``, ``mv``, ``ln``
    and ``install`` write into a folder, and the files made of an option's value and an
    operand (``_join_values``); of every command, every word of an argument with a blank in
    it (code a program may run, a reader too: ``rg --pre``)."""
    found: dict[str, None] = {}
    for command in commands:
        if not reads_only(command.words):
            paths = dict.fromkeys(_paths((command,)))
            found.update(paths)
            found.update(dict.fromkeys(tail for path in paths for tail in _dot_tails(path)))
            _join_operands(command.words[1:], found)
            _join_values(command.words[1:], found)
        runs = list(code_runs(command))
        for run in runs:
            found.update(dict.fromkeys(run))
            # the code runs where its command put it: ``env -C .claude sh -c 'cp x s.json'``
            _join_operands([*command.words[1:], *run], found)
        if runs:  # and where it goes itself: ``bash -c 'cd .claude && cp ../x settings.json'``
            words = [w for run in runs for w in run]
            expands = any("$" in w or "`" in w for w in command.words)
            found.update(dict.fromkeys(below_entered(runs, words, expands)))
    found.update(dict.fromkeys(through_links([c.words for c in commands], found)))
    return tuple(found)


def through_links(runs: Iterable[Sequence[str]], paths: Iterable[str]) -> Iterator[str]:
    """A link made earlier in the line (``ln -s .claude c && cp x c/settings.json``): each
    of ``paths`` below a link that a run of ``runs`` makes, below the link's target too."""
    links: list[tuple[str, str]] = []
    for run in runs:
        for index, word in enumerate(run):
            if word.rsplit("/", 1)[-1] == "ln":
                operands = [w for w in run[index + 1 :] if not w.startswith("-")]
                if len(operands) >= 2:
                    links.append((operands[1].rstrip("/"), operands[0].rstrip("/")))
    for name, target in links[:_MAX_JOINED]:
        for path in list(paths):
            if path.startswith(f"{name}/"):
                yield target + path[len(name) :]


_ENTERS = frozenset({"cd", "pushd"})
_ENTERED_FROM = frozenset({"HOME", "OLDPWD", "CDPATH"})


def _entered(run: Sequence[str], index: int) -> list[str]:
    """The folder ``cd`` (``pushd``) at ``index`` of ``run`` enters: its first word that is
    no option (``cd -P .claude``, ``pushd -- .claude``); with none (``cd``, ``cd -``), the
    folder an assignment in the run gives it (``HOME=.claude cd``: the scan reads the name
    and the value as two words)."""
    for word in run[index + 1 :]:
        if not word.startswith("-"):
            return [word]
    return [run[i + 1] for i, word in enumerate(run[:-1]) if word in _ENTERED_FROM]


_MAX_ENTERED = 16


def below_entered(
    runs: Iterable[Sequence[str]], words: Sequence[str], expands: bool
) -> Iterator[str]:
    """In a line that enters a folder (``cd .claude && cp ../x settings.json``, in a
    subshell too), each word also as a path from each folder entered, and from where the
    folders entered one after another lead (``cd sub && cd ../.claude``): what runs after
    the ``cd`` names its files from there. In a line that ``expands`` (a ``$``, a
    backquote), every word may be a folder entered."""
    entered: list[str] = []
    here = ""  # where the folders entered so far lead (``cd sub && cd ../.claude``)
    for run in runs:
        for index, word in enumerate(run):
            if word.lstrip("(") in _ENTERS:
                for folder in _entered(run, index):
                    here = (
                        folder if folder.startswith(("/", "~")) or not here else f"{here}/{folder}"
                    )
                    entered += [folder, here]
    if entered and expands:
        entered += words  # a folder bash makes at run time (``cd $D``) may be any of them
    for folder in dict.fromkeys(entered[: _MAX_ENTERED * 4]):
        for word in words[: _MAX_ENTERED * 4]:
            if word and not word.startswith(("-", "/", "~")) and word != folder:
                yield f"{folder.rstrip('/')}/{word}"


def code_runs(command: PlainCommand) -> Iterator[tuple[str, ...]]:
    """The runs of words (``command_scan.scan_runs``) of each argument of ``command`` that
    is more than a path or an option: code a program may run (``sh -c 'rm -rf .'``,
    ``rg --pre '...'``, ``python3 -c "open('.git/config','w')"``, which has no blank)."""
    for word in command.words[1:]:
        if _PATH_OR_OPTION.fullmatch(word) is None:
            yield from scan_runs(word)


_PATH_OR_OPTION = re.compile(r"[\w./@%+:=~-]*", re.ASCII)
"""A word that reads the same as a run of words: nothing in it but a path's or an option's
characters (a ``,`` may list paths: ``_carried`` reads those)."""


def _operands(words: Sequence[str]) -> list[str]:
    """The operands of ``words`` (each word that is no option nor assignment), each once,
    at most ``_MAX_JOINED`` of them: what the joins below combine."""
    operands = [w for w in words if not w.startswith("-") and "=" not in w]
    return list(dict.fromkeys(operands))[:_MAX_JOINED]


def _join_operands(words: Sequence[str], found: dict[str, None]) -> None:
    """Add to ``found`` each operand of ``words`` (a word that is no option) below each
    other one, as a program that writes into a folder names its file."""
    joined = _operands(words)
    for folder in joined:
        for other in joined:
            name = other.rstrip("/").rpartition("/")[2]
            if other != folder and name not in ("", ".", ".."):
                found[f"{folder.rstrip('/')}/{name}"] = None


def _join_values(words: Sequence[str], found: dict[str, None]) -> None:
    """Add to ``found`` the files a program makes of an option's value (attached, or the word
    after it) and an operand: the value as the folder the operand is in (``env
    --chdir=.claude tee settings.json``, ``make -C.claude``), the operand with the value
    appended (``sed -iit/config … .g`` backs ``.g`` up as ``.git/config``, ``cp -b -S n x
    .claude/settings.jso``) and the value with each ``*`` made the operand's name (``sed
    --in-place='*it/config' … .g``). Only where the value or the operand has a ``.``, ``/``
    or ``*``: a name of the protected set has one."""
    operands = _operands(words)
    values: dict[str, None] = {}
    for index, word in enumerate(words):
        if word.startswith("--"):
            values[word.partition("=")[2]] = None
        elif word.startswith("-"):
            # where a value starts is the program's to say (``-pi*it/config``, ``-bSn``)
            values.update(dict.fromkeys(_attached_values(word)))
        if word.startswith("-") and "=" not in word and index + 1 < len(words):
            values[words[index + 1]] = None  # or the word after it (``-S n``, ``--suffix n``)
    for value in list(values)[: _MAX_JOINED * 2]:
        if not value:
            continue
        for operand in operands:
            if _SHAPED.search(value) is None and _SHAPED.search(operand) is None:
                continue
            name = operand.rstrip("/").rpartition("/")[2]
            found[operand + value] = None
            if "*" in value and name:
                found[value.replace("*", name)] = None
            if not operand.startswith(("/", "~")):
                found[f"{value.rstrip('/')}/{operand}"] = None


_SHAPED = re.compile(r"[./*]")


def _paths(commands: Iterable[PlainCommand]) -> Iterator[str]:
    for command in commands:
        for word in command.words[1:]:
            if word.startswith("--"):
                word = word.partition("=")[2]
            elif word.startswith("-"):
                for value in _attached_values(word):
                    yield from _carried(value)
                continue
            if word:
                yield from _carried(word)


def _dot_tails(word: str) -> Iterator[str]:
    """The paths a word may write after a prefix a program reads as a command: each tail
    that starts at a ``.`` within the word and has a folder in it (``sed -n w.git/config``,
    ``vim +w!.git/config``). A tail at a ``/`` or ``..`` is part of the word's own path
    (``src/.git`` is decided as such). Writes only: as a read, a tail would decide the
    word unlike the same path redirected (``wc < a/secret.txt/x``)."""
    if "/" not in word:
        return
    start = word.find(".", 1)
    while start > 0:
        if word[start - 1] not in "./":
            tail = word[start:]
            if "/" in tail.rstrip("/"):
                yield tail
        start = word.find(".", start + 1)


_CARRIERS = frozenset("=@,<")
# a word without a carrier or a ':' carries nothing but itself
_CARRIES = re.compile("[" + re.escape("".join(sorted(_CARRIERS))) + ":]")
_LIST_ITEM = re.compile(r"[^,:;]+")  # an item of a ',' or ':' list, before a ';' suffix
_URL_GLOB = re.compile(r"\[[^\]]*\]|\{[^}]*\}")  # curl's [a-z] and {a,b} in a URL


def _carried(word: str) -> Iterator[str]:
    """``word`` and the paths it may carry, as programs read them: what follows each
    ``=`` (``if=/etc/shadow``), ``@`` or ``<`` (``@/etc/passwd``, ``f=@secret.txt``, curl's
    ``f=<secret.txt``), ``,`` (``--files0-from=a,/etc/passwd``) and ``:`` (``a:/etc/x``
    lists), each also up to the next ``,``, ``:`` or ``;`` (``@x;type=text/plain``) and
    without the quotes a program strips (``@"x"``); and the path of a ``file:`` URL as a URL
    reader reads it (``file:///etc/passwd``, ``file://host/%65tc/passwd?q#f``; a curl glob
    in it is a shell glob here). Another URL's ``scheme://`` names no local file. Which
    words a program reads this way is the program's to say, so every one is read."""
    if _CARRIES.search(word) is None:  # no carrier, no list, no URL (a file: URL has a ':')
        if word:
            yield word
        return
    starts = [0]
    for index, char in enumerate(word):
        if char in _CARRIERS or (char == ":" and not word.startswith("//", index + 1)):
            starts.append(index + 1)
    for start in starts:
        tail = word[start:]
        for text in (tail, tail.replace('"', "")) if '"' in tail else (tail,):
            if text:
                yield text
                piece = _LIST_ITEM.match(text)
                if piece is not None and piece.end() < len(text):
                    yield piece.group()
    scheme = word.casefold().find("file:")
    if scheme >= 0:
        rest = word[scheme + 5 :]
        yield from _file_url_path(rest)  # a ',' may be in a curl glob {a,b}
        if "," in rest:
            yield from _file_url_path(rest.partition(",")[0])  # or end a list item


def _file_url_path(after: str) -> Iterator[str]:
    """The local path of a ``file:`` URL (what follows ``file:``), as a URL reader opens it:
    the host dropped, ``?query`` and ``#fragment`` cut, percent-escapes decoded, and a curl
    glob (``[s-t]``, ``{a,b}``) made a ``*`` so that every file it may name is read."""
    if after.startswith("//"):
        host, slash, path = after[2:].partition("/")
        after = "/" + path if (host or slash) else after[2:]
    after = after.partition("?")[0].partition("#")[0]
    if "%" in after:
        from urllib.parse import unquote  # only for a file: URL with an escape

        after = unquote(after)
    if "[" in after or "{" in after:
        after = _URL_GLOB.sub("*", after)
    if after:
        yield after


def _attached_values(word: str) -> Iterator[str]:
    """What a short option word may carry as a value: every tail after its first letter
    (``-f/etc/shadow``, ``-xvf/tmp/a.tar``, ``-o=out``), since which letters are options and
    where the value starts is the program's to say."""
    for start in range(2, len(word)):
        tail = word[start:]
        yield tail[1:] if tail.startswith("=") and len(tail) > 1 else tail


def _leaves(path: str) -> bool:
    """Whether ``path``, as written, leaves the workspace: absolute, ``~`` or a ``..`` segment."""
    return path.startswith(("/", "~")) or ".." in path.split("/")


def _what(text: str, position: int) -> str:
    """Name what starts at ``position`` (a character the whitelist did not accept)."""
    if text[position] == "$":
        for prefix, what in _DOLLAR:
            if text.startswith(prefix, position):
                return what
        return "parameter expansion"
    if text[position] == "`":
        return "command substitution"
    if text[position] in "()":
        return "a subshell or grouping '('"
    if text[position] in "{}":
        return "brace expansion or grouping '{'"
    char = text[position]
    if not char.isprintable():
        return "a control character"
    if ord(char) > 0x7F:
        return f"the character {char!r}"
    return f"'{char}'"


def _bracket_closes(text: str, start: int) -> bool:
    """Whether the ``[`` at ``start`` opens a bracket glob: a ``]`` follows in the same
    word. Quoted or escaped characters inside the class still belong to it (``.gi[t' ']``
    matches ``.git``), so the look goes through quotes and escapes to the word's end (an
    unquoted blank or operator); a ``]`` anywhere before it counts, quoted or not, and so
    does a quote left open (the word is refused then anyway)."""
    pos = start + 1
    end = len(text)
    while pos < end:
        char = text[pos]
        if char == "]":
            return True
        if char in " \t\n;&|<>":
            return False
        if char in "'\"":
            close = _closing_quote(text, pos)
            if close < 0 or "]" in text[pos + 1 : close]:
                return True
            pos = close + 1
        elif char == "\\":
            if text[pos + 1 : pos + 2] == "]":
                return True
            pos += 2
        else:
            pos += 1
    return False


def _closing_quote(text: str, opening: int) -> int:
    """The position of the quote that closes the one at ``opening`` (-1: none): the next
    ``'`` for a single quote; for a double quote the next one not escaped by ``\\``."""
    quote = text[opening]
    if quote == "'":
        return text.find("'", opening + 1)
    pos = opening + 1
    while pos < len(text):
        char = text[pos]
        if char == "\\":
            pos += 2
        elif char == '"':
            return pos
        else:
            pos += 1
    return -1
