"""Lexical normalization of model-supplied paths before rule matching.

Rules match normalized workspace-relative POSIX paths. This module only rewrites the text;
whether a path is *safely inside* the workspace (symlinks, reserved names) is decided by the
workspace boundary, which refuses everything this function refuses and more.
"""

from __future__ import annotations

import re

__all__ = ["MAX_PATH_LENGTH", "ROOT", "normalize_relative_path"]

MAX_PATH_LENGTH = 4096
ROOT = "."

_DRIVE = re.compile(r"[A-Za-z]:")


def normalize_relative_path(path: str) -> str | None:
    """Normalize ``path`` for rule matching, or ``None`` when it is unsafe or ambiguous.

    ``./`` and empty segments are dropped and inner ``..`` are resolved
    (``"a/../b"`` → ``"b"``); the workspace root itself comes back as ``"."``. ``None`` for:
    an empty path, one longer than :data:`MAX_PATH_LENGTH`, an absolute path (``/x``,
    ``C:\\x``, ``C:x``, UNC ``\\\\srv\\share``), any backslash (not a separator on POSIX,
    so ambiguous), NUL or other control characters, and a path that escapes the root
    (``../x``, ``a/../../x``).
    """
    if not isinstance(path, str) or not path or len(path) > MAX_PATH_LENGTH:
        return None
    if path.startswith("/") or "\\" in path or _DRIVE.match(path):
        return None
    if any(ord(char) < 0x20 or 0x7F <= ord(char) <= 0x9F for char in path):
        return None
    kept: list[str] = []
    for segment in path.split("/"):
        if segment in ("", "."):
            continue
        if segment == "..":
            if not kept:
                return None
            kept.pop()
        else:
            kept.append(segment)
    return "/".join(kept) if kept else ROOT
