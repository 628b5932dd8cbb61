"""The policy cache: validated sources, and the compiled policy, keyed by every source file.

Two kinds of entry share one mechanism. ``load_sources`` caches the validated documents (what
the YAML, schema and pydantic work produces); ``load_compiled`` caches what ``assemble``
builds from them before a workspace and knobs are chosen: the compiled rules and their
index, and the preset table in declaration order. The hook and ``toolpolicy check`` load the
compiled entry, so a warm call neither validates nor compiles, whatever the number of rules.

An entry is used only when its own checksum is intact, its key (format, toolpolicy version,
package path, interpreter version, profile, policy and preset-table paths) is the one asked
for, the sha256 of every file it was built from still matches, and the code that built it
has not changed (the modification time and size of every source file of the package — a
development install keeps its version while its code changes — and of the install of the
libraries that read a policy); anything else — a
stale, corrupt, truncated, unreadable or foreign entry — is ignored, the policy is built
again, and the entry rewritten. The files themselves (framing, privacy, pruning) are
:mod:`toolpolicy.engine.cache_files`.
The workspace and the knobs are not part of an entry: they are applied on each call.

The format is a pickle, read by an unpickler that resolves nothing but toolpolicy's own value
types (named tuples, enums, ``CapabilitySet``) and this module's two rebuilders: an entry
cannot name ``os.system`` or any other callable. The
checksum catches accidental corruption, not tampering: whoever can rewrite an entry runs as
the user and could edit the policy files themselves (see SECURITY.md).
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from types import MappingProxyType

from .._version import __version__
from ..compile.capabilities import CapabilitySet
from ..compile.source import SourceDocument
from ..core.json_text import encoder
from ..core.lean_typing import TYPE_CHECKING
from .builtin import BUILTIN_PROFILE_NAMES, layer_path
from .cache_files import (
    KEEP_ENTRIES,
    PACKAGE,
    cache_dir,
    code_stamp,
    entry_path,
    file_sha256,
    files_hold,
    read_entry,
    stamp_holds,
    write_entry,
)
from .selection import CompiledSources, PolicySources, compile_sources, gather_sources

if TYPE_CHECKING:
    from typing import Any, TypeVar

    T = TypeVar("T")

try:  # the C unpickler alone: ``pickle`` itself costs the hook a millisecond to import
    from _pickle import Unpickler, UnpicklingError
except ImportError:  # pragma: no cover - an interpreter without the accelerator
    from pickle import Unpickler, UnpicklingError

__all__ = ["KEEP_ENTRIES", "cache_dir", "compiled_from", "load_compiled", "load_sources"]

_FORMAT = 4  # 4: the stamp holds the libraries that read a policy
_KEY_JSON = encoder(sort_keys=True, separators=(",", ":"))


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

    return _cached(key, build, directory)[0]


def load_compiled(
    profile: str = "P03",
    policies: Sequence[str | os.PathLike[str]] = (),
    presets: str | os.PathLike[str] | None = None,
    directory: str | os.PathLike[str] | None = None,
) -> CompiledSources:
    """``compile_sources`` behind the cache: what the hook and the CLI hand to ``assemble``."""
    return compiled_from(profile, policies, presets, directory)[0]


def compiled_from(
    profile: str = "P03",
    policies: Sequence[str | os.PathLike[str]] = (),
    presets: str | os.PathLike[str] | None = None,
    directory: str | os.PathLike[str] | None = None,
) -> tuple[CompiledSources, list[tuple[str, str]] | None]:
    """:func:`load_compiled`, with the files it was built from and their sha256 (``None``
    when one changed while it was built): what an answer built on it depends on."""
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
) -> tuple[T, list[tuple[str, str]] | None]:
    """The value for ``key``: from its entry when every file still matches, else ``build()``
    (whose documents name the files the value was built from); with those files and their
    sha256 (``None`` when a file changed while the value was built)."""
    folder = os.fspath(directory) if directory is not None else cache_dir()
    # The interpreter is an input too: its ``re``, ``str.casefold`` and ``unicodedata``
    # compiled what the entry holds.
    full_key = {
        "format": _FORMAT,
        "version": __version__,
        "package": PACKAGE,
        "python": sys.hexversion,
        **key,
    }
    entry = entry_path(folder, _KEY_JSON(full_key).encode(), "entry")
    found = _read(entry, full_key)
    if found is not None:
        return found
    value, documents = build()
    return value, _write(entry, full_key, value, documents)


def _read(entry: str, key: Mapping[str, Any]) -> tuple[Any, list[tuple[str, str]]] | None:
    body = read_entry(entry)
    if body is None:
        return None
    try:
        found_key, files, code, value = _ValuesOnly(body).load()
        if found_key != key or not stamp_holds(code) or not files_hold(files):
            return None
        return _ValuesOnly(value).load(), files
    except Exception:
        # Truncated, corrupt, foreign or from another format: rebuilt.
        return None


def _write(
    entry: str, key: Mapping[str, Any], value: object, documents: Sequence[SourceDocument]
) -> list[tuple[str, str]] | None:
    files = []
    for document in documents:
        path = os.path.abspath(document.path)
        sha = file_sha256(path)
        if sha != document.sha256:
            return None  # the file changed while loading; do not cache a mix
        files.append((path, sha))
    import pickle  # only when an entry is written, never on the warm path

    buffer = io.BytesIO()
    try:
        _pickler(pickle.Pickler)(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
        _ValuesOnly(buffer.getvalue()).load()  # what a warm call will read
    except (pickle.PicklingError, UnpicklingError, TypeError, AttributeError):
        return files  # a value this format cannot hold is rebuilt on every call instead
    body = pickle.dumps(
        (dict(key), files, code_stamp(), buffer.getvalue()), protocol=pickle.HIGHEST_PROTOCOL
    )
    write_entry(entry, body)
    return files


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
    """Resolves toolpolicy's value types and this module's rebuilders, nothing else."""

    def __init__(self, data: bytes) -> None:
        super().__init__(io.BytesIO(data))

    def find_class(self, module: str, name: str) -> Any:
        rebuilder = _REBUILDERS.get((module, name))
        if rebuilder is not None:
            return rebuilder
        if module.startswith("toolpolicy.") and "." not in name:
            found = getattr(__import__(module, fromlist=[name]), name, None)
            if (
                isinstance(found, type)
                and (issubclass(found, (tuple, Enum)) or found is CapabilitySet)
                and not issubclass(found, BaseException)
            ):
                return found
        raise UnpicklingError(f"{module}.{name} is not a toolpolicy value type")
