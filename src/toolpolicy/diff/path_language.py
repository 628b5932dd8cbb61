"""Paths as a regular language: character classes, the valid normalized paths, and globs.

:class:`PathAlphabet` cuts the characters into classes so that every character of one class
is treated alike by every glob, by every landmark path and by the path rules of the file
tools; each class has one readable representative. :class:`PathDomain` accepts exactly the
normalized workspace-relative paths the engine can match rules against (``""`` for the
root, shown as ``.``): non-empty segments joined by single ``/``, no ``.`` or ``..``
segment, no character the workspace refuses, no reserved device name (``CON``, ``nul.txt``,
``COM1 `` ...), not blanks alone. Path length limits are not modelled.

:func:`add_glob` translates a rule glob exactly as :func:`toolpolicy.compile.globs.
compile_glob` does in gitignore mode: ``*`` and ``?`` within a segment, ``[...]`` with
``!``/``^`` negation and ranges, ``**`` as zero or more whole segments (a trailing ``**``
as one or more characters of any kind), a pattern without an inner slash at any depth, a
leading ``/`` anchoring, a trailing ``/`` for what is below a directory, and a match on a
directory covering everything below it.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Hashable, Iterable

from ..compile.globs import glob_shape
from .automaton import Nfa, SymbolSet

__all__ = [
    "SEGMENT_START",
    "PathAlphabet",
    "PathDomain",
    "add_exact",
    "add_glob",
    "add_prefix",
    "add_protected",
    "folded_spellings",
    "path_alphabet",
]

_MAX_CODE_POINT = 0x110000
_PREFERRED = "abcdefghijklmnopqrstuvwxyz0123456789_-ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ILLEGAL_RANGES = ((0x00, 0x1F), (0x7F, 0x9F), (0xD800, 0xDFFF))
# What split_relative refuses, plus the backslash, which it reads as a separator.
_ILLEGAL_CHARS = '<>:"|?*\\'
_RESERVED = frozenset(
    {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"}
    | {f"{stem}{n}" for stem in ("COM", "LPT") for n in (*"0123456789", "¹", "²", "³")}
)
_RESERVED_PREFIXES = frozenset(name[:end] for name in _RESERVED for end in range(len(name) + 1))
# Every character whose str.upper() is a character of a reserved name (checked by a test
# that scans all of Unicode): the name's own lower case, and the dotless i.
_UPPER_OF = {c: c for c in "".join(_RESERVED)} | {
    c.lower(): c for c in "".join(_RESERVED) if c.isalpha()
}
_UPPER_OF["\u0131"] = "I"  # dotless i
# str.isspace() characters the workspace accepts: a path of nothing else is "empty".
_BLANKS = (
    " \xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
)
_SPECIAL = "/. " + _BLANKS + "".join(_UPPER_OF)

_ROOT = "root"
_BLANK = "blank"
_SEGMENT = "segment"
_FREE = "free"
_DOT = "dot"
_DOT_DOT = "dot-dot"
_DEVICE_SPACE = "device-space"
_TRIE = "name:"
SEGMENT_START: Hashable = _SEGMENT
"""The domain state after a ``/``, where a segment begins (both kinds of path)."""


class PathAlphabet:
    """Character classes: maximal runs of code points that nothing tells apart."""

    def __init__(self, cuts: Iterable[int]) -> None:
        self._starts = sorted({0, *(c for c in cuts if 0 < c < _MAX_CODE_POINT)})
        self._only: dict[str, SymbolSet] = {}
        self._ends = [*self._starts[1:], _MAX_CODE_POINT]
        self.representatives = tuple(
            _representative(low, high) for low, high in zip(self._starts, self._ends, strict=True)
        )
        self.legal = tuple(not _illegal(ord(rep)) for rep in self.representatives)
        self.legal_absolute = tuple(not _control(ord(rep)) for rep in self.representatives)
        self.slash = self.of("/")
        ranked = sorted(range(len(self._starts)), key=self._rank_key)
        self._rank = {symbol: position for position, symbol in enumerate(ranked)}
        self.legal_symbols = frozenset(
            s for s in range(len(self._starts)) if self.legal[s] and s != self.slash
        )
        self.neutral = tuple(
            s for s in ranked if s in self.legal_symbols and self.representatives[s] not in _SPECIAL
        )

    def __len__(self) -> int:
        return len(self._starts)

    def of(self, char: str) -> int:
        """The class of ``char``."""
        return bisect.bisect_right(self._starts, ord(char)) - 1

    def only(self, char: str) -> SymbolSet:
        """The symbol set of ``char``'s class alone."""
        found = self._only.get(char)
        if found is None:
            found = self._only[char] = SymbolSet(frozenset({self.of(char)}))
        return found

    def symbols(self, text: str) -> list[int]:
        """The classes of the characters of ``text``."""
        return [self.of(char) for char in text]

    def between(self, low: str, high: str) -> frozenset[int]:
        """The classes of every character from ``low`` to ``high``."""
        return frozenset(range(self.of(low), self.of(high) + 1))

    def rank(self, symbol: int) -> int:
        """Readable representatives first."""
        return self._rank[symbol]

    def text(self, symbols: Iterable[int]) -> str:
        """The representatives of ``symbols`` as a string."""
        return "".join(self.representatives[s] for s in symbols)

    def _rank_key(self, symbol: int) -> tuple[int, int]:
        position = _PREFERRED.find(self.representatives[symbol])
        return (position if position >= 0 else len(_PREFERRED), symbol)


