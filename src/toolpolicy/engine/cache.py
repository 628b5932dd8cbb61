"""The policy cache: validated sources, and the compiled policy, keyed by every source file.

Two kinds of entry share one mechanism. ``load_sources`` caches the validated documents (what
the YAML, schema and pydantic work produces); ``load_compiled`` caches what ``assemble``
builds from them before a workspace and knobs are chosen: the compiled rules and their
index, and the preset table in declaration order. The hook and ``toolpolicy check`` load the
compiled entry, so a warm call neither validates nor compiles, whatever the number of rules.

An entry is used only when its own checksum is intact, its key (format, toolpolicy version,
package path, profile, policy and preset-table paths) is the one asked for, the sha256 of
every file it was built from still matches, and the code that built it has not changed (the
modification time and size of the core and compile modules and of every module its types
come from: a development install keeps its version while its code changes); anything else — a
stale, corrupt, truncated, unreadable or foreign entry — is ignored, the policy is built
again, and the entry rewritten.
The workspace and the knobs are not part of an entry: they are applied on each call.

The format is a pickle, read by an unpickler that resolves nothing but toolpolicy's own value
types (named tuples, enums, ``CapabilitySet``) and this module's two rebuilders: an entry
cannot name ``os.system`` or any other callable. An entry is read only from a folder and a file
owned by the current user and writable by no one else (the folder is created ``0700``). The
checksum catches accidental corruption, not tampering: whoever can rewrite an entry runs as
the user and could edit the policy files themselves (see SECURITY.md).
"""

from __future__ import annotations

import io
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum
from types import MappingProxyType

from .._version import __version__
from ..compile.capabilities import CapabilitySet
from ..compile.source import SourceDocument
from ..core.json_text import encoder
from ..core.lean_typing import TYPE_CHECKING
from ..core.sha256 import sha256
from .builtin import BUILTIN_PROFILE_NAMES, layer_path
from .selection import CompiledSources, PolicySources, compile_sources, gather_sources

if TYPE_CHECKING:
    from typing import Any, TypeVar

    T = TypeVar("T")

try:  # the C unpickler alone: ``pickle`` itself costs the hook a millisecond to import
    from _pickle import Unpickler, UnpicklingError
except ImportError:  # pragma: no cover - an interpreter without the accelerator
    from pickle import Unpickler, UnpicklingError

__all__ = ["KEEP_ENTRIES", "cache_dir", "load_compiled", "load_sources"]

_FORMAT = 2
_MAGIC = b"toolpolicy-cache\n"
_DIGEST = 32
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_KEY_JSON = encoder(sort_keys=True, separators=(",", ":"))
"""The installed package: another install ships its own built-in files."""


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


def load_sources(
    profile: str = "P03",
    policies: Sequence[str | os.PathLike[str]] = (),
    presets: str | os.PathLike[str] | None = None,
    directory: str | os.PathLike[str] | None = None,
) -> PolicySources:
    """``gather_sources`` behind the cache: the validated documents of a selection."""
    name, paths, table = _selection(profile, policies, presets)
    key = {"kind": "sources", "profile": name, "policies": paths, "presets": table}

    def build() -> tuple[PolicySources, tuple[SourceDocument, ...]]:
        sources = gather_sources(name, paths, table)
        return sources, sources.documents

    return _cached(key, build, directory)


def load_compiled(
    profile: str = "P03",
    policies: Sequence[str | os.PathLike[str]] = (),
    presets: str | os.PathLike[str] | None = None,
    directory: str | os.PathLike[str] | None = None,
) -> CompiledSources:
    """``compile_sources`` behind the cache: what the hook and the CLI hand to ``assemble``."""
    name, paths, table = _selection(profile, policies, presets)
    key = {"kind": "compiled", "profile": name, "policies": paths, "presets": table}

    def build() -> tuple[CompiledSources, tuple[SourceDocument, ...]]:
        sources = load_sources(name, paths, table, directory)
        return compile_sources(sources), sources.documents

    return _cached(key, build, directory)


