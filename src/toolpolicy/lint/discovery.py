"""Which files ``toolpolicy lint`` checks, and why it skipped the others.

A PATH named on the command line is linted as named: a file always, a folder walked
recursively for ``*.yaml`` / ``*.yml`` files that declare ``apiVersion: toolpolicy/...``
(symlinked folders are not followed; VCS and virtualenv folders are skipped).

With no PATH, the project's policy files are found under the current folder:

1. In a git work tree, the files git knows or would add — ``git ls-files --cached --others
   --exclude-standard`` — so ``.gitignore`` (every level, ``.git/info/exclude`` and the
   global excludes file, negations included) is honoured exactly as git does.
2. Elsewhere (no git, or not a repository), a walk that reads each folder's ``.gitignore``
   on the way down. That reading is careful rather than complete: a ``.gitignore`` with a
   ``!`` negation is not applied at all, and a pattern the glob language cannot express is
   left out — when in doubt a file is linted, never silently skipped.
3. Then the ``exclude`` globs of the project settings (``settings.py``) drop what matches.

Of what is left, YAML files that do not declare ``apiVersion: toolpolicy/...`` are skipped.
Every skip has a reason, which ``toolpolicy lint -v`` prints.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from ..compile.globs import GlobError, GlobPattern, compile_glob
from .settings import Settings, find_settings

__all__ = ["NOT_OURS", "SKIPPED_FOLDERS", "Discovery", "Skipped", "discover", "discover_project"]

SKIPPED_FOLDERS = frozenset(
    {".git", ".hg", ".svn", ".tox", ".nox", ".venv", "venv", "node_modules", "__pycache__"}
)
"""Folder names a walk never enters."""

NOT_OURS = "not a toolpolicy document (no apiVersion: toolpolicy/...)"
"""Why a YAML file found in a folder is skipped."""

_SUFFIXES = (".yaml", ".yml")
_SNIFF_BYTES = 64 * 1024
_OURS = re.compile(
    rb"(?:^|[{,])[ \t]*[\"']?apiVersion[\"']?[ \t]*:[ \t]*[\"']?toolpolicy/", re.MULTILINE
)
_GIT_TIMEOUT = 60

IgnoreCheck = Callable[[str, bool], "str | None"]
"""(path, is it a folder) → why the walk leaves it out, or None."""


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file (or a folder, ending with ``/``) that is not linted, and why."""

    path: str
    why: str


@dataclass(frozen=True, slots=True)
class Discovery:
    """The files to lint, in order; what was skipped and how files were found (for ``-v``)."""

    files: tuple[str, ...]
    skipped: tuple[Skipped, ...] = ()
    notes: tuple[str, ...] = ()


def discover(paths: Iterable[str]) -> Discovery:
    """The files named, and the policy files in the folders named. Every path must exist
    (the caller checks); a file named explicitly is always linted."""
    files: list[str] = []
    skipped: list[Skipped] = []
    for path in paths:
        if os.path.isdir(path):
            found, left_out = _sorted_out(_walk(path, _nothing_ignored))
            files += found
            skipped += left_out
        else:
            files.append(path)
    return Discovery(tuple(_unique(files)), tuple(skipped))


def discover_project(start: str = os.curdir) -> Discovery:
    """The project's policy files under ``start`` (see the module documentation).

    Raises ``ConfigurationError`` for a settings file that is wrong.
    """
    listed = _git_files(start)
    if listed is None:
        return _walked_project(start)
    top, names = listed
    settings = find_settings(start, top)
    files, skipped = _sorted_out(_excluded(name, False, settings) or name for name in names)
    notes = [f"listed the files under {start} with git ls-files (.gitignore honoured)"]
    return Discovery(
        tuple(files),
        (*skipped, *_ignored_by_git(start)),
        (*notes, *_settings_notes(settings)),
    )


def _walked_project(start: str) -> Discovery:
    """``discover_project`` without git: a walk that reads the ``.gitignore`` files."""
    settings = find_settings(start, None)
    gitignores = _Gitignores(start)

    def ignored(path: str, is_folder: bool) -> str | None:
        excluded = _excluded(path, is_folder, settings)
        return excluded.why if excluded is not None else gitignores.why(path, is_folder)

    files, skipped = _sorted_out(_walk(start, ignored))
    notes = [
        f"no git work tree: walked {start}, reading its .gitignore files",
        *_settings_notes(settings),
        *gitignores.notes,
    ]
    return Discovery(tuple(files), tuple(skipped), tuple(notes))


def _sorted_out(candidates: Iterable[str | Skipped]) -> tuple[list[str], list[Skipped]]:
    """The policy files among ``candidates``, and the rest with why each is left out."""
    files: list[str] = []
    skipped: list[Skipped] = []
    for found in candidates:
        if isinstance(found, Skipped):
            skipped.append(found)
        elif _is_ours(found):
            files.append(found)
        else:
            skipped.append(Skipped(found, NOT_OURS))
    return _unique(files), skipped


def _settings_notes(settings: Settings) -> list[str]:
    if settings.source is None:
        return []
    patterns = ", ".join(p.text for p in settings.exclude) or "none"
    return [f"settings from {settings.source}: exclude {patterns}"]