def path_alphabet(texts: Iterable[str]) -> PathAlphabet:
    """The classes for globs and landmark paths ``texts``: every character they spell is a
    class of its own, as is every character the path domain treats specially."""
    cuts: set[int] = set()
    for text in (*texts, _SPECIAL, _ILLEGAL_CHARS):
        for char in text:
            cuts.update((ord(char), ord(char) + 1))
    for low, high in _ILLEGAL_RANGES:
        cuts.update((low, high + 1))
    return PathAlphabet(cuts)


def _illegal(code: int) -> bool:
    return chr(code) in _ILLEGAL_CHARS or _control(code)


def _control(code: int) -> bool:
    return any(low <= code <= high for low, high in _ILLEGAL_RANGES)


def _representative(low: int, high: int) -> str:
    """A readable character of ``[low, high)``: a preferred one if the run has one."""
    for char in _PREFERRED:
        if low <= ord(char) < high:
            return char
    return chr(low)


class PathDomain:
    """The normalized workspace-relative paths (see the module docstring); with
    ``devices=False`` what follows the first ``/`` of a normalized absolute path (no empty,
    ``.`` or ``..`` segment, no control character; device names and blanks are names)."""

    def __init__(self, alphabet: PathAlphabet, *, devices: bool = True) -> None:
        self._alphabet = alphabet
        self._devices = devices
        self._legal = alphabet.legal if devices else alphabet.legal_absolute
        self._symbols = frozenset(
            s for s, legal in enumerate(self._legal) if legal and s != alphabet.slash
        )
        self.start: Hashable = _ROOT
        self._splits: dict[frozenset[int], tuple[frozenset[int], int | None]] = {}

    def step(self, state: Hashable, symbol: int) -> Hashable | None:
        """The domain state after reading one character of class ``symbol``."""
        if not self._legal[symbol]:
            return None
        char = self._alphabet.representatives[symbol]
        if not self._devices:
            return _plain_step(state, char)
        if char == "/":
            if state in (_FREE, _BLANK) or (isinstance(state, str) and state.startswith(_TRIE)):
                return None if _device(state) else _SEGMENT
            return None
        if (state == _ROOT and char in _BLANKS) or state == _BLANK:
            return _BLANK if char in _BLANKS else _FREE
        if state in (_ROOT, _SEGMENT):
            if char == ".":
                return _DOT
            return _name(_TRIE, char)
        if state == _DOT:
            return _DOT_DOT if char == "." else _FREE
        if state in (_DOT_DOT, _FREE):
            return _FREE
        if state == _DEVICE_SPACE:
            return _DEVICE_SPACE if char == " " else (None if char == "." else _FREE)
        assert isinstance(state, str)
        stepped = _name(state, char)
        if stepped != _FREE or not _device(state):
            return stepped
        if char == " ":
            return _DEVICE_SPACE
        return None if char == "." else _FREE

    def accepting(self, state: Hashable) -> bool:
        """A complete valid path: the root, or a last segment that is a valid name."""
        if state in (_ROOT, _FREE):
            return True
        return isinstance(state, str) and state.startswith(_TRIE) and not _device(state)

    def split(self, named: frozenset[int]) -> tuple[frozenset[int], int | None]:
        """A *neutral* class (no part in device names, dots or blanks) that no live edge
        names stands for every class no edge names: from any state it leads to the state
        with the most valid continuations (a plain name). Only when every neutral class is
        named are the remaining classes tried one by one."""
        found = self._splits.get(named)
        if found is None:
            neutral = next((s for s in self._alphabet.neutral if s not in named), None)
            found = self._splits[named] = (
                (frozenset(), neutral) if neutral is not None else (self._symbols - named, None)
            )
        return found

    def rank(self, symbol: int) -> int:
        """Readable characters first."""
        return self._alphabet.rank(symbol)


