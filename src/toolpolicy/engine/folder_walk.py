"""The files below a folder, for a decision on a read of the folder: a bounded walk.

A search (the agents' Grep) or a shell line (``grep -r x src``) that reads a folder reads
the files below it, so a read rule that closes one of them concerns the whole read. The walk
lists every file below the folder relative to it, symlinks as entries (never followed), and
skips ``.git``; past :data:`MAX_FOLDER_ENTRIES` entries it raises :class:`FolderTooLarge`
rather than decide on part of the folder.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

__all__ = ["MAX_FOLDER_ENTRIES", "FolderTooLarge", "files_below"]

MAX_FOLDER_ENTRIES = 20_000


class FolderTooLarge(Exception):
    """The folder holds more than :data:`MAX_FOLDER_ENTRIES` entries."""


def files_below(folder: str) -> Iterator[str]:
    """Every file below ``folder``, relative to it (symlinks listed, not followed; ``.git``
    skipped); raises :class:`FolderTooLarge` past :data:`MAX_FOLDER_ENTRIES` entries."""
    seen = 0
    start = len(folder.rstrip("/")) + 1
    for top, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != ".git"]
        seen += len(dirs) + len(files)
        if seen > MAX_FOLDER_ENTRIES:
            raise FolderTooLarge
        prefix = top[start:] + "/" if len(top) >= start else ""
        for name in files:
            yield prefix + name
        for name in dirs:
            if os.path.islink(os.path.join(top, name)):
                yield prefix + name
