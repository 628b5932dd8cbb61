"""The bubblewrap command line that confines a shell call to its sandbox mode.

Inside the sandbox ``/`` is bound read-only, ``/dev`` is a fresh device tree (``/dev/null``
writable), ``/proc`` is the sandbox's own, and the network, PIDs and IPC are unshared.
``workspace-write`` adds a private tmpfs on each temp root (``/tmp``, ``/var/tmp``) and binds
the workspace writable; ``read-only`` leaves everything read-only. ``danger-full-access`` has
no sandbox: ``bwrap_argv`` refuses it, the runner runs unconfined.

Under ``workspace-write`` the protected set stays read-only (``protected_binds``):

- each existing entry (a policy file, the folder holding one, ``.git``, an agent's settings)
  is bound read-only onto itself — a mount point, so it cannot be renamed or removed either;
- each folder above an entry is bound onto itself, writable: a mount point cannot be renamed,
  so ``mv policies p.old && mkdir policies`` fails;
- an entry that does not exist (``.git`` in a folder that is not a repository) gets an empty
  read-only placeholder — a folder, or a file where the entry is a file whose folder exists —
  so the command cannot create it. bubblewrap makes the mount point in the workspace; it is
  removed after the call if it is still the empty placeholder. A file standing where one of
  the entry's folders should be (a file named ``.claude``) is bound read-only instead.
"""

from __future__ import annotations

import atexit
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress

from ..core.errors import PermissionContractError
from ..core.vocabulary import SandboxMode
from .protected import ProtectedSet

__all__ = ["TEMP_ROOTS", "bwrap_argv", "protected_binds"]

TEMP_ROOTS = ("/tmp", "/var/tmp")


def bwrap_argv(
    bwrap: str,
    mode: SandboxMode,
    workspace: str,
    command: Sequence[str],
    *,
    binds: Sequence[str] = (),
    status_fd: int | None = None,
) -> list[str]:
    """The argv that runs ``command`` under bubblewrap at ``bwrap`` in ``workspace``.

    ``binds`` (from ``protected_binds``) come after the workspace's own bind, so they win.
    ``status_fd`` receives bubblewrap's JSON status lines.
    """
    if mode is SandboxMode.DANGER_FULL_ACCESS:
        raise PermissionContractError("danger-full-access runs without a sandbox")
    root = os.path.realpath(workspace)
    argv = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    if mode is SandboxMode.WORKSPACE_WRITE:
        for temp in TEMP_ROOTS:
            if os.path.isdir(temp):
                argv += ["--tmpfs", temp]
        argv += ["--bind", root, root, *binds]
    else:
        argv += ["--ro-bind", root, root]
    argv += [
        "--unshare-net",
        "--unshare-pid",
        "--unshare-ipc",
        "--die-with-parent",
        "--new-session",
        "--chdir",
        root,
    ]
    if status_fd is not None:
        argv += ["--json-status-fd", str(status_fd)]
    return [*argv, "--", *command]


@contextmanager
def protected_binds(workspace: str, protected: ProtectedSet) -> Iterator[list[str]]:
    """The bubblewrap arguments that keep ``protected`` read-only in a writable workspace,
    valid inside the ``with`` block; placeholders bubblewrap made are removed on exit."""
    root = os.path.realpath(workspace)
    args: list[str] = []
    for anchor in protected.anchors():
        real = _inside(root, anchor)
        if real is not None and os.path.isdir(real) and not os.path.islink(real):
            args += ["--bind", real, real]
    placeholders: dict[str, bool] = {}
    bound: set[str] = set()
    for entry in sorted(protected.entries, key=lambda e: e.path.count("/")):
        real = _inside(root, entry.path)
        if real is None or real in bound:
            continue
        bound.add(real)
        if os.path.lexists(real):
            args += ["--ro-bind", real, real]
            continue
        top = _first_missing(root, real)
        if os.path.lexists(top):
            # A file stands where a folder of the entry should be: keep it from being replaced.
            args += ["--ro-bind", top, top]
            continue
        if top in placeholders:
            continue
        folder = entry.folder or top != real
        placeholders[top] = folder
        empty_folder, empty_file = _empty_sources()
        args += ["--ro-bind", empty_folder if folder else empty_file, top]
    try:
        yield args
    finally:
        for path, folder in placeholders.items():
            _remove_placeholder(path, folder)


_EMPTY: tuple[str, str] | None = None


def _empty_sources() -> tuple[str, str]:
    """An empty read-only folder and file to bind as placeholders, made once per process
    (in a private temporary folder removed at exit)."""
    global _EMPTY
    if _EMPTY is None or not os.path.isdir(_EMPTY[0]):
        spare = tempfile.mkdtemp(prefix="toolpolicy-sandbox-")
        folder, file = os.path.join(spare, "folder"), os.path.join(spare, "file")
        os.mkdir(folder, 0o555)
        os.close(os.open(file, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o444))
        atexit.register(shutil.rmtree, spare, True)
        _EMPTY = (folder, file)
    return _EMPTY


def _inside(root: str, relative: str) -> str | None:
    """The real path of ``relative`` (existing links followed) when it stays in ``root``."""
    real = os.path.realpath(os.path.join(root, relative))
    return real if real.startswith(root.rstrip(os.sep) + os.sep) else None


def _first_missing(root: str, real: str) -> str:
    """The outermost component of ``real`` (below ``root``) that does not exist, or the
    first that exists but is not a folder although more components follow it."""
    current = root.rstrip(os.sep)
    parts = real[len(current) + 1 :].split(os.sep)
    for i, part in enumerate(parts):
        current = os.path.join(current, part)
        if not os.path.lexists(current):
            return current
        if i < len(parts) - 1 and not os.path.isdir(current):
            return current
    return real


def _remove_placeholder(path: str, folder: bool) -> None:
    with suppress(OSError):
        if folder:
            os.rmdir(path)  # only while it is still empty
            return
        info = os.lstat(path)
        if stat.S_ISREG(info.st_mode) and info.st_size == 0:
            os.unlink(path)
