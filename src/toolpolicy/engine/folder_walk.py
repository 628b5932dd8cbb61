"""The files below a folder, for a decision on a read of the folder: a bounded walk.

A search (the agents' Grep) or a shell line (``grep -r x src``) that reads a folder reads
the files below it, so a read rule that closes one of them concerns the whole read. The walk
lists every file below the folder relative to it, symlinks as entries (never followed; the
caller decides where one leads), and skips a ``.git`` folder (thousands of objects) unless
a rule may close a file in it (:func:`git_closer`); past :data:`MAX_FOLDER_ENTRIES` entries
it raises :class:`FolderTooLarge` rather than decide on part of the folder.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator

from ..compile.globs import GlobPattern, may_match_below
from ..compile.rules import CompiledRule
from ..core.vocabulary import Behavior

__all__ = ["MAX_FOLDER_ENTRIES", "FolderTooLarge", "files_below", "git_closer"]

MAX_FOLDER_ENTRIES = 20_000


class FolderTooLarge(Exception):
    """The folder holds more than :data:`MAX_FOLDER_ENTRIES` entries."""


def git_closer(
    rules: Callable[[], Iterable[CompiledRule]], relative: str | None, folder: str
) -> Callable[[str], bool]:
    """For :func:`files_below` of ``folder`` (absolute; ``relative``: workspace-relative,
    ``""`` for the workspace root, ``None`` outside the workspace): whether a deny or ask
    path rule among ``rules()`` (read when the walk first meets a ``.git`` folder) may close
    a file in a ``.git`` folder below it (given its path relative to ``folder``)."""
    closing: list[GlobPattern] | None = None
    home = os.path.expanduser("~")  # as the engine reads it for home rules

    def closes(below: str) -> bool:
        nonlocal closing
        if closing is None:
            closing = [
                glob
                for rule in rules()
                if rule.decision.behavior >= Behavior.ASK
                for glob in rule.paths or ()
            ]
        path = below if not relative else f"{relative}/{below}"
        inside = None if relative is None else path
        return any(may_match_below(g, inside, f"{folder}/{below}", home) for g in closing)

    return closes


def files_below(folder: str, enter_git: Callable[[str], bool]) -> Iterator[tuple[str, bool]]:
    """Every file below ``folder``, relative to it, and whether it is a symlink (a link is
    listed, never followed; a ``.git`` folder is skipped unless ``enter_git`` of its path,
    relative to ``folder``, says otherwise); raises :class:`FolderTooLarge` past
    :data:`MAX_FOLDER_ENTRIES` entries. Top-down: a folder's files, then its links to
    folders, then each of its folders in turn."""
    seen = [0]
    yield from _below(folder, "", seen, enter_git)


def _below(
    top: str, prefix: str, seen: list[int], enter_git: Callable[[str], bool]
) -> Iterator[tuple[str, bool]]:
    try:
        with os.scandir(top) as listing:
            entries = [
                entry for entry in listing if entry.name != ".git" or enter_git(prefix + entry.name)
            ]
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
        yield from _below(entry.path, f"{prefix}{entry.name}/", seen, enter_git)
