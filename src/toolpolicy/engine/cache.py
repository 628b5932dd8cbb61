"""The compiled-policy cache: validated sources keyed by the content of every source file.

A cached entry is used only when the sha256 of every file it was built from still matches
and its own checksum is intact; anything else — a stale, corrupt, unreadable or foreign
entry — is ignored and the policy is loaded through the full loaders again (and the entry
rewritten). The cache saves the YAML, schema and pydantic work, never a check.

The checksum catches accidental corruption (a truncated write, a bad disk), not tampering:
whoever can rewrite an entry with a fresh checksum runs as the user and could edit the policy
itself (see SECURITY.md). The folder is created ``0700`` (and narrowed to it when it is ours)
so that other users can do neither.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .._version import __version__
from .builtin import BUILTIN_PROFILE_NAMES, layer_path
from .selection import PolicySources, gather_sources

__all__ = ["cache_dir", "cached_sources", "load_sources"]

_FORMAT = 1


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


def _canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _file_sha256(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


def cached_sources(
    key: Mapping[str, Any],
    load: Callable[[], PolicySources],
    directory: str | os.PathLike[str] | None = None,
) -> PolicySources:
    """The sources for ``key``: from the cache when every file still matches, else ``load()``."""
    folder = os.fspath(directory) if directory is not None else cache_dir()
    # The installed package is part of the key: another install ships its own built-in files.
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    full_key = {"format": _FORMAT, "version": __version__, "package": package, **key}
    entry = os.path.join(folder, hashlib.sha256(_canonical(full_key)).hexdigest()[:40] + ".json")
    found = _read(entry, full_key)
    if found is not None:
        return found
    sources = load()
    _write(entry, full_key, sources)
    return sources


def _read(entry: str, key: Mapping[str, Any]) -> PolicySources | None:
    try:
        with open(entry, "rb") as handle:
            payload = json.loads(handle.read(8 * 1024 * 1024 + 1))
        body = payload["body"]
        if payload["checksum"] != hashlib.sha256(_canonical(body)).hexdigest():
            return None
        if body["key"] != key:
            return None
        for path, sha in body["files"]:
            if _file_sha256(path) != sha:
                return None
        return PolicySources.from_json(body["sources"])
    except Exception:
        # Missing, unreadable, truncated, corrupt or from another format: rebuilt.
        return None


def _write(entry: str, key: Mapping[str, Any], sources: PolicySources) -> None:
    files = []
    for document in sources.documents:
        path = os.path.abspath(document.path)
        sha = _file_sha256(path)
        if sha != document.sha256:
            return  # the file changed while loading; do not cache a mix
        files.append([path, sha])
    body = {"key": dict(key), "files": files, "sources": sources.to_json()}
    payload = {"checksum": hashlib.sha256(_canonical(body)).hexdigest(), "body": body}
    import tempfile  # only when an entry is written, never on the warm path

    folder = os.path.dirname(entry)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        _private(folder)
        fd, temp = tempfile.mkstemp(prefix=".entry-", dir=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(_canonical(payload))
            os.replace(temp, entry)
        except BaseException:
            os.unlink(temp)
            raise
    except OSError:
        pass  # a cache that cannot be written only costs speed


def _private(folder: str) -> None:
    """Narrow ``folder`` to ``0700`` when it is ours and open to others."""
    info = os.stat(folder)
    if info.st_uid == os.getuid() and info.st_mode & 0o077:
        os.chmod(folder, 0o700)


def load_sources(
    profile: str = "P03",
    policies: Sequence[str | os.PathLike[str]] = (),
    presets: str | os.PathLike[str] | None = None,
) -> PolicySources:
    """``gather_sources`` behind the cache: what the CLI and the hook load policies with."""
    builtin = profile.upper() in BUILTIN_PROFILE_NAMES or not os.path.exists(profile)
    name = profile if builtin else os.path.abspath(profile)
    paths = [os.path.abspath(layer_path(p)) for p in policies]
    table = os.path.abspath(presets) if presets is not None else None
    key = {"profile": name, "policies": paths, "presets": table}
    return cached_sources(key, lambda: gather_sources(name, paths, table))
