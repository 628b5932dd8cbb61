"""Glob patterns compiled once into anchored matchers: the one glob translator of toolpolicy.

Two flavours share one syntax (``*`` inside a segment, ``**`` across segments, ``?``,
``[...]`` with ``!``/``^`` negation and ranges):

* ``gitignore=True`` — rule ``paths``: a pattern without a slash (other than a trailing one)
  matches at any depth; a pattern with a slash, or a leading ``/``, is anchored at the
  workspace root; a trailing ``/`` means a directory; and a pattern that matches a directory
  also covers everything below it, so a deny on a folder covers its content. Two prefixes
  name files outside the workspace, as in Claude Code's own permission rules: ``//`` an
  absolute path (``//etc/shadow``) and ``~/`` the home folder (``~/.ssh/**``); such a pattern
  is anchored at that root and is matched by :meth:`GlobPattern.matches_absolute` only.
* ``gitignore=False`` — what the ``glob`` tool uses: always anchored (``*.py`` is top level
  only), no directory-content rule.

Paths are normalized workspace-relative POSIX paths; a path may end with ``/`` to say it
names a directory. The workspace root itself (``""`` or ``"."``) is never matched. Users never
write regular expressions: the compiled ``re`` pattern is an internal detail, built so that
matching stays linear in the length of the path (no catastrophic backtracking).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.lean_typing import TYPE_CHECKING, NamedTuple
from ..core.memo import remember
from ..core.text_checks import has_control_character, starts_with_drive

if TYPE_CHECKING:
    import re

__all__ = [
    "MAX_GLOB_LENGTH",
    "GlobError",
    "GlobPattern",
    "GlobShape",
    "LazyFullmatch",
    "compile_glob",
    "glob_regex",
    "glob_shape",
    "may_match_below",
]

WORKSPACE = ""
ABSOLUTE = "//"
HOME = "~/"

MAX_GLOB_LENGTH = 1024

_DOUBLE_STAR = "**"
_NOT_ROOT = r"(?!\.?\Z)"
_ANY_SEGMENTS = r"(?:[^/]*/)*"


class GlobError(ValueError):
    """A glob pattern that cannot be compiled; the message says what is wrong."""


class GlobPattern(NamedTuple):
    """A compiled glob; build it with :func:`compile_glob`."""

    text: str
    gitignore: bool
    fullmatch: LazyFullmatch
    root: str = WORKSPACE
    """Where the pattern is anchored: the workspace (``""``), ``"//"`` or ``"~/"``."""

    @property
    def outside(self) -> bool:
        """True for an absolute or home pattern: it names files wherever they are."""
        return self.root != WORKSPACE

    def matches(self, path: str) -> bool:
        """Whether the normalized relative POSIX ``path`` (e.g. ``"src/a/b.py"``) matches.

        An absolute or home pattern never matches a workspace-relative path.
        """
        return self.root == WORKSPACE and self.fullmatch(path) is not None

    def matches_absolute(self, path: str, home: str) -> bool:
        """Whether the absolute normalized POSIX ``path`` matches an absolute or home pattern.

        ``home`` is the home folder (absolute, no trailing slash) a ``~/`` pattern stands for.
        """
        if self.root == ABSOLUTE:
            return path.startswith("/") and self.fullmatch(path[1:]) is not None
        if self.root == HOME and home not in ("", "/"):
            prefix = home + "/"
            return path.startswith(prefix) and self.fullmatch(path[len(prefix) :]) is not None
        return False

    def __repr__(self) -> str:
        shown = f", root={self.root!r}" if self.root else ""
        return f"GlobPattern(text={self.text!r}, gitignore={self.gitignore}{shown})"


class GlobShape(NamedTuple):
    """How a glob reads before its segments are translated: the root it is anchored at, its
    segments (``**`` first when it matches at any depth), and whether it names a folder."""

    root: str
    segments: tuple[str, ...]
    directory: bool


def glob_shape(text: str, *, gitignore: bool) -> GlobShape:
    """Read ``text``'s root, segments and trailing ``/``; raise :class:`GlobError` when the
    pattern is invalid (see :func:`compile_glob`). The one reading of a glob's shape, shared
    by the matcher and by ``diff``'s automata."""
    _check_text(text, gitignore=gitignore)
    body = text
    anchored = not gitignore
    root = WORKSPACE
    if gitignore and text.startswith((ABSOLUTE, HOME)):
        root = text[:2]
        body = text[2:]
        anchored = True
        if body.startswith("/"):
            raise GlobError(f"invalid glob {text!r}: empty path segment ('//')")
    elif body.startswith("/"):
        body = body[1:]
        anchored = True
    directory = body.endswith("/")
    if directory:
        body = body[:-1]
    if not body:
        raise GlobError(f"invalid glob {text!r}: the pattern names no path")
    segments = body.split("/")
    if "" in segments or "." in segments or ".." in segments:  # the first one is reported
        for segment in segments:
            if not segment:
                raise GlobError(f"invalid glob {text!r}: empty path segment ('//')")
            if segment in (".", ".."):
                raise GlobError(f"invalid glob {text!r}: '{segment}' segments are not allowed")
    if len(segments) > 1:
        anchored = True
    if not anchored:
        segments.insert(0, _DOUBLE_STAR)
    return GlobShape(root, tuple(segments), directory)


