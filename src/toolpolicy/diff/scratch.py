"""The scratch workspace both sides of a diff are decided in.

A temporary directory holding ``ws/`` (the workspace) and its sibling ``outside/``, with the
symlink ``ws/link -> outside`` so the symlink-escape probe has a real link to escape through.
Everything is removed when the context ends.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

__all__ = [
    "ESCAPE_LINK",
    "MAX_SCANNED_ENTRIES",
    "Workspace",
    "find_escape_link",
    "scratch_workspace",
]

ESCAPE_LINK = "link"
MAX_SCANNED_ENTRIES = 1000


@dataclass(frozen=True, slots=True)
class Workspace:
    """A workspace root and, when there is one, a top-level symlink that leads outside it."""

    root: str
    escape_link: str | None


@contextmanager
def scratch_workspace() -> Iterator[Workspace]:
    """A fresh workspace with ``link -> <sibling outside dir>``; removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="toolpolicy-diff-") as top:
        root = os.path.join(top, "ws")
        outside = os.path.join(top, "outside")
        os.mkdir(root)
        os.mkdir(outside)
        os.symlink(outside, os.path.join(root, ESCAPE_LINK))
        yield Workspace(root, ESCAPE_LINK)


def find_escape_link(root: str) -> str | None:
    """The first top-level symlink of ``root`` (looking at no more than
    :data:`MAX_SCANNED_ENTRIES` entries, in name order) whose target is outside ``root``."""
    real_root = os.path.realpath(root)
    names: list[str] = []
    with os.scandir(root) as entries:
        for count, entry in enumerate(entries):
            if count >= MAX_SCANNED_ENTRIES:
                break
            if entry.is_symlink():
                names.append(entry.name)
    for name in sorted(names):
        target = os.path.realpath(os.path.join(root, name))
        if os.path.commonpath([real_root, target]) != real_root:
            return name
    return None
