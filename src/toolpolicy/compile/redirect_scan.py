"""The files a line writes beyond what a plain reading shows, read conservatively.

A plain line's redirections are read exactly (:mod:`toolpolicy.compile.plain_subset`) and
every file they write is decided; a word of it holding a ``>`` is code a program may run
(``sh -c 'echo x > .git/config'``), scanned here as a line of its own
(``compile.commands``). A line outside the plain subset has no such reading, yet bash
still writes where its literal redirections point: ``echo x > .git/config $X`` (an
unset ``$X`` is nothing), ``echo x > .git/config; : $(true)``, ``echo x > .gi[t' ']/config``
(a glob bash expands to ``.git/config``). An agent that honours only denies runs whatever is
not denied, so the protected set and the workspace boundary must see those files too.

No parser: every ``>`` of the line is taken as a write redirection wherever it stands
(quoted text may run as code: ``sh -c 'echo x > .git/config'``), except where it only moves
a descriptor (``>&2``, ``2>&-``) or starts a process substitution (``>(...)``); ``<>``
opens its file for writing too. The word after it is read as bash reads a word: quotes
removed, backslash escapes and ``$'...'`` decoded, up to an unquoted blank or operator.
A word bash assembles at run time (``$X``, ``$(...)``, a backquote) is not known here and is
left out (no allow covers a line that is not plain; an allow of a program that runs code
covers what the code does, as ``lint``'s ``allow-runs-code`` warns); a word with an unquoted ``*``,
``?`` or ``[`` is a glob too, which the engine expands as bash will.

The price is false hits (``echo "a > b"`` is a write of ``b``), paid only where a write
there is refused.
"""

from __future__ import annotations

from ..core.lean_typing import NamedTuple
from .command_scan import ansi_c

__all__ = ["WrittenTarget", "scan_written"]

_END = frozenset(" \t\n;&|<>()")
_GLOB = frozenset("*?[")
_DOUBLE_ESCAPES = frozenset('$`"\\\n')
_UNQUOTED = str.maketrans("", "", "'\"\\")


class WrittenTarget(NamedTuple):
    """A file a line may write: ``path`` as bash reads the word (``~/`` not yet expanded),
    and ``glob``, the word as a glob pattern, when it has an unquoted glob character."""

    path: str
    glob: str | None


def scan_written(line: str) -> tuple[WrittenTarget, ...]:
    """Every literal target of a write redirection in ``line``, in order, each once."""
    found: dict[WrittenTarget, None] = {}
    start = line.find(">")
    while start >= 0:
        for target in _targets(line, start):
            if target.path:
                found[target] = None
        start = line.find(">", start + 1)
    return tuple(found)


def _targets(line: str, at: int) -> tuple[WrittenTarget, ...]:
    """The word the redirection whose ``>`` stands at ``at`` writes, read as bash reads a
    word and read naively (every quote and backslash dropped, up to a blank or operator as
    written, and up to one left once they are dropped): the ``>`` may stand inside a quoted
    string whose closing quote follows the word (``sh -c 'echo x > .git/config'``) or be
    escaped with the blanks around it (``sh -c echo\\ x\\ \\>\\ .git/config``); and bash's
    reading with its quote characters dropped once more, as bash does for a ``>&`` word
    (``>&"d\\"e"`` writes ``de``)."""
    pos = at + 1
    moves = False
    if line.startswith((">", "|"), pos):  # ">>", ">|"
        pos += 1
    elif line.startswith("&", pos):  # ">&WORD": a descriptor, or a file (both outputs)
        pos += 1
        moves = True
    elif line.startswith("(", pos):
        return ()  # a process substitution, no file
    # Quote characters dropped before the blanks are skipped and the word is cut: an escaped
    # blank or operator was one when a shell ran the quoted text (``sh -c echo\ x\ \>\ f``).
    unquoted = _naive(line[pos:].translate(_UNQUOTED))
    while pos < len(line) and line[pos] in " \t":
        pos += 1
    naive = _naive(line[pos:]).translate(_UNQUOTED)
    word = _Word(line, pos).read()
    again = None if word is None else word.path.translate(_UNQUOTED)
    readings = (word, _reading(again), _reading(naive), _reading(unquoted))
    return tuple(
        found
        for found in dict.fromkeys(readings)
        if found is not None and not (moves and (found.path == "-" or found.path.isdecimal()))
    )


def _naive(text: str) -> str:
    """The first word of ``text`` as written: blanks skipped, up to a blank or operator;
    empty when it expands something (``$``, a backquote)."""
    text = text.lstrip(" \t")
    end = 0
    while end < len(text) and text[end] not in _END:
        end += 1
    word = text[:end]
    return "" if "$" in word or "`" in word else word


def _reading(text: str | None) -> WrittenTarget | None:
    """A word read with every quote character dropped: a glob when it has a glob character."""
    if text is None:
        return None
    return WrittenTarget(text, text if _GLOB & set(text) else None)


class _Word:
    """One shell word from ``pos``: its text and glob pattern, ``None`` when it expands."""

    def __init__(self, line: str, pos: int) -> None:
        self.line = line
        self.pos = pos
        self.text: list[str] = []
        self.pattern: list[str] = []
        self.glob = False

    def read(self) -> WrittenTarget | None:
        line = self.line
        while self.pos < len(line):
            char = line[self.pos]
            if char in _END:
                break
            if char == "'":
                self.quoted(self.until("'"))
            elif char == '"':
                if not self.double():
                    return None
            elif char == "\\":  # an escaped character; before a newline, a continuation
                self.quoted(line[self.pos + 1 : self.pos + 2].replace("\n", ""))
                self.pos += 2
            elif char == "$" and line.startswith("$'", self.pos):
                self.pos += 1
                self.quoted(ansi_c(self.until("'")))
            elif char == "$" and line.startswith('$"', self.pos):
                self.pos += 1
            elif char in "$`":
                return None
            else:
                self.text.append(char)
                self.pattern.append(char)
                self.glob = self.glob or char in _GLOB
                self.pos += 1
        path = "".join(self.text)
        return WrittenTarget(path, "".join(self.pattern) if self.glob else None)

    def until(self, close: str) -> str:
        """The text after the opening quote at ``pos`` up to ``close`` (or the line's end)."""
        end = self.line.find(close, self.pos + 1)
        end = len(self.line) if end < 0 else end
        body = self.line[self.pos + 1 : end]
        self.pos = end + 1
        return body

    def double(self) -> bool:
        """A ``"..."`` string; False when it expands something."""
        line = self.line
        self.pos += 1
        while self.pos < len(line) and line[self.pos] != '"':
            char = line[self.pos]
            if char in "$`":
                return False
            if char == "\\" and line[self.pos + 1 : self.pos + 2] in _DOUBLE_ESCAPES:
                self.pos += 1
                char = line[self.pos : self.pos + 1]
            self.quoted(char if char != "\n" else "")
            self.pos += 1
        self.pos += 1
        return True

    def quoted(self, text: str) -> None:
        """Quoted text: itself, and in the glob pattern each glob character escaped."""
        self.text.append(text)
        self.pattern.append("".join(f"[{c}]" if c in _GLOB else c for c in text))
