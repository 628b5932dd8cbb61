"""``os.path.realpath`` of an absolute path, without its cost when no symlink is on the way.

The engine resolves every file a plain shell line reads (bash, not a file tool, opens it:
nothing checks it at the open), and the physical boundary every absolute path a call names.
``os.path.realpath`` walks the path in Python, joining and splitting strings around one
``lstat`` per component from ``/`` on, and costs several microseconds a file.
:func:`real_path` gives the same string: the same ``lstat`` of each component, left to
right, ``..`` applied to what was resolved so far, a missing component and everything after
it kept as written. It hands the path to ``os.path.realpath`` itself as soon as it meets a
symlink, and for any path it does not walk (relative, non-ASCII, a NUL): the walk only ever
answers for paths without a link, where both readings are the path's components.

One shortcut, of the kernel's own: below a component that does not exist (or is no folder),
nothing exists either, so those components are not ``lstat``-ed again until a ``..`` climbs
back above it. And one of the boundary's: the workspace root was resolved when the boundary
was made, so a path below it (``known``) starts its walk there.
"""

from __future__ import annotations

import os
import stat

__all__ = ["real_path"]

_GONE = (FileNotFoundError, NotADirectoryError)


def real_path(path: str, known: str = "") -> str:
    """``os.path.realpath(path)`` (see the module docstring). ``known``, when ``path`` lies
    below it, is a folder whose path is real already (the workspace root, resolved when the
    engine was built): its components are not looked at again."""
    if not path.startswith("/") or not path.isascii() or "\x00" in path:
        return os.path.realpath(path)
    prefixes: list[str] = []  # the resolved path after each kept component
    missing = -1  # index in ``prefixes`` of the first component that does not exist
    current = ""
    rest = path
    if known and known != "/" and path.startswith(f"{known}/"):
        for name in known.split("/")[1:]:
            current = f"{current}/{name}"
            prefixes.append(current)
        rest = path[len(known) :]
    for name in rest.split("/"):
        if not name or name == ".":
            continue
        if name == "..":
            if prefixes:
                prefixes.pop()
                if len(prefixes) <= missing:
                    missing = -1
                current = prefixes[-1] if prefixes else ""
            continue
        current = f"{current}/{name}"
        if missing < 0:
            try:
                mode = os.lstat(current).st_mode
            except _GONE:
                missing = len(prefixes)
            except OSError:
                pass  # realpath reads any other failure as "not a link" too
            else:
                if stat.S_ISLNK(mode):
                    return os.path.realpath(path)
        prefixes.append(current)
    return current or "/"
