"""The bubblewrap command line that confines a shell call to its sandbox mode.

Inside the sandbox ``/`` is bound read-only, ``/dev`` is a fresh device tree (``/dev/null``
writable), ``/proc`` is the sandbox's own, and the network, PIDs and IPC are unshared.
``workspace-write`` adds a private tmpfs on each temp root (``/tmp``, ``/var/tmp``) and binds
the workspace writable; ``read-only`` leaves everything read-only. In both, the workspace's
``.git`` and every protected path (the policy files in use) are bound read-only again on top.
``danger-full-access`` has no sandbox: ``bwrap_argv`` refuses it, the runner runs unconfined.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..core.errors import PermissionContractError
from ..core.vocabulary import SandboxMode

__all__ = ["TEMP_ROOTS", "bwrap_argv"]

TEMP_ROOTS = ("/tmp", "/var/tmp")


def _protected(workspace: str, read_only_paths: Sequence[str]) -> list[str]:
    """Real paths to re-bind read-only: the workspace's ``.git`` and the given paths."""
    paths = [os.path.join(workspace, ".git")]
    paths.extend(os.path.join(workspace, p) for p in read_only_paths)
    seen: dict[str, None] = {}
    for path in paths:
        seen.setdefault(os.path.realpath(path), None)
    return list(seen)


def bwrap_argv(
    bwrap: str,
    mode: SandboxMode,
    workspace: str,
    command: Sequence[str],
    *,
    read_only_paths: Sequence[str] = (),
    status_fd: int | None = None,
) -> list[str]:
    """The argv that runs ``command`` under bubblewrap at ``bwrap`` in ``workspace``.

    ``read_only_paths`` may be absolute or relative to the workspace; paths that do not
    exist are skipped. ``status_fd`` receives bubblewrap's JSON status lines.
    """
    if mode is SandboxMode.DANGER_FULL_ACCESS:
        raise PermissionContractError("danger-full-access runs without a sandbox")
    root = os.path.realpath(workspace)
    argv = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    if mode is SandboxMode.WORKSPACE_WRITE:
        for temp in TEMP_ROOTS:
            if os.path.isdir(temp):
                argv += ["--tmpfs", temp]
        argv += ["--bind", root, root]
    else:
        argv += ["--ro-bind", root, root]
    for path in _protected(root, read_only_paths):
        argv += ["--ro-bind-try", path, path]
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