def _selection(
    profile: str,
    policies: Sequence[str | os.PathLike[str]],
    presets: str | os.PathLike[str] | None,
) -> tuple[str, list[str], str | None]:
    builtin = profile.upper() in BUILTIN_PROFILE_NAMES or not os.path.exists(profile)
    name = profile if builtin else os.path.abspath(profile)
    paths = [os.path.abspath(layer_path(p)) for p in policies]
    table = os.path.abspath(presets) if presets is not None else None
    return name, paths, table


def _cached(
    key: Mapping[str, Any],
    build: Callable[[], tuple[T, Sequence[SourceDocument]]],
    directory: str | os.PathLike[str] | None,
) -> T:
    """The value for ``key``: from its entry when every file still matches, else ``build()``
    (whose documents name the files the value was built from)."""
    folder = os.fspath(directory) if directory is not None else cache_dir()
    full_key = {"format": _FORMAT, "version": __version__, "package": _PACKAGE, **key}
    canonical = _KEY_JSON(full_key).encode()
    entry = os.path.join(folder, sha256(canonical).hexdigest()[:40] + ".entry")
    found = _read(entry, full_key)
    if found is not None:
        value: T = found
        return value
    value, documents = build()
    _write(entry, full_key, value, documents)
    return value


def _file_sha256(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return sha256(handle.read()).hexdigest()
    except OSError:
        return None


def _read(entry: str, key: Mapping[str, Any]) -> Any:
    try:
        if not _private_to_us(os.stat(os.path.dirname(entry))):
            return None
        fd = os.open(entry, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with open(fd, "rb") as handle:
            if not _private_to_us(os.fstat(fd)):
                return None
            data = handle.read()
        header = len(_MAGIC) + _DIGEST
        body = data[header:]
        if data[: len(_MAGIC)] != _MAGIC or data[len(_MAGIC) : header] != _digest(body):
            return None
        found_key, files, code, value = _ValuesOnly(body).load()
        if found_key != key or _code_stamp(name for name, *_ in code) != code:
            return None
        for path, sha in files:
            if _file_sha256(path) != sha:
                return None
        return _ValuesOnly(value).load()
    except Exception:
        # Missing, unreadable, truncated, corrupt, foreign or from another format: rebuilt.
        return None


def _code_stamp(modules: Iterable[str]) -> list[tuple[str, int, int]]:
    """Each module's name, and its source file's modification time and size (``-1``, ``-1``
    for a module without one, which then never matches)."""
    stamp = []
    for name in modules:
        # ``toolpolicy.a.b`` -> ``<package>/a/b``: string work, not ``os.path.join`` (a warm
        # call stamps every core and compile module)
        base = _PACKAGE + os.sep + name.partition(".")[2].replace(".", os.sep)
        for path in (base + ".py", base + os.sep + "__init__.py"):
            try:
                info = os.stat(path)
            except OSError:
                continue
            stamp.append((name, info.st_mtime_ns, info.st_size))
            break
        else:
            stamp.append((name, -1, -1))
    return stamp


def _private_to_us(info: os.stat_result) -> bool:
    """Owned by the current user and writable by no one else."""
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


def _digest(body: bytes) -> bytes:
    return sha256(body).digest()


def _write(
    entry: str, key: Mapping[str, Any], value: object, documents: Sequence[SourceDocument]
) -> None:
    files = []
    for document in documents:
        path = os.path.abspath(document.path)
        sha = _file_sha256(path)
        if sha != document.sha256:
            return  # the file changed while loading; do not cache a mix
        files.append((path, sha))
    import pickle  # only when an entry is written, never on the warm path
    import tempfile

    buffer = io.BytesIO()
    try:
        _pickler(pickle.Pickler)(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
        reader = _ValuesOnly(buffer.getvalue())
        reader.load()  # what a warm call will read, and the modules it names
    except (pickle.PicklingError, UnpicklingError, TypeError, AttributeError):
        return  # a value this format cannot hold is rebuilt on every call instead
    # The code the value was built by and is read with: the modules it names, the core and
    # compile layers. A development install keeps its version while this code changes.
    built_by = reader.modules | {
        name for name in sys.modules if name.startswith(("toolpolicy.core.", "toolpolicy.compile."))
    }
    body = pickle.dumps(
        (dict(key), files, _code_stamp(sorted(built_by)), buffer.getvalue()),
        protocol=pickle.HIGHEST_PROTOCOL,
    )
    folder = os.path.dirname(entry)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if not _private(folder):
            return
        fd, temp = tempfile.mkstemp(prefix=".entry-", dir=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(_MAGIC + _digest(body) + body)
            os.replace(temp, entry)
        except BaseException:
            os.unlink(temp)
            raise
        _prune(folder, keep=entry)
    except OSError:
        pass  # a cache that cannot be written only costs speed


KEEP_ENTRIES = 256
"""How many entries a cache folder keeps. Each entry written removes the oldest beyond these,
the entries of the earlier JSON format and writers' temporary files left for an hour, so that
editing a policy day after day does not fill the disk; an entry removed while still in use is
rebuilt by its next call."""

_HEX = "0123456789abcdef"
_STALE_TEMP_SECONDS = 3600


def _prune(folder: str, keep: str) -> None:
    """Remove from ``folder`` (private, ours) what :data:`KEEP_ENTRIES` says, never ``keep``
    and never a file whose name is not one this module writes."""
    now = time.time()
    entries: list[tuple[float, str]] = []
    doomed: list[str] = []
    with os.scandir(folder) as found:
        for item in found:
            if not item.is_file(follow_symlinks=False):
                continue
            stem, _, suffix = item.name.partition(".")
            ours = len(stem) == 40 and not stem.strip(_HEX)
            if ours and suffix == "entry":
                entries.append((item.stat(follow_symlinks=False).st_mtime, item.path))
            elif (ours and suffix == "json") or (
                item.name.startswith(".entry-")
                and now - item.stat(follow_symlinks=False).st_mtime > _STALE_TEMP_SECONDS
            ):
                doomed.append(item.path)
    entries.sort(reverse=True)
    doomed.extend(path for _, path in entries[KEEP_ENTRIES:] if path != keep)
    import contextlib  # only when an entry is written, never on the warm path

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


def _pickler(base: type[Any]) -> type[Any]:
    """``base`` (the standard pickler) writing only what ``_ValuesOnly`` reads back."""

    class Pickler(base):  # type: ignore[misc]
        def reducer_override(self, obj: object) -> Any:
            if isinstance(obj, MappingProxyType):
                return (_frozen_mapping, (dict(obj),))
            if isinstance(obj, Enum):  # by value: no ``getattr`` to resolve when read
                return (type(obj), (obj.value,))
            return NotImplemented

    return Pickler


def _frozen_mapping(items: dict[Any, Any]) -> Mapping[Any, Any]:
    """Rebuild a read-only mapping (``MappingProxyType`` cannot be pickled itself)."""
    return MappingProxyType(items)


_REBUILDERS: Mapping[tuple[str, str], object] = {
    (__name__, "_frozen_mapping"): _frozen_mapping,
}


class _ValuesOnly(Unpickler):
    """Resolves toolpolicy's value types and this module's rebuilders, nothing else; records
    the modules they come from."""

    def __init__(self, data: bytes) -> None:
        super().__init__(io.BytesIO(data))
        self.modules: set[str] = set()

    def find_class(self, module: str, name: str) -> Any:
        rebuilder = _REBUILDERS.get((module, name))
        if rebuilder is not None:
            self.modules.add(module)
            return rebuilder
        if module.startswith("toolpolicy.") and "." not in name:
            found = getattr(__import__(module, fromlist=[name]), name, None)
            if (
                isinstance(found, type)
                and (issubclass(found, (tuple, Enum)) or found is CapabilitySet)
                and not issubclass(found, BaseException)
            ):
                self.modules.add(module)
                return found
        raise UnpicklingError(f"{module}.{name} is not a toolpolicy value type")
