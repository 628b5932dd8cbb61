"""The files of the policy cache: where they live, how one is framed, read and written.

Two kinds of file share the cache folder: the compiled selections (``.entry``,
:mod:`toolpolicy.engine.cache`) and the hook's answer lanes (``.lane``,
:mod:`toolpolicy.hooks.answer_lane`). Both are framed the same way — a magic line, the
sha256 of the body, the body — and read only from a folder and a file owned by the current
user and writable by no one else (the folder is created ``0700``). Both say what they were
built from: the sha256 of each policy file and the modification time and size of every file
and folder of the package and its shipped data, and of the install of the libraries that
read a policy (:func:`code_stamp`), checked on every read.

Standard library only, and nothing that imports slowly: the hook's answer lane reads here on
every tool call.
"""

from __future__ import annotations

import os
import sys
import time

from ..core.lean_typing import TYPE_CHECKING
from ..core.sha256 import sha256

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "KEEP_ENTRIES",
    "PACKAGE",
    "cache_dir",
    "code_stamp",
    "entry_path",
    "file_sha256",
    "files_hold",
    "read_entry",
    "stamp_holds",
    "write_entry",
]

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The installed package: another install ships its own built-in files."""
_SOURCE_TREE = os.path.dirname(os.path.dirname(os.path.realpath(PACKAGE)))
_SHIPPED = ("policy", "profiles")
"""The folders of shipped data an editable install reads from the source tree
(``language.resources.data_dir``; a wheel carries them in the package's ``_data``)."""
_READERS = ("yaml", "pydantic", "pydantic_core")
"""The libraries that read a policy file: PyYAML parses it, pydantic (and its compiled core)
validates it. Another version may read the same file otherwise."""
_EXTENSIONS = (".so", ".pyd")
_MAGIC = b"toolpolicy-cache\n"
_DIGEST = 32
_SUFFIXES = ("entry", "lane")

KEEP_ENTRIES = 256
"""How many files of each kind a cache folder keeps. Each file written removes the oldest of
its kind beyond these, the entries of the earlier JSON format and writers' temporary files
left for an hour, so that editing a policy day after day does not fill the disk; a file
removed while still in use is rebuilt by its next call."""

_HEX = "0123456789abcdef"
_STALE_TEMP_SECONDS = 3600


def cache_dir() -> str:
    """``$TOOLPOLICY_CACHE_DIR``, else ``$XDG_CACHE_HOME/toolpolicy`` or ``~/.cache/toolpolicy``.

    Plain ``os.path`` strings, not ``pathlib``: the hook reads the cache on every tool call and
    does not pay for importing ``pathlib``.
    """
    explicit = os.environ.get("TOOLPOLICY_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "toolpolicy")


def entry_path(folder: str, key: bytes, suffix: str) -> str:
    """The file of ``key`` (its canonical bytes) in ``folder``: 40 hex digits, ``.suffix``."""
    return os.path.join(folder, sha256(key).hexdigest()[:40] + "." + suffix)


def file_sha256(path: str) -> str | None:
    """The sha256 (hex) of a file's bytes, ``None`` when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            return sha256(handle.read()).hexdigest()
    except OSError:
        return None


def files_hold(files: Iterable[tuple[str, str]]) -> bool:
    """Whether every file of ``files`` (path, sha256) still has that sha256."""
    return all(file_sha256(path) == sha for path, sha in files)


def code_stamp() -> list[tuple[str, int, int]]:
    """What built an entry and reads it, each file or folder with its modification time and
    size: every file and folder of the installed package and of its shipped data — the code
    and the built-in profiles, layers and presets (a development install keeps its version
    while these change, and a file added to a folder, another built-in profile or a ``_data``
    folder that takes over from the source tree's, changes the folder's time) — and the
    libraries that read a policy file (:func:`_reader_paths`)."""
    found = []
    for top in (PACKAGE, *(os.path.join(_SOURCE_TREE, name) for name in _SHIPPED)):
        if not os.path.isdir(top):
            continue
        for folder, folders, names in os.walk(top):
            folders[:] = sorted(f for f in folders if f != "__pycache__")
            found.append(folder)
            found += [os.path.join(folder, name) for name in sorted(names)]
    return _stamped(found + _reader_paths())


def _reader_paths() -> list[str]:
    """Where each library of :data:`_READERS` is installed (as loaded, else as an import
    would find it, without importing it): the folder that holds it (an install or removal
    there renames a ``.dist-info`` folder), its own folder (an upgrade removes and writes its
    files), its ``__init__.py`` and its compiled extensions. Another version of one changes
    one of these; an edit in place of one of its other files does not."""
    found: list[str] = []
    for name in _READERS:
        module = sys.modules.get(name)
        where = getattr(module, "__file__", None)
        folder = os.path.dirname(where) if where else _importable(name)
        if folder is None:
            continue
        found += [os.path.dirname(folder), folder]
        try:
            entries = os.listdir(folder)
        except OSError:
            continue  # the folder's own time and size still stand for it
        found += sorted(
            os.path.join(folder, entry)
            for entry in entries
            if entry == "__init__.py" or entry.endswith(_EXTENSIONS)
        )
    return list(dict.fromkeys(found))


def _importable(name: str) -> str | None:
    """The folder of the package ``name`` in the first entry of ``sys.path`` that holds one."""
    for entry in sys.path:
        if not entry:  # the current folder, which may be gone
            try:
                entry = os.getcwd()
            except OSError:
                continue
        folder = os.path.join(entry, name)
        if os.path.isfile(os.path.join(folder, "__init__.py")):
            return folder
    return None


def stamp_holds(stamp: Iterable[tuple[str, int, int]]) -> bool:
    """Whether every file of ``stamp`` (:func:`code_stamp`) still has its time and size."""
    stamp = list(stamp)
    return _stamped([path for path, *_ in stamp]) == stamp


def _stamped(paths: Iterable[str]) -> list[tuple[str, int, int]]:
    """Each file's path, modification time and size (``-1``, ``-1`` for one that is gone,
    which then never matches)."""
    stamp = []
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            stamp.append((path, -1, -1))
            continue
        stamp.append((path, info.st_mtime_ns, info.st_size))
    return stamp


def read_entry(entry: str) -> bytes | None:
    """The body of ``entry`` when its folder and itself are private to us and its digest
    holds; ``None`` for anything else (missing, foreign, truncated, corrupt)."""
    try:
        if not _private_to_us(os.stat(os.path.dirname(entry))):
            return None
        fd = os.open(entry, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with open(fd, "rb") as handle:
            if not _private_to_us(os.fstat(fd)):
                return None
            data = handle.read()
    except OSError:
        return None
    header = len(_MAGIC) + _DIGEST
    body = data[header:]
    if data[: len(_MAGIC)] != _MAGIC or data[len(_MAGIC) : header] != sha256(body).digest():
        return None
    return body


def write_entry(entry: str, body: bytes) -> None:
    """Write ``entry`` whole (a temporary file, then renamed) in a private folder, and prune
    the folder; a cache that cannot be written only costs speed."""
    import tempfile  # only when a file is written, never on the warm path

    folder = os.path.dirname(entry)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if not _private(folder):
            return
        fd, temp = tempfile.mkstemp(prefix=".entry-", dir=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(_MAGIC + sha256(body).digest() + body)
            os.replace(temp, entry)
        except BaseException:
            os.unlink(temp)
            raise
        _prune(folder, keep=entry)
    except OSError:
        pass


def _private_to_us(info: os.stat_result) -> bool:
    """Owned by the current user and writable by no one else."""
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


def _prune(folder: str, keep: str) -> None:
    """Remove from ``folder`` (private, ours) what :data:`KEEP_ENTRIES` says, never ``keep``
    and never a file whose name is not one this module writes."""
    now = time.time()
    kinds: dict[str, list[tuple[float, str]]] = {suffix: [] for suffix in _SUFFIXES}
    doomed: list[str] = []
    with os.scandir(folder) as found:
        for item in found:
            if not item.is_file(follow_symlinks=False):
                continue
            stem, _, suffix = item.name.partition(".")
            ours = len(stem) == 40 and not stem.strip(_HEX)
            if ours and suffix in kinds:
                kinds[suffix].append((item.stat(follow_symlinks=False).st_mtime, item.path))
            elif (ours and suffix == "json") or (
                item.name.startswith(".entry-")
                and now - item.stat(follow_symlinks=False).st_mtime > _STALE_TEMP_SECONDS
            ):
                doomed.append(item.path)
    for files in kinds.values():
        files.sort(reverse=True)
        doomed.extend(path for _, path in files[KEEP_ENTRIES:] if path != keep)
    import contextlib  # only when a file is written, never on the warm path

    for path in doomed:
        with contextlib.suppress(OSError):  # another process pruned it first
            os.unlink(path)


def _private(folder: str) -> bool:
    """Narrow ``folder`` to ``0700`` when it is ours and open to others; False for a shared
    folder (sticky, as ``/tmp`` is, or another user's), which is left as it is, unused."""
    info = os.stat(folder)
    if info.st_uid != os.getuid() or info.st_mode & 0o1000:
        return False
    if info.st_mode & 0o077:
        os.chmod(folder, 0o700)
    return True
