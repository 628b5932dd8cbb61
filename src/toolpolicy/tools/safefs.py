"""File operations inside the workspace that a symlink swapped in mid-way cannot redirect.

A path is first resolved by ``WorkspaceBoundary`` (so it names a real path inside the
workspace with no symlink in it), then opened again from the workspace's directory file
descriptor one component at a time with ``O_NOFOLLOW``: a symlink that appears between the
check and the open makes the open fail instead of being followed. Writes go to a temporary
file in the same directory and are renamed over the target, so a reader never sees half a file.

Platform errors become ``FileToolError`` with a stable code (``file_not_found``,
``not_a_file``, ``file_too_large``, ``binary_file``, ``invalid_path``, ``path_escape``);
unknown ``OSError`` propagates.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass

from ..core.errors import WorkspacePathError
from .workspace import WorkspaceBoundary

__all__ = ["FileToolError", "ParentDir", "open_parent", "read_text_at", "replace_at"]

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: opening a FIFO for reading must not hang the tool; regular files ignore it.
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_CHUNK = 64 * 1024


class FileToolError(Exception):
    """A known file problem; ``code`` is the stable tool error code."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class ParentDir:
    """An open directory inside the workspace and the name of the target within it."""

    fd: int
    name: str
    relative: str


def _escape(relative: str) -> FileToolError:
    return FileToolError("path_escape", f"Path changed while it was opened: {relative}")


@contextmanager
def open_parent(boundary: WorkspaceBoundary, path: str, *, create: bool) -> Iterator[ParentDir]:
    """Open the directory that holds ``path``'s target, without following any symlink.

    ``create`` makes missing parent directories. The root itself is ``not_a_file``.
    """
    real = boundary.resolve(path)
    parts = boundary.relative_parts(real)
    relative = "/".join(parts)
    if not parts:
        raise FileToolError("not_a_file", f"Not a file: {boundary.relative(path) or '.'}")
    fd = os.open(boundary.root, _DIR_FLAGS)
    try:
        for component in parts[:-1]:
            child = _open_dir(fd, component, relative, create=create)
            os.close(fd)
            fd = child
        yield ParentDir(fd, parts[-1], relative)
    finally:
        os.close(fd)


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
