r"""Character tests on paths, patterns and names, as plain ``str`` operations.

Each stands for a regular expression the checks used to compile at import: a hook event
checks every path it names, and no module on that path should have to import ``re`` for it
(issue 14). A property test holds each one to its expression.
"""

from __future__ import annotations

__all__ = ["has_control_character", "is_word", "starts_with_drive"]

_CONTROL = frozenset(map(chr, (*range(0x20), *range(0x7F, 0xA0))))


def starts_with_drive(text: str) -> bool:
    """Whether ``text`` starts with a Windows drive, an ASCII letter and a colon
    (``re.match(r"[A-Za-z]:", text)``)."""
    first = text[:1]
    return text[1:2] == ":" and first.isascii() and first.isalpha()


def has_control_character(text: str) -> bool:
    r"""Whether ``text`` holds a C0 or C1 control character
    (``re.search(r"[\x00-\x1f\x7f-\x9f]", text)``). Each of them is unprintable, so a
    printable text holds none."""
    return not text.isprintable() and not _CONTROL.isdisjoint(text)


def is_word(text: str) -> bool:
    """Whether ``text`` is one or more ASCII letters, digits and underscores
    (``re.fullmatch(r"[A-Za-z0-9_]+", text)``)."""
    return text.isascii() and text.replace("_", "a").isalnum()