def _excluded(path: str, is_folder: bool, settings: Settings) -> Skipped | None:
    shown = path + "/" if is_folder else path
    pattern = settings.excluded_by(shown)
    return (
        None if pattern is None else Skipped(shown, f"excluded by {pattern!r} ({settings.source})")
    )


def _walk(start: str, ignored: IgnoreCheck) -> Iterator[str | Skipped]:
    """The YAML files under ``start`` and the folders left out, in a stable order."""
    for folder, subfolders, names in os.walk(start):
        kept: list[str] = []
        for name in sorted(subfolders):
            if name in SKIPPED_FOLDERS:
                continue
            path = os.path.normpath(os.path.join(folder, name))
            why = ignored(path, True)
            if why is None:
                kept.append(name)
            else:
                yield Skipped(path + "/", why)
        subfolders[:] = kept
        for name in sorted(names):
            if name.endswith(_SUFFIXES):
                path = os.path.normpath(os.path.join(folder, name))
                why = ignored(path, False)
                yield path if why is None else Skipped(path, why)


def _nothing_ignored(path: str, is_folder: bool) -> str | None:
    return None


class _Gitignores:
    """The ``.gitignore`` files of a walk without git from ``start``, each applied below its
    own folder (those above ``start`` are not read).

    Careful, not complete: a file with a ``!`` negation is not applied at all, and a pattern
    the glob language cannot express is left out; both are said in ``notes``.
    """

    def __init__(self, start: str) -> None:
        self.start = os.path.normpath(start)
        self.by_folder: dict[str, tuple[GlobPattern, ...]] = {}
        self.notes: list[str] = []

    def why(self, path: str, is_folder: bool) -> str | None:
        """Why a ``.gitignore`` in a folder above ``path`` ignores it, or None."""
        folder = os.path.dirname(path) or os.curdir
        while True:
            relative = os.path.relpath(path, folder).replace(os.sep, "/")
            for pattern in self._patterns(folder):
                if pattern.matches(relative + ("/" if is_folder else "")):
                    source = os.path.normpath(os.path.join(folder, ".gitignore"))
                    return f"ignored by {pattern.text!r} ({source})"
            if os.path.normpath(folder) == self.start or os.path.dirname(folder) == folder:
                return None
            folder = os.path.dirname(folder) or os.curdir

    def _patterns(self, folder: str) -> tuple[GlobPattern, ...]:
        found = self.by_folder.get(folder)
        if found is None:
            found = self._read(os.path.normpath(os.path.join(folder, ".gitignore")))
            self.by_folder[folder] = found
        return found

    def _read(self, path: str) -> tuple[GlobPattern, ...]:
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                lines = [line.rstrip() for line in handle.read(1024 * 1024).splitlines()]
        except OSError:
            return ()
        lines = [line for line in lines if line and not line.startswith("#")]
        if any(line.startswith("!") for line in lines):
            self.notes.append(f"{path} not applied: it has a '!' negation, which needs git")
            return ()
        patterns: list[GlobPattern] = []
        for line in lines:
            try:
                patterns.append(compile_glob(line, gitignore=True))
            except GlobError as exc:
                self.notes.append(f"{path}: pattern {line!r} not applied ({exc})")
        return tuple(patterns)


def _git(start: str, *args: str) -> str | None:
    """``git -C start ARGS``'s output, or None when git is missing or fails. The repository's
    configured file-system monitor (a command) is switched off: listing runs nothing."""
    try:
        done = subprocess.run(
            ["git", "-c", "core.fsmonitor=false", "-C", start, *args],
            capture_output=True,
            text=True,
            timeout=_GIT_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def _git_files(start: str) -> tuple[str, list[str]] | None:
    """The git top folder and the YAML files git lists under ``start``; None without git."""
    top = _git(start, "rev-parse", "--show-toplevel")
    listed = _git(start, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    if top is None or listed is None:
        return None
    names: list[str] = []
    for name in sorted(set(listed.split("\0"))):
        path = os.path.normpath(os.path.join(start, name))
        if name.endswith(_SUFFIXES) and not _in_skipped_folder(name) and os.path.lexists(path):
            names.append(path)
    return top.strip(), names


def _ignored_by_git(start: str) -> list[Skipped]:
    """The YAML files and the folders git ignores under ``start`` (folders collapsed)."""
    listed = _git(
        start, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"
    )
    return [
        Skipped(
            os.path.normpath(os.path.join(start, name)) + ("/" if name.endswith("/") else ""),
            "ignored by git (.gitignore)",
        )
        for name in sorted((listed or "").split("\0"))
        if name.endswith((*_SUFFIXES, "/")) and not _in_skipped_folder(name)
    ]


def _in_skipped_folder(name: str) -> bool:
    """True when a folder of the relative POSIX ``name`` (``a/b.yaml``, ``a/b/``) is one a
    walk never enters."""
    return any(part in SKIPPED_FOLDERS for part in name.split("/")[:-1])


def _is_ours(path: str) -> bool:
    try:
        # O_NONBLOCK: a FIFO named *.yaml must not hang the walk
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return True  # unreadable: lint it, so the read error is reported, not hidden
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return True
        head = handle.read(_SNIFF_BYTES)
    return _OURS.search(head) is not None


def _unique(paths: list[str]) -> list[str]:
    seen: set[str] = set()
    kept: list[str] = []
    for path in paths:
        key = os.path.normpath(path)
        if key not in seen:
            seen.add(key)
            kept.append(path)
    return kept
