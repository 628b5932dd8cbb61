"""Audit sinks: every final decision is recorded before the handler may run.

``TerminalAuditSink`` writes ``[Permission] TOOL: BEHAVIOR (SOURCE) - REASON``, every field
escaped by ``terminal_text.visible`` so no field can start or forge a line.
``JsonlAuditSink`` appends one hash-chained JSON object per line (``seq`` and ``prev``, see
:mod:`toolpolicy.engine.audit_chain`) with a single ``write`` on an ``O_APPEND`` descriptor,
then ``fsync``s, so an allowed call never runs before its record is on disk. Reading the
previous line's hash and appending happen under an exclusive ``flock``, so processes that
append to one file at once (parallel hook calls) keep one valid chain of whole lines. A short
or failed write raises.
"""

from __future__ import annotations

import os
import time
from _thread import allocate_lock  # threading.Lock itself, without importing threading
from collections.abc import Mapping
from fcntl import LOCK_EX, LOCK_UN, flock
from types import MappingProxyType

from ..core.errors import AuditError, AuditFileError
from ..core.json_text import encoder, string_literal
from ..core.lean_typing import TYPE_CHECKING
from ..core.memo import remember
from ..core.records import AuditRecord
from ..core.sha256 import sha256
from .audit_chain import chained_body, line_hash, read_tail

if TYPE_CHECKING:
    from typing import TextIO

__all__ = [
    "JsonlAuditSink",
    "TerminalAuditSink",
    "arguments_sha256",
    "canonical_json",
    "record_json",
    "utc_now",
]


# Compact JSON, UTF-8 kept. Audit lines keep the record's own field order; only hashed values
# need sorted keys.
_CANONICAL = encoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))
_LINE = encoder(ensure_ascii=False, separators=(",", ":"))


_MIDDLES: dict[tuple[object, ...], str] = {}
"""The text of a record's fields from ``tool`` to ``approval_outcome`` by their values: a
gate's records repeat a few (one tool, one rule's decision, one set of knobs). Emptied when
it holds :data:`_MIDDLES_KEPT`."""
_MIDDLES_KEPT = 512


def record_json(record: AuditRecord) -> str:
    """The compact JSON of ``record.to_json()``, in its field order.

    A record without arguments or extra fields (the gate's, by default) is written field by
    field, without building the dict first, its fields from ``tool`` to ``approval_outcome``
    written once for each set of their values; the result is the same text (a test proves
    it).
    """
    # One unpacking, not a field look-up each: this runs for every audited call.
    (ts, session, call, tool, effect, behavior, source, reason, matched, preset, sandbox,
     approval, outcome, digest, arguments, extra) = record  # fmt: skip
    if arguments is not None or extra or matched.__class__ is not tuple:
        return _LINE(record.to_json())  # (a caller's own record may list its rules)
    s = string_literal
    key = (tool, effect, behavior, source, reason, matched, preset, sandbox, approval, outcome)
    middle = _MIDDLES.get(key)
    if middle is None:
        rules = ",".join([s(rule) for rule in matched]) if matched else ""
        middle = (
            f'"tool":{s(tool)},"effect":{s(effect)},"behavior":{s(behavior)},'
            f'"source":{s(source)},"reason":{s(reason)},"matched_rules":[{rules}],'
            f'"preset":{s(preset)},"sandbox":{s(sandbox)},"approval":{s(approval)},'
            f'"approval_outcome":{"null" if outcome is None else s(outcome)},'
        )
        remember(_MIDDLES, key, middle, _MIDDLES_KEPT)
    return (
        f'{{"ts":{s(ts)},"session_id":{s(session)},"call_id":{s(call)},{middle}'
        f'"arguments_sha256":{s(digest)}}}'
    )


def canonical_json(value: Mapping[str, object]) -> str:
    """Sorted keys, no spaces, UTF-8 kept: the form hashed into audit records.

    One text argument of text (a path, a command: most calls) is written directly, the
    encoder's own text without its cost (a property test proves them the same).
    """
    if len(value) == 1:
        ((key, item),) = value.items()
        if key.__class__ is str and item.__class__ is str:
            return f"{{{string_literal(key)}:{string_literal(item)}}}"
    return _CANONICAL(_plain_dict(value))