def _plain_step(state: Hashable, char: str) -> Hashable | None:
    """Segments that are not ``.`` or ``..``, joined by single slashes."""
    if char == "/":
        return _SEGMENT if state == _FREE else None
    if state in (_ROOT, _SEGMENT):
        return _DOT if char == "." else _FREE
    if state == _DOT:
        return _DOT_DOT if char == "." else _FREE
    return _FREE


def _name(state: Hashable, char: str) -> Hashable:
    """Inside a segment that so far spells a prefix of a device name: the next state."""
    if state in (_ROOT, _SEGMENT):
        prefix = ""
    elif isinstance(state, str) and state.startswith(_TRIE):
        prefix = state[len(_TRIE) :]
    else:
        return _FREE
    upper = _UPPER_OF.get(char)
    if upper is not None and prefix + upper in _RESERVED_PREFIXES:
        return _TRIE + prefix + upper
    return _FREE


def _device(state: Hashable) -> bool:
    return isinstance(state, str) and state.startswith(_TRIE) and state[len(_TRIE) :] in _RESERVED


def add_glob(nfa: Nfa, text: str, alphabet: PathAlphabet, pattern: int) -> int:
    """Add the gitignore glob ``text`` (valid, as ``compile_glob`` accepted it) to ``nfa``;
    its accept state reports ``pattern``. Returns its start state. An absolute or home
    pattern matches its body below its root (the path after ``/`` or the home folder)."""
    builder = _Builder(nfa, alphabet)
    start = nfa.state()
    _root, segments, directory = glob_shape(text, gitignore=True)
    groups: list[list[str]] = [[]]
    for segment in segments:
        if segment == "**":
            if len(groups) == 1 or groups[-1]:
                groups.append([])
        else:
            groups[-1].append(segment)
    end = start
    if len(groups) == 1:
        end = builder.segments(end, groups[0])
    else:
        first, middle, last = groups[0], groups[1:-1], groups[-1]
        if first:
            end = builder.char(builder.segments(end, first), "/")
        for group in middle:
            end = builder.char(builder.segments(builder.any_segments(end), group), "/")
        if last:
            end = builder.segments(builder.any_segments(end), last)
        else:
            end = builder.anything(builder.one_of(end, SymbolSet(frozenset(), negated=True)))
    if directory:
        end = builder.anything(builder.char(end, "/"))
    elif segments[-1] != "**":
        end = builder.or_below(end)
    nfa.accept(end, pattern)
    return start


def add_prefix(nfa: Nfa, text: str, alphabet: PathAlphabet) -> tuple[int, int]:
    """A chain of states that reads exactly ``text``: its first and its last state."""
    builder = _Builder(nfa, alphabet)
    start = end = nfa.state()
    for char in text:
        end = builder.char(end, char)
    return start, end


# Where str.casefold() changes a character (checked by a test that scans all of Unicode).
CASEFOLD_RANGES = (
    (0x0041, 0x005B),
    (0x00B5, 0x024F),
    (0x0345, 0x0588),
    (0x10A0, 0x10CE),
    (0x13F8, 0x13FE),
    (0x1C80, 0x1CC0),
    (0x1E00, 0x1FFD),
    (0x2126, 0x2184),
    (0x24B6, 0x24D0),
    (0x2C00, 0x2CF3),
    (0xA640, 0xA69B),
    (0xA722, 0xA7F6),
    (0xAB70, 0xABC0),
    (0xFB00, 0xFB18),
    (0xFF21, 0xFF3B),
    (0x10400, 0x10428),
    (0x104B0, 0x104D4),
    (0x10570, 0x10596),
    (0x10C80, 0x10CB3),
    (0x118A0, 0x118C0),
    (0x16E40, 0x16E60),
    (0x1E900, 0x1E922),
)


@functools.cache
def _unfoldings() -> dict[str, tuple[tuple[str, str], ...]]:
    """First character of a casefolded text → (that text, a character that folds to it)."""
    found: dict[str, list[tuple[str, str]]] = {}
    for low, high in CASEFOLD_RANGES:
        for code in range(low, high):
            char = chr(code)
            folded = char.casefold()
            if folded != char:
                found.setdefault(folded[0], []).append((folded, char))
    return {first: tuple(pairs) for first, pairs in found.items()}


def _foldings(key: str, index: int) -> list[tuple[str, int]]:
    """The characters that spell ``key[index:]``'s start once casefolded, each with the
    length of ``key`` it stands for."""
    out = [(key[index], 1)]
    for folded, char in _unfoldings().get(key[index], ()):
        if key.startswith(folded, index):
            out.append((char, len(folded)))
    return out


