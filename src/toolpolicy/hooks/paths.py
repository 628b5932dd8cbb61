"""A path from an agent's tool input, resolved the way the agent's own open will read it.

The hook has no handler: the agent opens the file itself. So every spelling that names a
file by way of a process is resolved to the file before any rule sees it:

* ``~`` and ``~user`` are the home folders; a relative path is relative to the event's ``cwd``;
* ``/proc/self/cwd`` (``thread-self`` too) is the agent's working folder, the event's ``cwd``;
  ``/proc/self/root`` is ``/``; ``/proc/<pid>/cwd|root|fd/N`` are read from the kernel;
* ``/dev/fd/N``, ``/dev/std*`` and ``/proc/self/fd/N`` name a descriptor of the agent's own
  process, which the hook cannot see: such a path is *unresolvable* (``None``);
* a ``..`` after a symlinked folder climbs from the link's target (the whole path is
  resolved physically); without ``..`` the path keeps the names as written, so a rule on a
  link's name still sees it, and the engine resolves the target itself.

The result is workspace-relative when the file is inside the workspace (as written or once
resolved), otherwise absolute.
"""

from __future__ import annotations

import os

__all__ = ["agent_path"]

_PROCESS = r"/proc/(self|thread-self|[0-9]+)(?:/task/[0-9]+)?/(cwd|root|fd/[0-9]+)"
_DESCRIPTOR = r"/dev/(?:fd/[0-9]+|stdin|stdout|stderr)"
_SPELLINGS = ("/proc/", "/dev/")
"""Where every process spelling starts: other paths skip the patterns (compiled on first use,
as ``re`` caches them, not at import: most hook events name no such path)."""
_MAX_REWRITES = 8


def agent_path(raw: str, cwd: str, workspace: str) -> str | None:
    """``raw`` as the agent will open it: workspace-relative inside, absolute outside, and
    ``None`` when it names one of the agent's open descriptors."""
    path = os.path.expanduser(raw) if raw.startswith("~") else raw
    if not os.path.isabs(path):
        path = os.path.join(cwd, path)
    for _ in range(_MAX_REWRITES):
        path = "/" + os.path.normpath(path).lstrip("/") if "/.." not in path else path
        replaced = _rewrite(path, cwd)
        if replaced is None:
            return None
        if replaced == path:
            break
        path = replaced
    else:
        return None
    if ".." in path.split("/"):
        path = os.path.realpath(path)
    else:
        path = "/" + os.path.normpath(path).lstrip("/")
    for root in dict.fromkeys((os.path.normpath(workspace), os.path.realpath(workspace))):
        inside = _below(root, path)
        if inside is not None:
            return inside
    real = os.path.realpath(path)
    inside = _below(os.path.realpath(workspace), real)
    return inside if inside is not None else path


def _rewrite(path: str, cwd: str) -> str | None:
    """One process spelling at the start of ``path`` replaced; ``None``: a descriptor."""
    if not path.startswith(_SPELLINGS):
        return path
    if _ends_segment(path, _DESCRIPTOR):
        return None
    import re

    found = re.match(_PROCESS, path)
    if found is None or not _ends_segment(path, _PROCESS):
        return path
    who, what = found.group(1), found.group(2)
    rest = path[found.end() :]
    if who in ("self", "thread-self"):
        if what == "cwd":
            return cwd + rest
        if what == "root":
            return "/" + rest.lstrip("/")
        return None
    try:
        named = os.readlink(f"/proc/{who}/{what}")
    except OSError:
        return None
    if not named.startswith("/"):
        return None  # a pipe, a socket, a deleted file: nothing a rule can name
    return named.rstrip("/") + rest if named != "/" else "/" + rest.lstrip("/")


def _ends_segment(path: str, pattern: str) -> bool:
    import re

    found = re.match(pattern, path)
    return found is not None and (len(path) == found.end() or path[found.end()] == "/")


def _below(root: str, path: str) -> str | None:
    if path == root:
        return "."
    prefix = root if root.endswith("/") else root + "/"
    return path[len(prefix) :] if path.startswith(prefix) else None
