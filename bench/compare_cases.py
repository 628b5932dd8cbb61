"""The benchmark's workspace and its request mix, shared by every engine.

The workspace is a real temporary directory with normal files and a real symlink that points
outside it, so the symlink-safe boundary has something to refuse. The mix is the one logical
policy of issue 8: deny write/edit outside the workspace, ask for shell, ask for write/edit
inside, allow reads, deny anything else.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

__all__ = ["CASES", "Case", "Workspace", "outside_workspace", "workspace"]


@dataclass(frozen=True, slots=True)
class Case:
    """One request of the mix and the decision the logical policy gives it."""

    key: str
    tool: str
    arguments: Mapping[str, object]
    expected: str
    escapes: bool = False
    """True for a write that only the workspace boundary refuses."""
    through_link: bool = False
    """True when only a symlink leads it out: toolpolicy refuses it at the open, not the
    decision (which reads the path's text)."""

    @property
    def path(self) -> str | None:
        """The path argument, when the tool has one."""
        value = self.arguments.get("path")
        return value if isinstance(value, str) else None


CASES: tuple[Case, ...] = (
    Case("read", "read_file", {"path": "src/a.py"}, "allow"),
    Case("glob", "glob", {"pattern": "src/**/*.py"}, "allow"),
    Case("write-inside", "write_file", {"path": "src/new.py", "content": "x"}, "ask"),
    Case(
        "edit-inside",
        "edit_file",
        {"path": "src/a.py", "old_string": "a", "new_string": "b"},
        "ask",
    ),
    Case(
        "write-dotdot",
        "write_file",
        {"path": "../outside.txt", "content": "x"},
        "deny",
        escapes=True,
    ),
    Case(
        "write-symlink",
        "write_file",
        {"path": "link/escape.txt", "content": "x"},
        "deny",
        escapes=True,
        through_link=True,
    ),
    Case("shell", "shell", {"command": "git status && ls src | wc -l"}, "ask"),
    Case("unknown-tool", "fetch_url", {"url": "https://example.com"}, "deny"),
)


@dataclass(frozen=True, slots=True)
class Workspace:
    """A prepared workspace: ``root`` holds ``src/a.py`` and ``link`` -> ``outside``."""

    root: str
    outside: str
    scratch: str
    """A directory outside the workspace for generated policies and audit files."""


@contextmanager
def workspace() -> Iterator[Workspace]:
    """Create the benchmark workspace in a temporary directory and remove it afterwards."""
    with tempfile.TemporaryDirectory(prefix="toolpolicy-bench-") as base:
        real = os.path.realpath(base)
        root = os.path.join(real, "ws")
        outside = os.path.join(real, "outside")
        scratch = os.path.join(real, "scratch")
        for folder in (os.path.join(root, "src"), outside, scratch):
            os.makedirs(folder)
        with open(os.path.join(root, "src", "a.py"), "w", encoding="utf-8") as handle:
            handle.write("a = 1\n")
        os.symlink(outside, os.path.join(root, "link"))
        yield Workspace(root=root, outside=outside, scratch=scratch)


def outside_workspace(root: str, path: str) -> bool:
    """The peers' boundary: True unless ``path`` resolves (symlinks followed) inside ``root``.

    ``root`` must already be a real path. Absolute paths and any resolution error count as
    outside (fail closed), as in toolpolicy.
    """
    if not path or os.path.isabs(path) or "\0" in path:
        return True
    try:
        real = os.path.realpath(os.path.join(root, path))
    except (OSError, ValueError):
        return True
    return not (real == root or real.startswith(root + os.sep))