def folded_spellings(key: str) -> str:
    """Every character some spelling of the casefolded ``key`` can use."""
    return "".join(char for index in range(len(key)) for char, _ in _foldings(key, index))


def add_protected(
    nfa: Nfa,
    key: str,
    folder: bool,
    anywhere: bool,
    alphabet: PathAlphabet,
    pattern: int,
) -> int:
    """A protected entry (``ProtectedEntry.covers``): the paths that casefold to ``key``,
    with a ``folder`` everything below it, with ``anywhere`` at any depth."""
    builder = _Builder(nfa, alphabet)
    start = nfa.state()
    head = builder.any_segments(start) if anywhere else start
    positions = [head, *(nfa.state() for _ in key)]
    for index in range(len(key)):
        for char, length in _foldings(key, index):
            nfa.edge(positions[index], alphabet.only(char), positions[index + length])
    end = positions[-1]
    if folder or anywhere:
        end = builder.or_below(end)
    nfa.accept(end, pattern)
    return start


def add_exact(nfa: Nfa, path: str, alphabet: PathAlphabet, pattern: int) -> int:
    """Add the one path ``path`` to ``nfa``; returns its start state."""
    builder = _Builder(nfa, alphabet)
    start = nfa.state()
    end = start
    for char in path:
        end = builder.char(end, char)
    nfa.accept(end, pattern)
    return start


class _Builder:
    """Thompson construction of the pieces a glob is made of."""

    def __init__(self, nfa: Nfa, alphabet: PathAlphabet) -> None:
        self.nfa = nfa
        self.alphabet = alphabet
        self.not_slash = SymbolSet(frozenset({alphabet.slash}), negated=True)

    def one_of(self, state: int, symbols: SymbolSet) -> int:
        nxt = self.nfa.state()
        self.nfa.edge(state, symbols, nxt)
        return nxt

    def char(self, state: int, char: str) -> int:
        return self.one_of(state, self.alphabet.only(char))

    def loop(self, state: int, symbols: SymbolSet) -> int:
        """``symbols*`` after ``state``."""
        inner = self.nfa.state()
        self.nfa.link(state, inner)
        self.nfa.edge(inner, symbols, inner)
        return inner

    def anything(self, state: int) -> int:
        """``.*`` (any characters, ``/`` included)."""
        return self.loop(state, SymbolSet(frozenset(), negated=True))

    def or_below(self, state: int) -> int:
        """``(?:/.*)?`` after ``state``: ``state`` itself and everything below it, joined
        at a fresh state."""
        below = self.anything(self.char(state, "/"))
        joined = self.nfa.state()
        self.nfa.link(state, joined)
        self.nfa.link(below, joined)
        return joined

    def any_segments(self, state: int) -> int:
        """``(?:[^/]*/)*``: zero or more whole segments, each followed by ``/``."""
        head = self.nfa.state()
        self.nfa.link(state, head)
        inner = self.loop(head, self.not_slash)
        self.nfa.edge(inner, SymbolSet(frozenset({self.alphabet.slash})), head)
        return head

    def segments(self, state: int, segments: list[str]) -> int:
        for index, segment in enumerate(segments):
            if index:
                state = self.char(state, "/")
            state = self.segment(state, segment)
        return state

    def segment(self, state: int, segment: str) -> int:
        index = 0
        while index < len(segment):
            char = segment[index]
            if char == "*":
                while index < len(segment) and segment[index] == "*":
                    index += 1
                state = self.loop(state, self.not_slash)
                continue
            if char == "?":
                state = self.one_of(state, self.not_slash)
            elif char == "[":
                symbols, index = self.char_class(segment, index)
                state = self.one_of(state, symbols)
                continue
            else:
                state = self.char(state, char)
            index += 1
        return state

    def char_class(self, segment: str, start: int) -> tuple[SymbolSet, int]:
        """``[...]`` at ``segment[start]``, read as ``compile_glob`` reads it."""
        index = start + 1
        negate = index < len(segment) and segment[index] in "!^"
        if negate:
            index += 1
        members: set[int] = set()
        first = True
        while True:
            char = segment[index]
            if char == "]" and not first:
                break
            first = False
            if index + 2 < len(segment) and segment[index + 1] == "-" and segment[index + 2] != "]":
                members |= self.alphabet.between(char, segment[index + 2])
                index += 3
            else:
                members.add(self.alphabet.of(char))
                index += 1
        if negate:
            return SymbolSet(frozenset(members | {self.alphabet.slash}), negated=True), index + 1
        return SymbolSet(frozenset(members)), index + 1
