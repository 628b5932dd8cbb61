"""``openat2(2)`` through ``ctypes``: resolve a path beneath a directory fd in the kernel.

With ``RESOLVE_BENEATH`` the kernel follows symlinks but refuses (``EXDEV``) any step that
would leave the directory, absolute link targets included, and ``RESOLVE_NO_MAGICLINKS``
refuses ``/proc/self/fd``-style links. ``RESOLVE_NO_SYMLINKS`` refuses every symlink.
Linux ≥ 5.6 has it; ``OPENAT2_AVAILABLE`` says whether this process can use it (the syscall
answers and ``/proc/self/fd`` tells where an fd points). Elsewhere the file tools walk one
component at a time with ``O_NOFOLLOW`` (see ``safefs``).
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys
from typing import Any

__all__ = [
    "OPENAT2_AVAILABLE",
    "RESOLVE_BENEATH",
    "RESOLVE_NO_MAGICLINKS",
    "RESOLVE_NO_SYMLINKS",
    "fd_path",
    "openat2",
]

RESOLVE_NO_MAGICLINKS = 0x02
RESOLVE_NO_SYMLINKS = 0x04
RESOLVE_BENEATH = 0x08
# openat2 has the same number on every Linux architecture (the unified syscall table).
_SYS_OPENAT2 = 437


class _OpenHow(ctypes.Structure):
    _fields_ = (
        ("flags", ctypes.c_uint64),
        ("mode", ctypes.c_uint64),
        ("resolve", ctypes.c_uint64),
    )


def _libc_syscall() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).syscall
    except (OSError, AttributeError):
        return None
    function.restype = ctypes.c_long
    return function


_SYSCALL = _libc_syscall()


def openat2(dir_fd: int, path: str, flags: int, resolve: int, mode: int = 0) -> int:
    """Open ``path`` relative to ``dir_fd``; raises ``OSError`` with the kernel's errno."""
    if _SYSCALL is None:
        raise OSError(errno.ENOSYS, "openat2 is not available")
    if "\x00" in path:
        raise OSError(errno.EINVAL, "embedded NUL in path", path)  # C would cut the path there
    how = _OpenHow(flags | os.O_CLOEXEC, mode, resolve)
    fd = int(
        _SYSCALL(
            ctypes.c_long(_SYS_OPENAT2),
            ctypes.c_int(dir_fd),
            ctypes.c_char_p(os.fsencode(path)),
            ctypes.byref(how),
            ctypes.c_size_t(ctypes.sizeof(how)),
        )
    )
    if fd < 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), path)
    return fd


def fd_path(fd: int) -> str:
    """The absolute path the kernel has for the open ``fd`` (``/proc/self/fd``)."""
    return os.readlink(f"/proc/self/fd/{fd}")


def _probe() -> bool:
    if _SYSCALL is None:
        return False
    root = os.open("/", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fd = openat2(root, ".", os.O_PATH | os.O_DIRECTORY, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)
    except OSError:
        return False
    finally:
        os.close(root)
    try:
        return fd_path(fd) == "/"
    except OSError:
        return False
    finally:
        os.close(fd)


OPENAT2_AVAILABLE = _probe()