def compile_glob(text: str, *, gitignore: bool) -> GlobPattern:
    """Compile ``text`` once; raise :class:`GlobError` when the pattern is invalid.

    Invalid: empty, too long, control characters, a backslash, leading or trailing blanks,
    an absolute path outside gitignore mode (a leading ``/``, ``~``), a drive, ``~`` not
    followed by ``/``, empty, ``.`` or ``..`` segments, an unclosed ``[``, a reversed range or
    one that spans ``/``, and in gitignore mode a leading ``!`` (negation is expressed by
    rules, not patterns).
    """
    root = glob_shape(text, gitignore=gitignore).root
    fullmatch = LazyFullmatch(text, gitignore)
    if "[" in text:
        fullmatch.translate()  # a class is validated by translating it
    return GlobPattern(text, gitignore, fullmatch, root)  # by position: a tenth of compile_glob


def glob_regex(text: str, *, gitignore: bool) -> str:
    """The regular expression (for ``re.fullmatch`` with ``re.DOTALL``) of a valid glob."""
    _, segments, directory = glob_shape(text, gitignore=gitignore)
    regex = _NOT_ROOT + _translate_segments(segments, text)
    if directory:
        regex += "/" if not gitignore else "/.*"
    elif gitignore and segments[-1] != _DOUBLE_STAR:
        regex += "(?:/.*)?"
    return regex


def may_match_below(glob: GlobPattern, folder: str | None, absolute: str, home: str) -> bool:
    """Whether ``glob`` may match a path below a folder: ``folder`` workspace-relative and
    normalized (for a workspace pattern; ``None``: the folder is outside the workspace),
    ``absolute`` its absolute path (for an absolute pattern; a home pattern reads it after
    ``home/``). True when the pattern matches the
    folder or one above it (in gitignore mode that covers all below) or reads all of the
    folder's segments with more of it left: conservative, a rest that can match nothing
    still counts."""
    import re

    if glob.root == ABSOLUTE:
        path = absolute[1:]
    elif glob.root == HOME:
        if home in ("", "/") or not absolute.startswith(home + "/"):
            return False
        path = absolute[len(home) + 1 :]
    elif folder is None:
        return False
    else:
        path = folder
    segments = glob_shape(glob.text, gitignore=glob.gitignore).segments
    last = len(segments)
    states = _closure({0}, segments)
    for name in path.split("/") if path else ():
        if glob.gitignore and last in states:
            return True  # the pattern matched a folder above: it covers all below
        reached = set()
        for index in states:
            if index == last:
                continue
            segment = segments[index]
            if segment == _DOUBLE_STAR:
                reached.add(index)
            elif re.fullmatch(_translate_segment(segment, glob.text), name, re.DOTALL):
                reached.add(index + 1)
        states = _closure(reached, segments)
        if not states:
            return False
    return bool(states) and (glob.gitignore or any(i < last for i in states))


def _closure(states: set[int], segments: Sequence[str]) -> set[int]:
    """``states`` and every index a ``**`` there can skip to (it matches no segment too)."""
    out = set(states)
    todo = list(states)
    while todo:
        index = todo.pop()
        if index < len(segments) and segments[index] == _DOUBLE_STAR and index + 1 not in out:
            out.add(index + 1)
            todo.append(index + 1)
    return out


