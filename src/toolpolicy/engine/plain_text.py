"""Whether a path's text is *plain* (``engine.plain_lane``'s first condition), without ``re``.

A path is plain when it is relative, holds only ASCII letters, digits, ``/`` and
``_+=@%,-.``, has no empty segment, no segment that starts with a dot, none longer than 255
characters, and no segment that is a reserved device name (``con``, ``nul.txt``, ``LPT1``:
the name alone or before a dot, any case).

This is the definition; the in-process lane answers millions of calls and checks the same
with a compiled regular expression (``plain_lane._PLAIN_PATH``), which a property test holds
to this function. The hook's answer lane checks one path per process and must not pay for
importing ``re``: it calls this.
"""

from __future__ import annotations

__all__ = ["plain_text"]

_ALLOWED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+=@%,-./")
_RESERVED = frozenset(
    {"con", "prn", "aux", "nul"} | {f"{stem}{n}" for stem in ("com", "lpt") for n in range(10)}
)
_MAX_SEGMENT = 255


def plain_text(path: str) -> bool:
    """True when ``path``'s text is plain (see the module docstring)."""
    if not path or not _ALLOWED.issuperset(path):
        return False
    for segment in path.split("/"):
        if not segment or segment[0] == "." or len(segment) > _MAX_SEGMENT:
            return False
        if segment.partition(".")[0].lower() in _RESERVED:
            return False
    return True
