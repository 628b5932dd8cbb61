"""Workspace boundaries: where a model-supplied path lands, on its text or on the disk.

``LexicalBoundary`` is what the in-process engine decides with: the path's text only, no
syscall, so a decision is cheap and cacheable; the file tools enforce at the open what the
text did not show (a symlink out of the workspace, see ``tools/beneath.py``).
``WorkspaceBoundary`` resolves a path physically: the file tools' portable fallback and the
hook (which has no handler to enforce at the open) use it.

The checks run cheapest first: lexical rules on the string (relative only, no drive letters,
no UNC, no reserved Windows device names, no illegal characters, no climbing above the root
with ``..``), then one ``lstat`` per existing component, following symlinks by hand so a link
(dangling or not) that leads outside is refused. The workspace's own real path is computed once.

Codes: ``path_escape`` (absolute, drive, UNC, ``..`` or symlink escapes) and ``invalid_path``
(empty, illegal characters, reserved names, too long, symlink loops). Any other ``OSError``
propagates: the caller decides what an unreadable directory means.
"""

from __future__ import annotations

import errno
import os
import stat

from ..core.errors import WorkspacePathError
from ..core.memo import remember
from ..core.text_checks import has_control_character, starts_with_drive
from .real_path import real_path

__all__ = [
    "MAX_COMPONENT_BYTES",
    "MAX_PATH_BYTES",
    "LexicalBoundary",
    "WorkspaceBoundary",
    "normalized_path",
    "split_relative",
]

MAX_PATH_BYTES = 4096
MAX_COMPONENT_BYTES = 255
_MAX_SYMLINK_HOPS = 40
_SHOWN_CHARS = 200
_SAFE_COMPONENT_CHARS = MAX_COMPONENT_BYTES // 4

