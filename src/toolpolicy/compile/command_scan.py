"""The conservative reading of a command line, for deny and ask rules.

No parser and no knowledge of wrappers: the line is cut into *runs* of words at ``;``,
``&``, ``|`` and newlines, and every quote, backslash and expansion character is dropped or
made a word break, so that a program shows up as a word wherever it is written — behind any
wrapper (``ionice git push``, ``flock /tmp/l git push``), inside a quoted string that
something may run as code (``sh -c 'git push'``, ``script -qc 'git push'``,
``mapfile -C 'git push #'``), inside substitutions (``$(git push)``, ``${x:-git} push``),
and spelled with quotes or escapes (``\\git``, ``g'i't``, ``$'\\x67it'``). The line is read
twice: once with quotes removed (``g'i't`` is ``git``) and once with quotes as word breaks
(``'x'git`` has a word ``git``).

The price is false hits (``echo "git push"`` hits a deny on ``git push``), which a deny
may have; a miss is what it must not have. A word assembled at run time
(``g$(printf i)t``) is not seen here; such a line is never plain, so no allow covers it.
"""

from __future__ import annotations

import re

__all__ = ["ansi_c", "scan_runs", "word_pieces"]

_CONTINUATION = "\\\n"
_RUN_BREAKS = re.compile(r"[;&|\n]+")
_WORD_BREAKS = re.compile(r"[\s(){}<>$`=,:]+")
# A variable's name ends its piece: ``$HOME/x`` is ``HOME`` and ``/x``, as ``${HOME}/x`` is.
_VARIABLE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*|[0-9])")
_QUOTES = re.compile(r"['\"\\]")
# A line as quoted strings, escaped characters and the text between them.
_QUOTED = re.compile(r"""'[^']*'?|"(?:[^"\\]|\\.)*"?|\\.?|[^'"\\]+""", re.DOTALL)
_BLANK = str.maketrans(";&|\n", "    ")
_ANSI_C = re.compile(r"\$'((?:[^'\\]|\\.)*)'", re.DOTALL)
_ANSI_ESCAPE = re.compile(
    r"\\(?:([0-7]{1,3})|x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8})|(.))",
    re.DOTALL,
)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "e": "\x1b", "E": "\x1b"}


def scan_runs(line: str) -> tuple[tuple[str, ...], ...]:
    """The runs of words a deny or ask looks for its prefix in (each run once)."""
    text = line.replace(_CONTINUATION, "")
    variants = [text]
    if "$'" in text:
        variants.append(_ANSI_C.sub(_decode_ansi_c, text))
    if _QUOTES.search(text) and _RUN_BREAKS.search(text):
        # A quoted or escaped ``;``, ``&``, ``|`` or newline is text to bash, code to
        # whatever may run the quoted string: read both ways (``-m 'a;b' --amend``).
        variants += [_blanked(variant) for variant in variants]
    runs: dict[tuple[str, ...], None] = {}
    for variant in variants:
        readings = [variant]
        if _QUOTES.search(variant):
            readings = [_QUOTES.sub("", variant), _QUOTES.sub(" ", variant)]
        for reading in readings:
            for piece in _RUN_BREAKS.split(reading):
                words = word_pieces(piece)
                if words:
                    runs[words] = None
    return tuple(runs)


def _blanked(text: str) -> str:
    """``text`` with every run-break character inside quotes or after a backslash made a
    blank, as bash reads it: text, no separator."""
    return "".join(
        piece.translate(_BLANK) if piece[0] in "'\"\\" else piece for piece in _QUOTED.findall(text)
    )


def word_pieces(text: str) -> tuple[str, ...]:
    """``text`` broken where a run's words break: at blanks, ``( ) { } < > $ ` = , :`` and
    after a variable's name."""
    if "$" in text:
        text = _VARIABLE.sub(r" \1 ", text)
    return tuple(filter(None, _WORD_BREAKS.split(text)))


def _decode_ansi_c(quoted: re.Match[str]) -> str:
    return ansi_c(quoted.group(1))


def ansi_c(body: str) -> str:
    """The text between ``$'`` and ``'`` as the characters bash makes of it (unknown escapes
    kept as written)."""
    return _ANSI_ESCAPE.sub(_decode_escape, body)


def _decode_escape(escape: re.Match[str]) -> str:
    octal, hex_byte, short, long, other = escape.groups()
    for digits, base in ((octal, 8), (hex_byte, 16), (short, 16), (long, 16)):
        if digits is not None:
            code = int(digits, base)
            return chr(code) if code <= 0x10FFFF else escape.group()
    return _SIMPLE_ESCAPES.get(other, other)