_MAX_COMPILED = 200_000  # matchers kept for later copies of a glob (then forgotten)
_COMPILED: dict[tuple[str, bool], Callable[[str], re.Match[str] | None]] = {}
_TAILS: dict[str, Callable[[str, int], re.Match[str] | None]] = {}
_FOLDER_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_/")
_POSITIONAL = ("(?<", "\\A", "\\b", "\\B", "\\Z")
"""What reads the text before a match's start or anchors at it: a regex holding one is not
matched from a position."""


def regex_matcher(regex: str) -> Callable[[str], re.Match[str] | None]:
    """``re.compile(regex, re.DOTALL).fullmatch`` of a glob's regex (:func:`glob_regex`).

    Where the regex starts with literal folders (``src/app/`` of ``src/app/**/*.py``), the
    rest is compiled once for every glob that shares it and matched from where the folders
    end, in a path that starts with them: many rules of one shape cost one compile. (The
    folders also stand in for ``_NOT_ROOT``: a path that holds them is neither empty nor
    ``.``.)"""
    import functools
    import re  # not at import: a decision that matches no glob needs no ``re``

    body = regex[len(_NOT_ROOT) :] if regex.startswith(_NOT_ROOT) else ""
    run = 0
    while run < len(body) and body[run] in _FOLDER_CHARS:
        run += 1
    cut = body.rfind("/", 0, run) + 1
    rest = body[cut:]
    if not cut or any(mark in rest for mark in _POSITIONAL) or "^" in rest.replace("[^", ""):
        return re.compile(regex, re.DOTALL).fullmatch
    tail = _TAILS.get(rest)
    if tail is None:
        compiled: Callable[[str, int], re.Match[str] | None] = re.compile(rest, re.DOTALL).fullmatch
        tail = remember(_TAILS, rest, compiled, _MAX_COMPILED)
    return functools.partial(_after, body[:cut], tail)


def _after(
    prefix: str, tail: Callable[[str, int], re.Match[str] | None], path: str
) -> re.Match[str] | None:
    return tail(path, len(prefix)) if path.startswith(prefix) else None


class LazyFullmatch(tuple[str, bool]):
    """The compiled ``fullmatch`` of a glob, translated and compiled on its first call.

    A policy of 100,000 rules compiles only the patterns a decision reaches (the rule index
    narrows the rest away); the glob was validated at load. A value: the tuple ``(text,
    gitignore)``, compared, hashed and pickled as such (the compiled-policy cache reads back
    value types only), with the compiled matcher kept beside it once built.
    """

    _fullmatch: Callable[[str], re.Match[str] | None] | None = None

    def __new__(cls, text: str, gitignore: bool) -> LazyFullmatch:
        return tuple.__new__(cls, (text, gitignore))

    @property
    def text(self) -> str:
        """The glob as written."""
        return self[0]

    @property
    def gitignore(self) -> bool:
        """The flavour it was compiled in."""
        return self[1]

    def translate(self) -> Callable[[str], re.Match[str] | None]:
        """The compiled matcher (built now if it was not yet; shared by every copy of the
        same glob in this process: two policies, or one policy loaded twice)."""
        fullmatch = self._fullmatch
        if fullmatch is None:
            fullmatch = _COMPILED.get(self)
            if fullmatch is None:
                fullmatch = regex_matcher(glob_regex(self[0], gitignore=self[1]))
                remember(_COMPILED, (self[0], self[1]), fullmatch, _MAX_COMPILED)
            self._fullmatch = fullmatch
        return fullmatch

    def __call__(self, path: str) -> re.Match[str] | None:
        fullmatch = self._fullmatch
        return (fullmatch if fullmatch is not None else self.translate())(path)

    def __reduce__(self) -> tuple[type[LazyFullmatch], tuple[str, bool]]:
        return (LazyFullmatch, (self[0], self[1]))

    def __repr__(self) -> str:
        return f"LazyFullmatch({self[0]!r}, gitignore={self[1]})"


