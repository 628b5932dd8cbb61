"""A bounded parser of POSIX/bash command lines into their simple commands.

This is syntax only: it splits a line on ``&&``, ``||``, ``;``, ``|``, ``&`` and newlines,
descends into ``$(...)``, backticks, ``( ... )``, ``{ ...; }``, ``<(...)``/``>(...)``,
``${...}`` and ``$((...))`` (also inside double quotes), removes quotes from words and drops
redirections. Reserved words that only introduce a compound command (``if``, ``then``,
``do``, ``!``, ``{`` ...) are dropped, ``for``/``select`` headers and ``[[ ... ]]`` tests
execute nothing themselves, and function bodies count as commands.

Anything it cannot split faithfully — unbalanced quotes or parentheses, here-documents,
``case`` statements, ``coproc``, nesting deeper than :data:`MAX_NESTING` — raises
:class:`ShellSyntaxError`; the caller then fails closed. Wrappers (``sudo``, ``bash -c``)
are semantics and live in :mod:`toolpolicy.compile.command_wrappers`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

__all__ = [
    "COMPOUND_RESERVED_WORDS",
    "MAX_NESTING",
    "ShellSyntaxError",
    "SimpleCommand",
    "Word",
    "parse_script",
]

MAX_NESTING = 16

_METACHARACTERS = frozenset(" \t\n|&;()<>")
_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAME_CHARS = _NAME_START | frozenset("0123456789")
_SPECIAL_PARAMETERS = frozenset("0123456789@*#?-$!")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=")
# Unquoted glob characters or a brace expansion: what the word expands to is decided later.
_EXPANDING_PATTERN = re.compile(r"[*?]|\[[^\]]*\]|\{[^{}]*(?:,|\.\.)[^{}]*\}")
_FD_PREFIX = re.compile(r"[0-9]+(?=[<>])")
_BLANKS = re.compile(r"(?:[ \t]|\\\n)*")
_PLAIN_RUN = re.compile(r"[^ \t\n|&;()<>\\'\"`$*?\[{}]+")
_REDIRECTIONS = ("<<<", "&>>", ">>", ">|", ">&", "<&", "<>", "&>", ">", "<")
_ANSI_ESCAPE = re.compile(
    r"\\(?:([abeEfnrtv\\'\"?])|([0-7]{1,3})|x([0-9A-Fa-f]{1,2})"
    r"|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8})|c(.))",
    re.DOTALL,
)
_ANSI_SIMPLE = {
    "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
    "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?",
}  # fmt: skip
# Reserved words that only open or close a compound command: the next word is a command.
COMPOUND_RESERVED_WORDS = frozenset(
    {"!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until"}
)
_HEADER_RESERVED = frozenset({"for", "select"})


class ShellSyntaxError(ValueError):
    """The text cannot be split faithfully; callers must treat the line as unparsable."""


class Word(NamedTuple):
    """One shell word after quote removal.

    Expansions are kept as their source text (``$HOME``, ``$(date)``); ``dynamic`` says the
    word contains one, ``pattern`` that it has unquoted glob or brace-expansion characters,
    ``assignment`` that it is an unquoted ``NAME=value``.
    """

    text: str
    quoted: bool = False
    dynamic: bool = False
    pattern: bool = False
    assignment: bool = False

    @classmethod
    def plain(cls, text: str) -> Word:
        """A word taken verbatim (from a best-effort split), classified by its text only."""
        return cls(text, assignment=_ASSIGNMENT.match(text) is not None)


class SimpleCommand(NamedTuple):
    """A simple command: its words (assignments included, redirections removed), the
    commands found inside its words (substitutions), and the nesting depth it was found at.
    """

    words: tuple[Word, ...]
    nested: tuple[SimpleCommand, ...] = ()
    depth: int = 0


def parse_script(text: str, depth: int = 0) -> tuple[SimpleCommand, ...]:
    """Split ``text`` into simple commands in order of appearance, outer before inner.

    ``depth`` is the nesting level ``text`` was found at (``bash -c`` strings are parsed
    one level deeper than their command). Raises :class:`ShellSyntaxError`.
    """
    return tuple(_Parser(text, depth).parse_list(closing=False))


class _Parser:
    __slots__ = ("depth", "pos", "text")

    def __init__(self, text: str, depth: int) -> None:
        self.text = text
        self.pos = 0
        self.depth = depth
        self._check_depth()

    def _check_depth(self) -> None:
        if self.depth > MAX_NESTING:
            raise ShellSyntaxError(f"nesting deeper than {MAX_NESTING} levels")

    def peek(self, offset: int = 0) -> str:
        index = self.pos + offset
        return self.text[index] if index < len(self.text) else ""

    def skip_blanks(self) -> None:
        if blanks := _BLANKS.match(self.text, self.pos):
            self.pos = blanks.end()

    def skip_comment(self) -> None:
        end = self.text.find("\n", self.pos)
        self.pos = len(self.text) if end < 0 else end

    def nested_list(self) -> list[SimpleCommand]:
        """The commands up to the ``)`` that closes a construct opened just before ``pos``."""
        self.depth += 1
        self._check_depth()
        commands = self.parse_list(closing=True)
        self.depth -= 1
        return commands

    def nested_expansion(
        self, body: Callable[[list[SimpleCommand]], None], nested: list[SimpleCommand]
    ) -> None:
        """Scan ``${...}`` or ``((...))`` one level deeper: they nest through ``$``."""
        self.depth += 1
        self._check_depth()
        body(nested)
        self.depth -= 1

    def parse_list(self, *, closing: bool) -> list[SimpleCommand]:
        commands: list[SimpleCommand] = []
        while True:
            self.skip_blanks()
            char = self.peek()
            if not char:
                if closing:
                    raise ShellSyntaxError("unbalanced '('")
                return commands
            if char == ")":
                if not closing:
                    raise ShellSyntaxError("unbalanced ')'")
                self.pos += 1
                return commands
            if char == "#":
                self.skip_comment()
            elif char in "\n;|" or (char == "&" and self.peek(1) != ">"):
                self.separator()
            else:
                commands.extend(self.parse_command())

    def separator(self) -> None:
        text, pos = self.text, self.pos
        if text.startswith((";;", ";&"), pos):
            raise ShellSyntaxError("case statements are not supported")
        self.pos += 2 if text.startswith(("&&", "||", "|&"), pos) else 1

    def parse_command(self) -> list[SimpleCommand]:
        words: list[Word] = []
        nested: list[SimpleCommand] = []
        bodies: list[SimpleCommand] = []
        executing = True
        compound = False  # a subshell, arithmetic or test ended: only redirections may follow
        while True:
            self.skip_blanks()
            char = self.peek()
            if not char or char in "\n;|)" or (char == "&" and self.peek(1) != ">"):
                break
            if char == "#":
                self.skip_comment()
                continue
            if char == "(":
                if not words and not compound:
                    if self.peek(1) == "(":
                        self.pos += 2
                        self.nested_expansion(self.arithmetic, nested)
                    else:
                        self.pos += 1
                        bodies.extend(self.nested_list())
                    compound = True
                    continue
                if len(words) == 1 and executing and not words[0].quoted:
                    self.function_parentheses()
                    words.clear()
                    continue
                raise ShellSyntaxError("unexpected '('")
            if char in "<>" and self.peek(1) == "(":
                word = self.process_substitution(nested)
            elif char in "<>&":
                self.redirection(nested)
                continue
            elif match := _FD_PREFIX.match(self.text, self.pos):
                self.pos = match.end()
                self.redirection(nested)
                continue
            else:
                word = self.parse_word(nested)
            if compound:
                raise ShellSyntaxError("unexpected word after a compound command")
            if not words and executing and not word.quoted:
                if word.text in COMPOUND_RESERVED_WORDS:
                    continue
                if word.text in _HEADER_RESERVED:
                    executing = False
                    continue
                if word.text == "function":
                    self.function_name(nested)
                    continue
                if word.text in ("case", "coproc"):
                    raise ShellSyntaxError(f"'{word.text}' is not supported")
                if word.text == "[[":
                    self.conditional(nested)
                    compound = True
                    continue
            words.append(word)
        command = SimpleCommand(tuple(words) if executing else (), tuple(nested), self.depth)
        return [*bodies, command]

    def function_parentheses(self) -> None:
        self.pos += 1
        self.skip_blanks()
        if self.peek() != ")":
            raise ShellSyntaxError("unexpected '('")
        self.pos += 1

    def function_name(self, nested: list[SimpleCommand]) -> None:
        self.skip_blanks()
        char = self.peek()
        if not char or char in _METACHARACTERS:
            raise ShellSyntaxError("'function' without a name")
        self.parse_word(nested)
        self.skip_blanks()
        if self.peek() == "(":
            self.function_parentheses()

    def conditional(self, nested: list[SimpleCommand]) -> None:
        """``[[ ... ]]``: operators inside are part of the test, not command separators."""
        while True:
            self.skip_blanks()
            char = self.peek()
            if not char:
                raise ShellSyntaxError("unterminated '[['")
            if char in "\n&|()<>;":
                self.pos += 1
                continue
            word = self.parse_word(nested)
            if word.text == "]]" and not word.quoted:
                return

    def redirection(self, nested: list[SimpleCommand]) -> None:
        text, pos = self.text, self.pos
        if text.startswith("<<", pos) and not text.startswith("<<<", pos):
            raise ShellSyntaxError("here-documents are not supported")
        operator = next(op for op in _REDIRECTIONS if text.startswith(op, pos))
        self.pos += len(operator)
        self.skip_blanks()
        char = self.peek()
        if char in ("<", ">") and self.peek(1) == "(":
            self.process_substitution(nested)
        elif not char or char in _METACHARACTERS:
            raise ShellSyntaxError(f"redirection '{operator}' without a target")
        else:
            self.parse_word(nested)

    def process_substitution(self, nested: list[SimpleCommand]) -> Word:
        start = self.pos
        self.pos += 2
        nested.extend(self.nested_list())
        return Word(self.text[start : self.pos], dynamic=True)

    def parse_word(self, nested: list[SimpleCommand]) -> Word:
        text = self.text
        start = self.pos
        parts: list[str] = []
        unquoted: list[str] = []  # literal unquoted characters, for brace-expansion detection
        quoted = dynamic = False
        while self.pos < len(text):
            char = text[self.pos]
            if char in _METACHARACTERS:
                break
            if run := _PLAIN_RUN.match(text, self.pos):
                parts.append(run.group())
                unquoted.append(run.group())
                self.pos = run.end()
            elif char == "\\":
                following = self.peek(1)
                if not following:
                    raise ShellSyntaxError("backslash at the end of the input")
                if following != "\n":
                    parts.append(following)
                    quoted = True
                self.pos += 2
            elif char == "'":
                end = text.find("'", self.pos + 1)
                if end < 0:
                    raise ShellSyntaxError("unbalanced single quote")
                parts.append(text[self.pos + 1 : end])
                quoted = True
                self.pos = end + 1
            elif char == '"':
                value, expanded = self.double_quoted(nested)
                parts.append(value)
                quoted = True
                dynamic = dynamic or expanded
            elif char == "`":
                parts.append(self.backquoted(nested, in_double_quotes=False))
                dynamic = True
            elif char == "$":
                value, expanded, was_quoted = self.dollar(nested, in_double_quotes=False)
                parts.append(value)
                dynamic = dynamic or expanded
                quoted = quoted or was_quoted
            else:
                parts.append(char)
                unquoted.append(char)
                self.pos += 1
        pattern = _EXPANDING_PATTERN.search("".join(unquoted)) is not None
        assignment = _ASSIGNMENT.match(text, start, self.pos) is not None
        return Word("".join(parts), quoted, dynamic, pattern, assignment)

    def double_quoted(self, nested: list[SimpleCommand]) -> tuple[str, bool]:
        self.pos += 1
        parts: list[str] = []
        dynamic = False
        while True:
            char = self.peek()
            if not char:
                raise ShellSyntaxError("unbalanced double quote")
            if char == '"':
                self.pos += 1
                return "".join(parts), dynamic
            if char == "\\":
                following = self.peek(1)
                if not following:
                    raise ShellSyntaxError("unbalanced double quote")
                if following in '$`"\\':
                    parts.append(following)
                elif following != "\n":
                    parts.append(char + following)
                self.pos += 2
            elif char == "$":
                value, expanded, _ = self.dollar(nested, in_double_quotes=True)
                parts.append(value)
                dynamic = dynamic or expanded
            elif char == "`":
                parts.append(self.backquoted(nested, in_double_quotes=True))
                dynamic = True
            else:
                parts.append(char)
                self.pos += 1

    def backquoted(self, nested: list[SimpleCommand], *, in_double_quotes: bool) -> str:
        """A backquoted substitution: unescape its body and parse it one level deeper."""
        start = self.pos
        self.pos += 1
        escapable = '`$\\"' if in_double_quotes else "`$\\"
        body: list[str] = []
        while True:
            char = self.peek()
            if not char:
                raise ShellSyntaxError("unbalanced backquote")
            if char == "`":
                self.pos += 1
                break
            if char == "\\" and self.peek(1) and self.peek(1) in escapable:
                body.append(self.peek(1))
                self.pos += 2
            else:
                body.append(char)
                self.pos += 1
        nested.extend(parse_script("".join(body), self.depth + 1))
        return self.text[start : self.pos]

    def dollar(
        self, nested: list[SimpleCommand], *, in_double_quotes: bool
    ) -> tuple[str, bool, bool]:
        """``$...`` at ``pos``: returns (word text, is an expansion, was quoting)."""
        start = self.pos
        following = self.peek(1)
        if following == "'" and not in_double_quotes:
            return self.ansi_c_quoted(), False, True
        if following == '"' and not in_double_quotes:
            self.pos += 1
            value, expanded = self.double_quoted(nested)
            return value, expanded, True
        if following == "(":
            if self.peek(2) == "(":
                self.pos += 3
                self.nested_expansion(self.arithmetic, nested)
            else:
                self.pos += 2
                nested.extend(self.nested_list())
        elif following == "{":
            self.pos += 2
            self.nested_expansion(self.braced_parameter, nested)
        elif following in _NAME_START and following:
            self.pos += 2
            while self.peek() and self.peek() in _NAME_CHARS:
                self.pos += 1
        elif following and following in _SPECIAL_PARAMETERS:
            self.pos += 2
        else:
            self.pos += 1
            return "$", False, False
        return self.text[start : self.pos], True, False

    def ansi_c_quoted(self) -> str:
        self.pos += 2
        parts: list[str] = []
        while True:
            char = self.peek()
            if not char:
                raise ShellSyntaxError("unbalanced $'...' quote")
            if char == "'":
                self.pos += 1
                return "".join(parts)
            if char != "\\":
                parts.append(char)
                self.pos += 1
                continue
            escape = _ANSI_ESCAPE.match(self.text, self.pos)
            if escape is None:
                if not self.peek(1):
                    raise ShellSyntaxError("unbalanced $'...' quote")
                parts.append(self.text[self.pos : self.pos + 2])
                self.pos += 2
                continue
            parts.append(_decode_ansi_escape(escape))
            self.pos = escape.end()

    def arithmetic(self, nested: list[SimpleCommand]) -> None:
        """The body of ``((...))`` or ``$((...))``, after the opening parentheses."""
        level = 0
        while True:
            char = self.peek()
            if not char:
                raise ShellSyntaxError("unterminated arithmetic expression")
            if char == "(":
                level += 1
                self.pos += 1
            elif char == ")":
                if level == 0:
                    if self.peek(1) != ")":
                        raise ShellSyntaxError("unbalanced ')' in arithmetic expression")
                    self.pos += 2
                    return
                level -= 1
                self.pos += 1
            else:
                self.expansion_or_skip(char, nested)

    def braced_parameter(self, nested: list[SimpleCommand]) -> None:
        """The body of ``${...}``, after the opening brace."""
        level = 0
        while True:
            char = self.peek()
            if not char:
                raise ShellSyntaxError("unterminated '${'")
            if char == "}":
                self.pos += 1
                if level == 0:
                    return
                level -= 1
            elif char == "{":
                level += 1
                self.pos += 1
            else:
                self.expansion_or_skip(char, nested)

    def expansion_or_skip(self, char: str, nested: list[SimpleCommand]) -> None:
        """Inside ``${...}`` and ``$((...))``: follow quotes and substitutions, skip the rest."""
        if char == "$":
            self.dollar(nested, in_double_quotes=False)
        elif char == "`":
            self.backquoted(nested, in_double_quotes=False)
        elif char == '"':
            self.double_quoted(nested)
        elif char == "'":
            end = self.text.find("'", self.pos + 1)
            if end < 0:
                raise ShellSyntaxError("unbalanced single quote")
            self.pos = end + 1
        elif char == "\\":
            if not self.peek(1):
                raise ShellSyntaxError("backslash at the end of the input")
            self.pos += 2
        else:
            self.pos += 1


def _decode_ansi_escape(escape: re.Match[str]) -> str:
    simple, octal, hex_byte, short, long, control = escape.groups()
    if simple is not None:
        return _ANSI_SIMPLE[simple]
    if control is not None:
        return chr(ord(control) & 0x1F)
    digits, base = next(
        (value, base)
        for value, base in ((octal, 8), (hex_byte, 16), (short, 16), (long, 16))
        if value is not None
    )
    code = int(digits, base)
    if code > 0x10FFFF:
        raise ShellSyntaxError("invalid character escape in $'...'")
    return chr(code)
