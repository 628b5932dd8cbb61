"""Audit sinks: every final decision is recorded before the handler may run.

``TerminalAuditSink`` writes ``[Permission] TOOL: BEHAVIOR (SOURCE) - REASON``.
``JsonlAuditSink`` appends one JSON object per line with a single ``write`` on an
``O_APPEND`` descriptor (whole lines, even with concurrent writers), then ``fsync``s, so an
allowed call never runs before its record is on disk. A short or failed write raises.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Mapping
from typing import TextIO

from ..core.errors import AuditError, AuditFileError
from ..core.protocols import AuditRecord

__all__ = ["JsonlAuditSink", "TerminalAuditSink", "arguments_sha256", "canonical_json", "utc_now"]


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
# Audit lines keep the record's own field order; only hashed values need sorted keys.
_LINE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def canonical_json(value: Mapping[str, object]) -> str:
    """Sorted keys, no spaces, UTF-8 kept: the form hashed into audit records."""
    return _CANONICAL.encode(value)


def arguments_sha256(arguments: Mapping[str, object]) -> str:
    """The sha256 of the canonical JSON of ``arguments``."""
    return hashlib.sha256(canonical_json(arguments).encode("utf-8")).hexdigest()


def utc_now() -> str:
    """An RFC 3339 UTC timestamp with microseconds."""
    now = time.time()
    seconds = int(now)
    # time.strftime instead of datetime: the hook imports this module on every tool call.
    return (
        time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
        + f".{int((now - seconds) * 1e6):06d}Z"
    )


class TerminalAuditSink:
    """One human-readable line per decision on a text stream (stderr by default)."""

    __slots__ = ("_stream",)

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def record(self, record: AuditRecord) -> None:
        """Write the ``[Permission]`` line and flush."""
        self._stream.write(
            f"[Permission] {record.tool}: {record.behavior} ({record.source}) - {record.reason}\n"
        )
        self._stream.flush()


class JsonlAuditSink:
    """Append-only JSONL; ``fsync=False`` trades durability for speed."""

    __slots__ = ("_fd", "_fsync", "_lock", "_path")

    def __init__(self, path: str | os.PathLike[str], *, fsync: bool = True) -> None:
        self._path = os.fspath(path)
        self._fsync = fsync
        self._lock = threading.Lock()
        try:
            self._fd: int | None = os.open(
                self._path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600
            )
        except OSError as exc:
            raise AuditFileError(self._path, exc.strerror or str(exc)) from None

    @property
    def path(self) -> str:
        """The audit file."""
        return self._path

    def record(self, record: AuditRecord) -> None:
        """Append one line; raise ``AuditError`` unless all of it was written (and synced)."""
        line = (_LINE.encode(record.to_json()) + "\n").encode("utf-8")
        with self._lock:
            if self._fd is None:
                raise AuditError("audit file is closed")
            try:
                written = os.write(self._fd, line)
                if written != len(line):
                    raise AuditError(f"short write to audit file {self._path}")
                if self._fsync:
                    os.fsync(self._fd)
            except OSError as exc:
                raise AuditError(f"cannot write audit file {self._path}: {exc.strerror}") from None

    def close(self) -> None:
        """Close the file; later records raise."""
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    def __enter__(self) -> JsonlAuditSink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
