"""File operations inside the workspace that a symlink swapped in mid-way cannot redirect.

``open_parent`` first finds the real workspace-relative path of a path's target, never
following a link out of the workspace:

- where the kernel has ``openat2`` (Linux ≥ 5.6), by resolving it beneath the workspace's
  directory fd with ``RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`` (links inside the workspace
  are followed) and reading the real path back from the fd; the kernel answers ``EXDEV``
  for a step out and for any absolute link, so on ``EXDEV`` the path is resolved by hand as
  below, which follows an absolute link that stays inside and refuses the rest;
- elsewhere with ``WorkspaceBoundary``, which follows links by hand with ``lstat``.

The caller's ``check`` sees that real path (the policy is applied to it again, see
``opened``), then the path is opened from the workspace's directory fd one component at a
time with ``O_NOFOLLOW``, and the target itself with ``O_NOFOLLOW``: the real path has no
link in it, so a link swapped in since the resolution makes the open fail (``path_escape``)
instead of being followed, and what is opened is exactly the path that was checked. Writes
go to a temporary file in the same directory and are renamed over the target, so a reader
never sees half a file.

Platform errors become ``FileToolError`` with a stable code (``file_not_found``,
``not_a_file``, ``file_too_large``, ``binary_file``, ``invalid_path``, ``path_escape``);
unknown ``OSError`` propagates.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass

from ..core.errors import WorkspacePathError
from . import beneath
from .workspace import WorkspaceBoundary, split_relative

__all__ = ["FileToolError", "ParentDir", "open_parent", "read_text_at", "replace_at"]

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: opening a FIFO for reading must not hang the tool; regular files ignore it.
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_CHUNK = 64 * 1024
_FOLLOW_BENEATH = beneath.RESOLVE_BENEATH | beneath.RESOLVE_NO_MAGICLINKS
_MAX_LINKS = 40


class FileToolError(Exception):
    """A known file problem; ``code`` is the stable tool error code."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class ParentDir:
    """An open directory inside the workspace and the name of the target within it;
    ``relative`` is the target's real workspace-relative path (what is actually opened)."""

    fd: int
    name: str
    relative: str


class _Absolute(Exception):
    """The kernel met a link it does not follow beneath a directory (absolute, or out)."""


def _escape(relative: str) -> FileToolError:
    return FileToolError("path_escape", f"Path changed while it was opened: {relative}")


@contextmanager
def open_parent(
    boundary: WorkspaceBoundary,
    path: str,
    *,
    create: bool,
    check: Callable[[str], None] | None = None,
) -> Iterator[ParentDir]:
    """Open the directory that holds ``path``'s target, never following a link out of the
    workspace. ``check`` sees the target's real workspace-relative path before anything is
    created or opened, and may raise. ``create`` makes missing parent directories. The root
    itself is ``not_a_file``.
    """
    try:
        if not beneath.OPENAT2_AVAILABLE:
            raise _Absolute
        parts = _resolve_beneath(boundary.root, split_relative(path))
    except _Absolute:
        parts = boundary.relative_parts(boundary.resolve(path))
    relative = "/".join(parts)
    if not parts:
        raise FileToolError("not_a_file", f"Not a file: {boundary.relative(path) or '.'}")
    if check is not None:
        check(relative)
    fd = os.open(boundary.root, _DIR_FLAGS)
    try:
        # The real path has no link in it: any link met now was swapped in since.
        for component in parts[:-1]:
            child = _open_dir(fd, component, relative, create=create)
            os.close(fd)
            fd = child
        yield ParentDir(fd, parts[-1], relative)
    finally:
        os.close(fd)


def _resolve_beneath(root: str, parts: tuple[str, ...]) -> tuple[str, ...]:
    """The real components of ``parts``' target below ``root``, resolved by the kernel
    (``openat2`` with ``RESOLVE_BENEATH``): the deepest existing prefix is resolved with the
    links inside the workspace followed; a dangling link right after it is followed by hand
    (its target resolved again from the root); the missing rest is joined as written. A link
    that leads outside is ``path_escape``."""
    shown = "/".join(parts)
    root_fd = os.open(root, _DIR_FLAGS)
    try:
        for _ in range(_MAX_LINKS):
            real, rest = _deepest(root, root_fd, parts, shown)
            if not rest:
                return real
            try:
                target = os.readlink("/".join((*real, rest[0])), dir_fd=root_fd)
            except OSError:
                return (*real, *rest)  # not a link: the rest does not exist yet
            parts = _joined(root, real, target, rest[1:], shown)
        raise WorkspacePathError("invalid_path", f"Symlink loop: {shown}")
    finally:
        os.close(root_fd)


