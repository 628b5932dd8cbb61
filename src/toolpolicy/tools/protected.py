"""``ProtectedSet``: the workspace paths no tool call may write, one set per selection.

Three kinds, each with its exact reason (part of the contract, tested verbatim):

- the Policy files and the PresetTable in use, and the folders inside the workspace that
  hold them — "Policy files in use cannot be written";
- ``.git``, whether or not it exists (and, for the file tools, any ``.git`` folder below) —
  "Writing inside .git is forbidden";
- the agent configuration that registers toolpolicy (``.claude/settings.json``,
  ``.claude/settings.local.json``, ``.codex/``, ``.gemini/settings.json``, ``.github/hooks/``,
  ``.github/copilot/settings.json``, ``.github/copilot/settings.local.json``) — "Agent
  settings that register toolpolicy cannot be written".

The same set is kept by the boundary participant (the decision), by the file tools at the
open (defence in depth, every profile) and by the shell sandbox (read-only binds). Paths are
workspace-relative, POSIX, and compared case-insensitively: a false refusal of ``.GIT`` on a
case-sensitive file system is cheaper than a write into ``.git`` on one that is not.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable

from ..core.lean_typing import NamedTuple
from ..core.memo import remember
from .real_path import real_path

__all__ = [
    "AGENT_SETTINGS_REASON",
    "FIXED_PROTECTED",
    "GIT_REASON",
    "POLICY_FILE_REASON",
    "ProtectedEntry",
    "ProtectedSet",
]

POLICY_FILE_REASON = "Policy files in use cannot be written"
GIT_REASON = "Writing inside .git is forbidden"
AGENT_SETTINGS_REASON = "Agent settings that register toolpolicy cannot be written"


class ProtectedEntry(NamedTuple):
    """One protected path: a single file, or a folder and everything below it; ``anywhere``
    extends a folder entry to every folder of that name (``.git`` in a sub-folder too)."""

    path: str
    folder: bool
    reason: str
    anywhere: bool = False

    def covers(self, relative: str) -> bool:
        """True when writing ``relative`` (workspace-relative, POSIX) would touch this entry."""
        key = self.path.casefold()
        folded = relative.casefold()
        if folded == key or (self.folder and folded.startswith(key + "/")):
            return True
        return self.anywhere and f"/{key}/" in f"/{folded}/"


_FIXED = (
    ProtectedEntry(".git", True, GIT_REASON, anywhere=True),
    ProtectedEntry(".claude/settings.json", False, AGENT_SETTINGS_REASON),
    ProtectedEntry(".claude/settings.local.json", False, AGENT_SETTINGS_REASON),
    ProtectedEntry(".codex", True, AGENT_SETTINGS_REASON),
    ProtectedEntry(".gemini/settings.json", False, AGENT_SETTINGS_REASON),
    ProtectedEntry(".github/hooks", True, AGENT_SETTINGS_REASON),
    ProtectedEntry(".github/copilot/settings.json", False, AGENT_SETTINGS_REASON),
    ProtectedEntry(".github/copilot/settings.local.json", False, AGENT_SETTINGS_REASON),
)


class ProtectedSet(NamedTuple):
    """The protected entries of one selection; ``ProtectedSet()`` holds the fixed ones only."""

    entries: tuple[ProtectedEntry, ...] = _FIXED

    @classmethod
    def for_workspace(cls, root: str, policy_files: Iterable[str]) -> ProtectedSet:
        """The fixed entries plus every policy file (and PresetTable) in ``policy_files`` that
        lies inside the workspace ``root`` (a real path) — as given and with its links
        resolved —, or the folder holding it unless that folder is the root itself. Files
        outside the workspace are skipped."""
        prefix = root.rstrip(os.sep) + os.sep
        found: dict[str, ProtectedEntry] = {e.path: e for e in _FIXED}
        for path in policy_files:
            # As loaded (the path a later load reads again) and as it really is.
            for spelling in dict.fromkeys((os.path.abspath(path), real_path(path, root))):
                if not spelling.startswith(prefix):
                    continue
                relative = spelling[len(prefix) :].replace(os.sep, "/")
                folder = relative.rpartition("/")[0]
                entry = (
                    ProtectedEntry(folder, True, POLICY_FILE_REASON)
                    if folder
                    else ProtectedEntry(relative, False, POLICY_FILE_REASON)
                )
                found.setdefault(entry.path, entry)
        return cls(tuple(found.values()))

    def named_in(self, text: str) -> bool:
        """Whether ``text`` names an entry, in any case: the first or the last segment of one
        (``.git``, ``.claude``, ``settings.json``, a policy file's name) occurs in it."""
        folded = text.casefold()
        return any(name in folded for name in _names(self.entries))

    def refusal(self, relative: str) -> str | None:
        """The reason a write to ``relative`` is refused, ``None`` when it is not protected:
        the reason of the first entry that ``covers`` it, found by looking up the path and
        each folder above it (``_Lookup``) instead of asking every entry."""
        lookup = _LOOKUPS.get(self.entries)
        if lookup is None:
            lookup = _lookup(self.entries)
        folded = relative.casefold()
        first = lookup.exact.get(folded, _NONE)
        folders = lookup.folders
        cut = folded.find("/")
        while cut >= 0:
            index = folders.get(folded[:cut], _NONE)
            if index < first:
                first = index
            cut = folded.find("/", cut + 1)
        if lookup.anywhere:
            padded = f"/{folded}/"
            for index, pattern in lookup.anywhere:
                if index < first and pattern in padded:
                    first = index
        return None if first == _NONE else self.entries[first].reason

    def held_below(self, folder: str) -> str | None:
        """The reason writing anything below the workspace-relative ``folder`` (``""``: the
        workspace) is refused: the folder is protected or inside an entry, or it holds one
        (``.git`` in the workspace, ``.claude`` holding its ``settings.json``). An entry
        that also covers folders of its name below (``.git``) counts where it is fixed."""
        reason = self.refusal(folder)
        if reason is not None:
            return reason
        prefix = f"{folder.casefold()}/" if folder else ""
        for entry in self.entries:
            if entry.path.casefold().startswith(prefix):
                return entry.reason
        return None

    def anchors(self) -> tuple[str, ...]:
        """The folders above each entry, inside the workspace, outermost first: the sandbox
        makes each a mount point so that none can be renamed away and replaced."""
        found: dict[str, None] = {}
        for entry in self.entries:
            parts = entry.path.split("/")
            for i in range(1, len(parts)):
                found.setdefault("/".join(parts[:i]), None)
        return tuple(sorted(found, key=lambda p: (p.count("/"), p)))


class _Lookup(NamedTuple):
    """The entries of a set as tables, each key folded: the index of the first entry of
    each path (``exact``) and of each folder (``folders``), and the ``/name/`` pattern of
    each entry that extends to folders of its name (``anywhere``), in order."""

    exact: dict[str, int]
    folders: dict[str, int]
    anywhere: tuple[tuple[int, str], ...]


_NONE = 1 << 62
"""No entry: an index larger than any."""

_LOOKUPS: dict[tuple[ProtectedEntry, ...], _Lookup] = {}
_LOOKUPS_LIMIT = 256


def _lookup(entries: tuple[ProtectedEntry, ...]) -> _Lookup:
    """The tables of ``entries`` (kept, a set's entries never change)."""
    exact: dict[str, int] = {}
    folders: dict[str, int] = {}
    anywhere: list[tuple[int, str]] = []
    for index, entry in enumerate(entries):
        key = entry.path.casefold()
        exact.setdefault(key, index)
        if entry.folder:
            folders.setdefault(key, index)
        if entry.anywhere:
            anywhere.append((index, f"/{key}/"))
    return remember(_LOOKUPS, entries, _Lookup(exact, folders, tuple(anywhere)), _LOOKUPS_LIMIT)


FIXED_PROTECTED = ProtectedSet()
"""What every workspace protects whatever the selection: ``.git`` and the agents' settings."""


@functools.lru_cache(maxsize=64)
def _names(entries: tuple[ProtectedEntry, ...]) -> tuple[str, ...]:
    """The first and last segments of ``entries``' paths, case-folded
    (``ProtectedSet.named_in``)."""
    found: dict[str, None] = {}
    for entry in entries:
        segments = entry.path.casefold().split("/")
        found.update(dict.fromkeys((segments[0], segments[-1])))
    return tuple(found)