_RESERVED = frozenset(
    {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"}
    | {
        f"{stem}{n}"
        for stem in ("COM", "LPT")
        for n in (*"0123456789", "\u00b9", "\u00b2", "\u00b3")
    }
)
_RESERVED_STARTS = frozenset(name[:3] for name in _RESERVED)


def _has_illegal_character(path: str) -> bool:
    """Whether ``path`` holds a character no Windows file name may hold: ``<>:"|?*`` or a
    control character."""
    return (
        "<" in path
        or ">" in path
        or ":" in path
        or '"' in path
        or "|" in path
        or "?" in path
        or "*" in path
        or has_control_character(path)
    )


def _show(path: str) -> str:
    """The path as it may appear in a message: control characters escaped, length bounded."""
    text = path if path.isprintable() else path.encode("unicode_escape").decode("ascii")
    return text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "..."


def _is_reserved(component: str) -> bool:
    if component[:3].upper() not in _RESERVED_STARTS:
        return False
    # Windows ignores trailing dots and spaces and everything after the first dot:
    # "nul.", "COM1 " and "lpt9.log" all name a device.
    stem = component.rstrip(". ").split(".", 1)[0].rstrip(" ")
    return stem.upper() in _RESERVED


def split_relative(path: str) -> tuple[str, ...]:
    """The normalized components of a workspace-relative path, or ``WorkspacePathError``.

    Backslashes count as separators; empty and ``.`` segments vanish; ``..`` removes the
    previous segment and may never climb above the root. ``()`` names the root itself.
    """
    if not path.strip():
        raise WorkspacePathError("invalid_path", "Path is empty")
    if path.startswith(("\\\\", "//")):
        raise WorkspacePathError("path_escape", f"UNC paths are not allowed: {_show(path)}")
    if path.startswith(("/", "\\")):
        raise WorkspacePathError("path_escape", f"Absolute paths are not allowed: {_show(path)}")
    if starts_with_drive(path):
        raise WorkspacePathError("path_escape", f"Drive paths are not allowed: {_show(path)}")
    if _has_illegal_character(path):
        raise WorkspacePathError("invalid_path", f"Illegal character in path: {_show(path)}")
    try:
        size = len(path.encode("utf-8"))
    except UnicodeEncodeError:
        raise WorkspacePathError(
            "invalid_path", f"Illegal character in path: {_show(path)}"
        ) from None
    if size > MAX_PATH_BYTES:
        raise WorkspacePathError("invalid_path", "Path is too long")
    parts: list[str] = []
    for component in path.replace("\\", "/").split("/"):
        if component in ("", "."):
            continue
        if component == "..":
            if not parts:
                raise WorkspacePathError(
                    "path_escape", f"Path escapes the workspace: {_show(path)}"
                )
            parts.pop()
            continue
        # A UTF-8 character is at most 4 bytes: short components need no encoding.
        if len(component) > _SAFE_COMPONENT_CHARS and len(component.encode()) > MAX_COMPONENT_BYTES:
            raise WorkspacePathError("invalid_path", f"Path component is too long: {_show(path)}")
        if _is_reserved(component):
            raise WorkspacePathError("invalid_path", f"Reserved device name: {_show(path)}")
        parts.append(component)
    return tuple(parts)


def normalized_path(path: str) -> str:
    """``path`` as the file tools will open it, as one POSIX string (``""`` for the root):
    the form path rules are matched against. Raises ``WorkspacePathError`` like
    ``split_relative``. A function of the text alone: the texts read last are remembered
    (a shell line's files are normalized for each access they are decided as)."""
    found = _NORMALIZED.get(path)
    if found is None:
        found = remember(_NORMALIZED, path, "/".join(split_relative(path)), _NORMALIZED_LIMIT)
    return found


_NORMALIZED: dict[str, str] = {}
_NORMALIZED_LIMIT = 4096


class LexicalBoundary:
    """The workspace boundary on a path's text alone: ``..``, ``.``, ``//``, absolute paths,
    drives, UNC, reserved device names and illegal characters, exactly as ``split_relative``
    reads them. No syscall after the workspace's real path is computed once: a symlink is not
    followed here, the file tools refuse a link out of the workspace at the open."""

    __slots__ = ("_root",)

    def __init__(self, workspace: str | os.PathLike[str]) -> None:
        self._root = os.path.realpath(os.fspath(workspace))

    @property
    def root(self) -> str:
        """The real path of the workspace."""
        return self._root

    def contains(self, path: str) -> bool:
        """True when ``path``'s text stays inside the workspace."""
        return self.target_relative(path) is not None

    def target_relative(self, path: str) -> str | None:
        """The lexically normalized workspace-relative POSIX path, else ``None``."""
        try:
            return normalized_path(path)
        except WorkspacePathError:
            return None

    def absolute_target(self, path: str) -> str:
        """The absolute ``path`` normalized on its text (``..`` and ``.`` folded)."""
        return "/" + os.path.normpath(path).lstrip("/")


class WorkspaceBoundary:
    """Path safety for one workspace; cheap to call, safe to share between threads."""

    __slots__ = ("_prefix", "_root")

    def __init__(self, workspace: str | os.PathLike[str]) -> None:
        self._root = os.path.realpath(os.fspath(workspace))
        self._prefix = self._root if self._root.endswith(os.sep) else self._root + os.sep

    @property
    def root(self) -> str:
        """The real path of the workspace."""
        return self._root

    def resolve(self, path: str) -> str:
        """The absolute real path of ``path``'s target, inside the workspace, or raise.

        Raises ``WorkspacePathError`` (``path_escape`` or ``invalid_path``); other
        ``OSError`` propagates.
        """
        parts = split_relative(path)
        real = self._follow(parts, path)
        if real != self._root and not real.startswith(self._prefix):
            raise WorkspacePathError("path_escape", f"Path escapes the workspace: {_show(path)}")
        return real

    def contains(self, path: str) -> bool:
        """True when ``path`` resolves inside the workspace; other ``OSError`` propagates."""
        try:
            self.resolve(path)
        except WorkspacePathError:
            return False
        return True

    def target_relative(self, path: str) -> str | None:
        """The workspace-relative POSIX path of the symlink-resolved target, else ``None``.

        The workspace root itself is ``""``.
        """
        try:
            real = self.resolve(path)
        except WorkspacePathError:
            return None
        return "/".join(self.relative_parts(real))

    def absolute_target(self, path: str) -> str:
        """The real path of the absolute ``path`` (its text when it cannot be resolved):
        ``os.path.realpath``'s, walked from the root when below it (``real_path``)."""
        try:
            return real_path(path, self._root)
        except (OSError, ValueError):
            return "/" + os.path.normpath(path).lstrip("/")

    def relative(self, path: str) -> str:
        """The lexically normalized workspace-relative POSIX path (symlinks not followed)."""
        return normalized_path(path)

    def relative_parts(self, real_path: str) -> tuple[str, ...]:
        """The components below the root of a real path that ``resolve`` returned."""
        if real_path == self._root:
            return ()
        return tuple(real_path[len(self._prefix) :].split(os.sep))

    def _follow(self, parts: tuple[str, ...], shown: str) -> str:
        # realpath() by hand: it must tell a symlink loop from a missing file, and it must
        # stop at the first missing component, whose remaining parts are joined lexically.
        current = self._root
        pending = list(reversed(parts))
        hops = 0
        while pending:
            component = pending.pop()
            if component == "..":
                current = os.path.dirname(current)
                continue
            candidate = f"{current}{os.sep}{component}" if current != os.sep else os.sep + component
            try:
                mode = os.lstat(candidate).st_mode
            except (FileNotFoundError, NotADirectoryError):
                return os.path.normpath(os.path.join(candidate, *reversed(pending)))
            except OSError as exc:
                if exc.errno == errno.ENAMETOOLONG:
                    raise WorkspacePathError("invalid_path", "Path is too long") from None
                raise
            if not stat.S_ISLNK(mode):
                current = candidate
                continue
            hops += 1
            if hops > _MAX_SYMLINK_HOPS:
                raise WorkspacePathError("invalid_path", f"Symlink loop: {_show(shown)}")
            try:
                target = os.readlink(candidate)
            except OSError:
                # The link changed between lstat and readlink: refuse, never guess.
                raise WorkspacePathError(
                    "invalid_path", f"Path changed while it was resolved: {_show(shown)}"
                ) from None
            if os.path.isabs(target):
                current = os.path.abspath(os.sep)
            for piece in reversed(target.split(os.sep)):
                if piece not in ("", "."):
                    pending.append(piece)
        return current
