"""The words bash's brace expansion makes of a line, for the files a program may write.

A line with a brace expansion is never plain, and the conservative runs
(:mod:`toolpolicy.compile.command_scan`) break words at braces, so ``cp x .gi{t,}/config``
shows the words ``.gi``, ``t`` and ``/config``, while bash writes ``.git/config``. Here every
blank-separated word of the line (quotes dropped) that holds a brace pair is expanded as bash
expands it — ``a{b,c}d``, nested, and ``{a..e}``/``{1..9}`` sequences — with the path each
carries after ``=``, ``@``, ``:`` or ``,`` (``dd of=.gi{t,}/config``), so the protected set
and the write rules see each word bash will pass. Bounded: past :data:`MAX_WORDS` words the
expansion stops and says so, and the engine then refuses the line (a name could hide past
the bound).
"""

from __future__ import annotations

__all__ = ["MAX_WORDS", "brace_words"]

MAX_WORDS = 4096
# Quotes dropped, operators made blanks.
_WORDS = str.maketrans({**dict.fromkeys("'\"\\"), **dict.fromkeys(";|&<>()", " ")})
_CARRIERS = frozenset("=@:,")


def brace_words(line: str) -> tuple[tuple[str, ...], bool]:
    """Each word of ``line`` (quotes dropped, split at blanks and operators) that holds a
    brace pair, expanded; and whether that is all of them (False past :data:`MAX_WORDS`)."""
    found: dict[str, None] = {}
    for raw in line.translate(_WORDS).split():
        if "{" in raw and "}" in raw:
            if len(found) >= MAX_WORDS:  # this word is left unexpanded
                return tuple(found), False
            words = _expanded(raw)
            for word in words:
                found[word] = None
                # the path a word carries after '=', '@', ':' or ',' (``of=.gi{t,}/config``)
                found.update((word[i + 1 :], None) for i, c in enumerate(word) if c in _CARRIERS)
            if len(words) >= MAX_WORDS:  # the expansion may have stopped at the bound
                return tuple(found), False
    return tuple(found), True


def _expanded(word: str) -> list[str]:
    """``word`` brace-expanded (the first expandable pair, then the rest, recursively)."""
    for start, char in enumerate(word):
        if char != "{":
            continue
        end, parts = _group(word, start)
        if end < 0:
            continue
        head, tail = word[:start], word[end + 1 :]
        out: list[str] = []
        for part in parts:
            out.extend(_expanded(head + part + tail))
            if len(out) >= MAX_WORDS:
                break
        return out[:MAX_WORDS]
    return [word]


def _group(word: str, start: int) -> tuple[int, list[str]]:
    """Where the brace group at ``start`` closes and its alternatives (``-1`` when it is no
    expansion: no top-level comma and no sequence)."""
    depth = 0
    parts: list[str] = []
    begin = start + 1
    for index in range(start, len(word)):
        char = word[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                body = word[start + 1 : index]
                if parts:
                    return index, [*parts, word[begin:index]]
                sequence = _sequence(body)
                return (index, sequence) if sequence else (-1, [])
        elif char == "," and depth == 1:
            parts.append(word[begin:index])
            begin = index + 1
    return -1, []


def _sequence(body: str) -> list[str]:
    """``a..e`` or ``1..9`` (an optional ``..step``) as its items; empty when it is not one."""
    pieces = body.split("..")
    if len(pieces) not in (2, 3):
        return []
    first, last = pieces[0], pieces[1]
    step = abs(int(pieces[2])) if len(pieces) == 3 and _integer(pieces[2]) else 1
    if _integer(first) and _integer(last):
        a, b = int(first), int(last)
        items = range(a, b + (1 if b >= a else -1), step if b >= a else -step)
        return [str(i) for i in items][:MAX_WORDS]
    if len(first) == 1 and len(last) == 1:
        a, b = ord(first), ord(last)
        items = range(a, b + (1 if b >= a else -1), step if b >= a else -step)
        return [chr(i) for i in items][:MAX_WORDS]
    return []


def _integer(text: str) -> bool:
    return text.lstrip("-+").isdigit() and len(text) <= 9