def _deepest(
    root: str, root_fd: int, parts: tuple[str, ...], shown: str
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The real components of the longest existing prefix of ``parts``, and the rest."""
    for end in range(len(parts), 0, -1):
        try:
            fd = beneath.openat2(root_fd, "/".join(parts[:end]), os.O_PATH, _FOLLOW_BENEATH)
        except OSError as exc:
            if exc.errno in (errno.ENOENT, errno.ENOTDIR):
                continue
            if exc.errno == errno.EXDEV:
                # Out of the workspace, or an absolute link (RESOLVE_BENEATH refuses both):
                # the by-hand resolution tells them apart and refuses only the first.
                raise _Absolute from None
            if exc.errno == errno.ELOOP:
                raise WorkspacePathError("invalid_path", f"Symlink loop: {shown}") from None
            raise _translate(exc, shown, parent=True) from None
        try:
            real = beneath.fd_path(fd)
        finally:
            os.close(fd)
        return _below(root, real, shown), parts[end:]
    return (), parts


def _joined(
    root: str, real: tuple[str, ...], target: str, rest: tuple[str, ...], shown: str
) -> tuple[str, ...]:
    """The components of a link's ``target`` (in the folder ``real``) followed by ``rest``."""
    if os.path.isabs(target):
        inside = _below(root, os.path.normpath(target), shown)
        return split_relative("/".join((*inside, *rest)) or ".")
    try:
        return split_relative("/".join((*real, target, *rest)))
    except WorkspacePathError as exc:
        raise WorkspacePathError(exc.code, f"{exc.message} (through a link: {shown})") from None


def _below(root: str, real: str, shown: str) -> tuple[str, ...]:
    """The components of the real path ``real`` below ``root``; ``path_escape`` outside."""
    if real == root:
        return ()
    prefix = root.rstrip(os.sep) + os.sep
    if not real.startswith(prefix):
        raise WorkspacePathError("path_escape", f"Path escapes the workspace: {shown}")
    return tuple(real[len(prefix) :].split(os.sep))


def _open_dir(fd: int, component: str, relative: str, *, create: bool) -> int:
    """Open ``component`` below ``fd`` as a directory, creating it when asked."""
    try:
        try:
            return os.open(component, _DIR_FLAGS, dir_fd=fd)
        except FileNotFoundError:
            if not create:
                raise
            with suppress(FileExistsError):
                os.mkdir(component, 0o777, dir_fd=fd)
            return os.open(component, _DIR_FLAGS, dir_fd=fd)
    except OSError as exc:
        # With O_DIRECTORY, Linux reports a symlink as ENOTDIR rather than ELOOP.
        if exc.errno == errno.ENOTDIR and _is_symlink(fd, component):
            raise _escape(relative) from None
        raise _translate(exc, relative, parent=True) from None


def _is_symlink(fd: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _translate(exc: OSError, relative: str, *, parent: bool) -> Exception:
    if exc.errno == errno.ELOOP:
        return _escape(relative)
    if exc.errno == errno.ENOTDIR:
        if parent:
            return FileToolError("invalid_path", f"A parent is not a directory: {relative}")
        return _escape(relative)
    if exc.errno == errno.ENOENT:
        return FileToolError("file_not_found", f"File not found: {relative}")
    if exc.errno == errno.EISDIR:
        return FileToolError("not_a_file", f"Not a file: {relative}")
    if exc.errno == errno.ENAMETOOLONG:
        return WorkspacePathError("invalid_path", "Path is too long")
    return exc


def read_text_at(parent: ParentDir, max_bytes: int) -> str:
    """The UTF-8 text of the target, at most ``max_bytes`` long."""
    try:
        fd = os.open(parent.name, _READ_FLAGS, dir_fd=parent.fd)
    except OSError as exc:
        raise _translate(exc, parent.relative, parent=False) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileToolError("not_a_file", f"Not a file: {parent.relative}")
        if info.st_size > max_bytes:
            raise _too_large(parent.relative, max_bytes)
        chunks: list[bytes] = []
        total = 0
        # The file may grow after fstat: read one byte past the cap to notice.
        while chunk := os.read(fd, min(_CHUNK, max_bytes + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                raise _too_large(parent.relative, max_bytes)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if b"\x00" in data:
        raise _binary(parent.relative)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise _binary(parent.relative) from None


def _too_large(relative: str, max_bytes: int) -> FileToolError:
    return FileToolError("file_too_large", f"File is larger than {max_bytes} bytes: {relative}")


def _binary(relative: str) -> FileToolError:
    return FileToolError("binary_file", f"Not a UTF-8 text file: {relative}")


def replace_at(parent: ParentDir, data: bytes) -> bool:
    """Atomically replace (or create) the target with ``data``; True when it was created."""
    mode = 0o666
    created = True
    try:
        info = os.stat(parent.name, dir_fd=parent.fd, follow_symlinks=False)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise _translate(exc, parent.relative, parent=False) from None
    else:
        if stat.S_ISDIR(info.st_mode):
            raise FileToolError("not_a_file", f"Not a file: {parent.relative}")
        if stat.S_ISLNK(info.st_mode):
            raise _escape(parent.relative)
        if not stat.S_ISREG(info.st_mode):
            raise FileToolError("not_a_file", f"Not a file: {parent.relative}")
        mode = stat.S_IMODE(info.st_mode)
        created = False
    temp = f".toolpolicy-{secrets.token_hex(8)}.tmp"
    try:
        fd = os.open(temp, _TEMP_FLAGS, mode, dir_fd=parent.fd)
    except OSError as exc:
        # The folder was removed after it was opened: a stable code, nothing written.
        raise _translate(exc, parent.relative, parent=True) from None
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if not created:
                os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, parent.name, src_dir_fd=parent.fd, dst_dir_fd=parent.fd)
    except BaseException as exc:
        with suppress(FileNotFoundError):
            os.unlink(temp, dir_fd=parent.fd)
        if isinstance(exc, OSError):
            raise _translate(exc, parent.relative, parent=False) from None
        raise
    return created
