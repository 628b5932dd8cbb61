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
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .._version import __version__
from .builtin import BUILTIN_PROFILE_NAMES, layer_path
from .selection import PolicySources, gather_sources

__all__ = ["cache_dir", "cached_sources", "load_sources"]

_FORMAT = 1


def cache_dir() -> Path:
    """``$TOOLPOLICY_CACHE_DIR``, else ``$XDG_CACHE_HOME/toolpolicy`` or ``~/.cache/toolpolicy``."""
    explicit = os.environ.get("TOOLPOLICY_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "toolpolicy"


def _canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _file_sha256(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


def cached_sources(
    key: Mapping[str, Any], load: Callable[[], PolicySources], directory: Path | None = None
) -> PolicySources:
    """The sources for ``key``: from the cache when every file still matches, else ``load()``."""
    folder = directory if directory is not None else cache_dir()
    # The installed package is part of the key: another install ships its own built-in files.
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    full_key = {"format": _FORMAT, "version": __version__, "package": package, **key}
    entry = folder / (hashlib.sha256(_canonical(full_key)).hexdigest()[:40] + ".json")
    found = _read(entry, full_key)
    if found is not None:
        return found
    sources = load()
    _write(entry, full_key, sources)
    return sources


def _read(entry: Path, key: Mapping[str, Any]) -> PolicySources | None:
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


def _write(entry: Path, key: Mapping[str, Any], sources: PolicySources) -> None:
    files = []
    for document in sources.documents:
        path = os.path.abspath(document.path)
        sha = _file_sha256(path)
        if sha != document.sha256:
            return  # the file changed while loading; do not cache a mix
        files.append([path, sha])
    body = {"key": dict(key), "files": files, "sources": sources.to_json()}
    payload = {"checksum": hashlib.sha256(_canonical(body)).hexdigest(), "body": body}
    try:
        entry.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        _private(entry.parent)
        fd, temp = tempfile.mkstemp(prefix=".entry-", dir=entry.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(_canonical(payload))
            os.replace(temp, entry)
        except BaseException:
            os.unlink(temp)
            raise
    except OSError:
        pass  # a cache that cannot be written only costs speed


def _private(folder: Path) -> None:
    """Narrow ``folder`` to ``0700`` when it is ours and open to others."""
    info = folder.stat()
    if info.st_uid == os.getuid() and info.st_mode & 0o077:
        folder.chmod(0o700)


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
