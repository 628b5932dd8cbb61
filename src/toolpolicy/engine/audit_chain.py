"""The hash chain of a JSONL audit file: each line names the one before it.

Every line starts ``{"seq":N,"prev":P,`` where ``N`` counts the lines of the file from 1 and
``P`` is the sha256 (hex) of the previous line's bytes, without its newline; the first line
has ``"prev":null`` and anchors the chain. Editing, inserting, deleting or reordering a line
breaks the chain at the next line; the hash of the last line — the *head* — is what a reader
keeps elsewhere to notice a truncated tail.
"""

from __future__ import annotations

import os

from ..core.json_text import loads
from ..core.lean_typing import NamedTuple
from ..core.sha256 import sha256

__all__ = ["ChainTail", "chained_body", "line_hash", "read_tail"]

_FIRST_CHUNK = 4096


class ChainTail(NamedTuple):
    """Where the next line goes: the previous line's hash and seq, and whether the file
    ends in the middle of a line (a torn tail, which the next append first terminates)."""

    prev: str | None
    seq: int
    torn: bool = False


EMPTY = ChainTail(None, 0, False)


def line_hash(line: bytes) -> str:
    """The sha256 (hex) of one line's bytes, without its newline."""
    return sha256(line).hexdigest()


def chained_body(prev: str | None, seq: int, body: str) -> bytes:
    """The line that follows the line hashed ``prev``, the ``seq``-th of the file, for the
    JSON object ``body``: its bytes without the newline, which is what the next line hashes."""
    if prev is None:
        return f'{{"seq":{seq},"prev":null,{body[1:]}'.encode()
    return f'{{"seq":{seq},"prev":"{prev}",{body[1:]}'.encode()


def read_tail(fd: int, size: int) -> ChainTail:
    """The chain state at the end of the first ``size`` bytes of the file open at ``fd``."""
    if size == 0:
        return EMPTY
    chunk = _FIRST_CHUNK
    while True:
        start = max(0, size - chunk)
        data = os.pread(fd, size - start, start)
        torn = not data.endswith(b"\n")
        body = data if torn else data[:-1]
        cut = body.rfind(b"\n")
        if cut >= 0 or start == 0:
            last = body[cut + 1 :]
            return ChainTail(line_hash(last), _seq(last), torn)
        chunk *= 4


def _seq(line: bytes) -> int:
    """The seq of a chained line; a line that is not one (torn, foreign) counts as 0, so the
    chain restarts after it and ``verify`` reports the break."""
    try:
        seq = loads(line).get("seq")
    except (ValueError, AttributeError):
        return 0
    return seq if isinstance(seq, int) and not isinstance(seq, bool) and seq > 0 else 0
