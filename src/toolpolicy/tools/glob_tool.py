"""The ``glob`` tool: list workspace files whose relative path matches a pattern.

The pattern is compiled by ``compile_glob(text, gitignore=False)`` (anchored at the workspace
root; ``*``, ``**``, ``?``, ``[...]``) and never reaches a shell. The walk opens each folder
from its parent's file descriptor with ``O_NOFOLLOW``, so it never enters a symlinked
directory, even one swapped in mid-walk, and never lists anything outside the workspace.
Only regular files are listed (not symlinks), sorted, at most ``MAX_GLOB_RESULTS``; the walk
stops after ``MAX_GLOB_ENTRIES`` directory entries (both limits are settings of ``GlobTool``).

Every match is a path the walk actually found, and the policy's read rules are applied to it
(``ToolContext.guard``, as ``glob`` and as ``read_file``): a match whose read is denied is
withheld — not named, only counted in a ``[N matches withheld: ...]`` line. A match whose
read asks is listed: a name is not its content, and ``read_file`` will ask.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..compile.globs import GlobError, GlobPattern, compile_glob
from ..core.results import ToolResult, tool_error, tool_success
from ..core.vocabulary import Behavior, Effect
from .registry import ToolContext

__all__ = ["MAX_GLOB_ENTRIES", "MAX_GLOB_RESULTS", "WITHHELD", "GlobTool"]

MAX_GLOB_RESULTS = 1000
MAX_GLOB_ENTRIES = 100_000
_MAX_DEPTH = 128
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READERS = ("glob", "read_file")
WITHHELD = "matches withheld: the policy denies reading them"


@dataclass
class _Walk:
    pattern: GlobPattern
    budget: int
    matches: list[str] = field(default_factory=list)
    exhausted: bool = False

    def visit(self, fd: int, prefix: str, depth: int) -> None:
        """List the folder open at ``fd`` (path ``prefix``) and descend into real folders."""
        folders: list[str] = []
        with os.scandir(fd) as entries:
            for entry in entries:
                if self.budget <= 0:
                    self.exhausted = True
                    return
                self.budget -= 1
                path = prefix + entry.name
                if entry.is_dir(follow_symlinks=False):
                    folders.append(entry.name)
                elif entry.is_file(follow_symlinks=False) and self.pattern.matches(path):
                    self.matches.append(path)
        if depth >= _MAX_DEPTH:
            return
        for name in folders:
            try:
                child = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except OSError:
                # Gone, unreadable, or replaced by a symlink since it was listed: skip it.
                continue
            try:
                self.visit(child, f"{prefix}{name}/", depth + 1)
            finally:
                os.close(child)
            if self.exhausted:
                return


class GlobTool:
    """The ``glob`` tool's handler (call it with the arguments), with its limits."""

    __slots__ = ("_max_entries", "_max_results")

    def __init__(
        self, *, max_results: int = MAX_GLOB_RESULTS, max_entries: int = MAX_GLOB_ENTRIES
    ) -> None:
        if max_results <= 0 or max_entries <= 0:
            raise ValueError("max_results and max_entries must be positive")
        self._max_results = max_results
        self._max_entries = max_entries

    def __call__(self, arguments: Mapping[str, object], context: ToolContext) -> ToolResult:
        """Handler: the sorted workspace-relative paths of matching files, one per line."""
        text = str(arguments["pattern"])
        try:
            pattern = compile_glob(text, gitignore=False)
        except GlobError as exc:
            return tool_error("invalid_pattern", str(exc))
        walk = _Walk(pattern, self._max_entries)
        root = os.open(os.path.realpath(context.workspace), _DIR_FLAGS)
        try:
            walk.visit(root, "", 0)
        finally:
            os.close(root)
        found = sorted(p for p in walk.matches if not _denied(context, p))
        withheld = len(walk.matches) - len(found)
        lines = found[: self._max_results] or [f"No files match: {text}"]
        if len(found) > self._max_results:
            lines.append(
                f"[results truncated: showing {self._max_results} of {len(found)} matches]"
            )
        if withheld:
            lines.append(f"[{withheld} {WITHHELD}]")
        if walk.exhausted:
            lines.append(f"[search stopped after {self._max_entries} entries]")
        return tool_success("\n".join(lines))


def _denied(context: ToolContext, path: str) -> bool:
    guard = context.guard
    if guard is None:
        return False
    for tool in _READERS:
        decision = guard.check_open(tool, Effect.READ, path)
        if decision is not None and decision.behavior is Behavior.DENY:
            return True
    return False