def arguments_sha256(arguments: Mapping[str, object]) -> str:
    """The sha256 of the canonical JSON of ``arguments``."""
    return sha256(canonical_json(arguments).encode("utf-8")).hexdigest()


def _plain_dict(value: Mapping[str, object]) -> dict[str, object]:
    """``value`` as the ``dict`` json's C encoder needs; a prepared call's read-only view
    copies its dict directly (``dict()`` of a proxy goes key by key)."""
    if value.__class__ is dict:
        return value
    if value.__class__ is MappingProxyType:
        return value.copy()
    return dict(value)


# The last timestamp's second (its first microsecond since the epoch) and its text with a
# place for the microseconds: calls within one second format only those. One tuple, replaced
# whole, so threads never see a torn pair.
_SECOND: tuple[int, str] = (-1, "")


def utc_now() -> str:
    """An RFC 3339 UTC timestamp with microseconds."""
    global _SECOND
    micros = time.time_ns() // 1000
    start, template = _SECOND
    if not 0 <= micros - start < 1_000_000:
        start = micros - micros % 1_000_000
        # time.strftime instead of datetime: the hook imports this module on every tool call.
        second = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(start // 1_000_000))
        template = second + ".%06dZ"
        _SECOND = (start, template)
    return template % (micros - start)


class TerminalAuditSink:
    """One human-readable line per decision on a text stream (stderr by default)."""

    __slots__ = ("_stream",)

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def record(self, record: AuditRecord) -> None:
        """Write the ``[Permission]`` line and flush."""
        from .terminal_text import visible

        fields = (record.tool, record.behavior, record.source, record.reason)
        tool, behavior, source, reason = (visible(f) for f in fields)
        self._stream.write(f"[Permission] {tool}: {behavior} ({source}) - {reason}\n")
        self._stream.flush()


class JsonlAuditSink:
    """Append-only JSONL; ``fsync=False`` trades durability for speed."""

    __slots__ = ("_end", "_fd", "_fsync", "_lock", "_path", "_prev", "_seq")

    def __init__(self, path: str | os.PathLike[str], *, fsync: bool = True) -> None:
        self._path = os.fspath(path)
        self._fsync = fsync
        self._lock = allocate_lock()
        # The chain after this sink's own last line (its hash and seq), valid while the file
        # ends where that line ended.
        self._prev: str | None = None
        self._seq = 0
        self._end = -1
        try:
            self._fd: int | None = os.open(
                self._path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600
            )
        except OSError as exc:
            raise AuditFileError(self._path, exc.strerror or str(exc)) from None

    @property
    def path(self) -> str:
        """The audit file."""
        return self._path

    def record(self, record: AuditRecord) -> None:
        """Append one chained line; raise ``AuditError`` unless all of it was written (and
        synced)."""
        self.append(record_json(record))

    def append(self, body: str) -> None:
        """Append ``body`` (a record's JSON, :func:`record_json`) as one chained line; raise
        ``AuditError`` unless all of it was written (and synced)."""
        with self._lock:
            fd = self._fd
            if fd is None:
                raise AuditError("audit file is closed")
            try:
                flock(fd, LOCK_EX)
                try:
                    end = os.lseek(fd, 0, os.SEEK_END)
                    if end == self._end:
                        prev, seq, torn = self._prev, self._seq, False
                    else:  # another process appended since this sink's last line
                        prev, seq, torn = read_tail(fd, end)
                    data = chained_body(prev, seq + 1, body)
                    # A torn tail is ended first, so this line starts a line of its own.
                    line = b"\n" + data + b"\n" if torn else data + b"\n"
                    written = os.write(fd, line)
                    if written != len(line):
                        self._end = -1
                        raise AuditError(f"short write to audit file {self._path}")
                    if self._fsync:
                        os.fsync(fd)
                finally:
                    flock(fd, LOCK_UN)
            except OSError as exc:
                raise AuditError(f"cannot write audit file {self._path}: {exc.strerror}") from None
            self._prev = line_hash(data)
            self._seq = seq + 1
            self._end = end + written

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