def _check_text(text: str, *, gitignore: bool) -> None:
    if not isinstance(text, str):
        raise GlobError(f"invalid glob {text!r}: a pattern must be a string")
    if not text:
        raise GlobError("invalid glob '': the pattern is empty")
    if len(text) > MAX_GLOB_LENGTH:
        raise GlobError(f"invalid glob: longer than {MAX_GLOB_LENGTH} characters")
    if has_control_character(text):
        raise GlobError(f"invalid glob {text!r}: control characters are not allowed")
    if "\\" in text:
        raise GlobError(
            f"invalid glob {text!r}: backslashes are not allowed (use '/' between segments)"
        )
    if text != text.strip():
        raise GlobError(f"invalid glob {text!r}: leading or trailing blanks")
    if not gitignore and text.startswith("/"):
        raise GlobError(f"invalid glob {text!r}: absolute paths are not allowed")
    if starts_with_drive(text):
        raise GlobError(f"invalid glob {text!r}: drive paths are not allowed")
    if text.startswith("~") and not (gitignore and text.startswith(HOME)):
        raise GlobError(
            f"invalid glob {text!r}: '~' is only understood as '~/' (the home folder) in rule paths"
        )
    if gitignore and text.startswith("!"):
        raise GlobError(f"invalid glob {text!r}: '!' negation is not supported in a pattern")


def _translate_segments(segments: Sequence[str], text: str) -> str:
    """Join segment regexes; ``**`` becomes zero or more whole segments.

    Every group of segments between two ``**`` is matched at its earliest position and
    committed (atomic group): a later position could only leave less room for the rest, so
    the result is unchanged while backtracking stays linear.
    """
    groups: list[list[str]] = [[]]
    for segment in segments:
        if segment == _DOUBLE_STAR:
            if len(groups) == 1 or groups[-1]:
                groups.append([])
        else:
            groups[-1].append(_translate_segment(segment, text))
    if len(groups) == 1:
        return "/".join(groups[0])
    first, middle, last = groups[0], groups[1:-1], groups[-1]
    regex = "/".join(first) + "/" if first else ""
    for group in middle:
        regex += f"(?>{_ANY_SEGMENTS}?{'/'.join(group)}/)"
    return regex + (_ANY_SEGMENTS + "/".join(last) if last else ".+")


def _translate_segment(segment: str, text: str) -> str:
    """One segment: ``*`` and ``?`` never cross ``/``; runs of ``*`` are one ``*``."""
    import re

    pieces: list[list[str]] = [[]]
    index = 0
    while index < len(segment):
        char = segment[index]
        if char == "*":
            if len(pieces) == 1 or pieces[-1]:
                pieces.append([])
            index += 1
        elif char == "?":
            pieces[-1].append("[^/]")
            index += 1
        elif char == "[":
            token, index = _translate_class(segment, index, text)
            pieces[-1].append(token)
        else:
            pieces[-1].append(re.escape(char))
            index += 1
    if len(pieces) == 1:
        return "".join(pieces[0])
    # Same earliest-match argument as for "**": fixed-width pieces between stars.
    middle = "".join(f"(?>[^/]*?{''.join(piece)})" for piece in pieces[1:-1])
    return "".join(pieces[0]) + middle + "[^/]*" + "".join(pieces[-1])


def _translate_class(segment: str, start: int, text: str) -> tuple[str, int]:
    """``[...]`` at ``segment[start]``; returns the regex class and the index after it."""
    import re

    index = start + 1
    negate = index < len(segment) and segment[index] in "!^"
    if negate:
        index += 1
    items: list[str] = []
    first = True
    while True:
        if index >= len(segment):
            raise GlobError(f"invalid glob {text!r}: unclosed '[' (a class cannot contain '/')")
        char = segment[index]
        if char == "]" and not first:
            break
        first = False
        if index + 2 < len(segment) and segment[index + 1] == "-" and segment[index + 2] != "]":
            low, high = char, segment[index + 2]
            if low > high:
                raise GlobError(f"invalid glob {text!r}: reversed range '{low}-{high}'")
            if low <= "/" <= high:
                raise GlobError(f"invalid glob {text!r}: range '{low}-{high}' includes '/'")
            items.append(f"{re.escape(low)}-{re.escape(high)}")
            index += 3
        else:
            items.append(re.escape(char))
            index += 1
    body = "".join(items)
    return ("[^/" + body + "]" if negate else "[" + body + "]"), index + 1
