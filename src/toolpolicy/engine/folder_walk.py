"""The files below a folder, for a decision on a read of the folder: a bounded walk.

A search (the agents' Grep) or a shell line (``grep -r x src``) that reads a folder reads
the files below it, so a read rule that closes one of them concerns the whole read. The walk
lists every file below the folder relative to it, symlinks as entries (never followed; the
caller decides where one leads), and skips ``.git``; past :data:`MAX_FOLDER_ENTRIES` entries
it raises :class:`FolderTooLarge` rather than decide on part of the folder.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

__all__ = ["MAX_FOLDER_ENTRIES", "FolderTooLarge", "files_below"]

MAX_FOLDER_ENTRIES = 20_000


class FolderTooLarge(Exception):
    """The folder holds more than :data:`MAX_FOLDER_ENTRIES` entries."""


def files_below(folder: str) -> Iterator[tuple[str, bool]]:
    """Every file below ``folder``, relative to it, and whether it is a symlink (a link is
    listed, never followed; ``.git`` is skipped); raises :class:`FolderTooLarge` past
    :data:`MAX_FOLDER_ENTRIES` entries. Top-down: a folder's files, then its links to
    folders, then each of its folders in turn."""
    seen = [0]
    yield from _below(folder, "", seen)


def _below(top: str, prefix: str, seen: list[int]) -> Iterator[tuple[str, bool]]:
    try:
        with os.scandir(top) as listing:
            entries = [entry for entry in listing if entry.name != ".git"]
    except OSError:
        return  # unreadable: the program reading it will not get further either
    seen[0] += len(entries)
    if seen[0] > MAX_FOLDER_ENTRIES:
        raise FolderTooLarge
    folders = []
    linked = []
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            folders.append(entry)
        elif entry.is_symlink() and entry.is_dir():
            linked.append(entry)
        else:
            yield prefix + entry.name, entry.is_symlink()
    for entry in linked:
        yield prefix + entry.name, True
    for entry in folders:
        yield from _below(entry.path, f"{prefix}{entry.name}/", seen)
