"""``visible``: text as it may be written to a terminal, one escaping for every line.

Control (C0, C1, DEL), format (bidi overrides, zero-width characters), private-use,
surrogate and line/paragraph separator characters are shown as ``\\uXXXX``. A model-chosen
string (a reason, a justification, arguments) can then neither start a new line, nor move
the cursor, nor reorder what the human reads: what a terminal shows is what was decided.
The approval prompt and the terminal audit sink both write through it.
"""

from __future__ import annotations

import unicodedata

__all__ = ["visible"]

_HIDDEN = frozenset({"Cc", "Cf", "Co", "Cs", "Zl", "Zp"})


def visible(text: str) -> str:
    """``text`` with every control, format and separator character escaped."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) in _HIDDEN else c for c in text)
