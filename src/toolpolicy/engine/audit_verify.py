"""``toolpolicy audit verify``: walk a JSONL audit file's hash chain and name the first break.

A break is classified by what the ``seq`` numbers and ``prev`` hashes around it show:

- ``edited``    the line's ``prev`` does not match the line before it, with ``seq`` in order
                (the line before was changed), or the line is not a chained record at all;
- ``deleted``   ``seq`` jumps and the missing numbers appear nowhere in the file;
- ``reordered`` ``seq`` jumps or falls back and the missing numbers appear elsewhere;
- ``inserted``  ``seq`` repeats an earlier line's number (a line was added before it);
- ``truncated`` the expected head (``--head``, kept elsewhere) is not in the chain.

The file alone cannot show that its tail was cut off, or that the whole file was rewritten
with recomputed hashes: that is what keeping the head elsewhere answers.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence

from ..core.lean_typing import NamedTuple
from .audit_chain import line_hash

__all__ = ["ChainBreak", "ChainReport", "verify_chain"]


class ChainBreak(NamedTuple):
    """The first place the chain does not hold: a 1-based line, a kind, and why."""

    line: int
    kind: str
    message: str


class ChainReport(NamedTuple):
    """The outcome of a walk: the records read, the head, and the first break if any."""

    records: int
    head: str | None
    broken: ChainBreak | None

    @property
    def intact(self) -> bool:
        """True when the chain holds (and contains the expected head, if one was given)."""
        return self.broken is None

    def to_json(self) -> dict[str, object]:
        """The report as ``--format json`` prints it."""
        out: dict[str, object] = {"records": self.records, "intact": self.intact, "head": self.head}
        if self.broken is not None:
            out["broken"] = self.broken._asdict()
        return out


class _Line(NamedTuple):
    seq: int | None
    prev: str | None
    valid: bool
    digest: str


def _parse(raw: bytes) -> _Line:
    digest = line_hash(raw)
    try:
        value = json.loads(raw)
    except ValueError:
        return _Line(None, None, False, digest)
    if not isinstance(value, dict):
        return _Line(None, None, False, digest)
    seq, prev = value.get("seq"), value.get("prev")
    valid = (
        isinstance(seq, int)
        and not isinstance(seq, bool)
        and seq > 0
        and (prev is None or isinstance(prev, str))
    )
    return _Line(seq if valid else None, prev if valid else None, valid, digest)


def verify_chain(path: str | os.PathLike[str], head: str | None = None) -> ChainReport:
    """Walk the chain of ``path``; with ``head``, also require that hash to be in it."""
    with open(path, "rb") as stream:
        data = stream.read()
    raw_lines = data.split(b"\n")
    torn = raw_lines[-1] != b""
    if not torn:
        raw_lines.pop()
    lines = [_parse(raw) for raw in raw_lines]
    broken = _first_break(lines)
    if broken is None and torn:
        broken = ChainBreak(len(lines), "edited", "the last line has no newline: cut or edited")
    last = lines[-1].digest if lines else None
    if broken is None and head is not None and all(line.digest != head for line in lines):
        broken = ChainBreak(
            len(lines),
            "truncated",
            f"the expected head {head} is not in the chain: lines were cut off the end "
            "or the file was rewritten",
        )
    return ChainReport(len(lines), last, broken)


def _first_break(lines: Sequence[_Line]) -> ChainBreak | None:
    seen_seqs = {line.seq for line in lines if line.seq is not None}
    digests = {line.digest for line in lines}
    previous: _Line | None = None
    for number, line in enumerate(lines, 1):
        if not line.valid or line.seq is None:
            return ChainBreak(number, "edited", "not a chained audit record (no seq and prev)")
        expected = 1 if previous is None or previous.seq is None else previous.seq + 1
        wanted_prev = None if previous is None else previous.digest
        if line.seq == expected:
            if line.prev != wanted_prev:
                what = (
                    "the first line names a previous line"
                    if previous is None
                    else (
                        f"its prev does not match line {number - 1}: line {number - 1} was edited"
                    )
                )
                return ChainBreak(number, "edited", what)
        elif line.seq > expected:
            missing = range(expected, line.seq)
            if any(seq in seen_seqs for seq in missing):
                # A genuine line moved here still names its real predecessor; a forged one
                # names nothing in the file.
                if line.prev in digests:
                    return ChainBreak(
                        number, "reordered", f"seq {line.seq} comes where seq {expected} belongs"
                    )
                return ChainBreak(
                    number, "inserted", f"seq {line.seq} names no line of this file as its prev"
                )
            count = line.seq - expected
            where = "the start" if previous is None else f"line {number - 1}"
            return ChainBreak(
                number,
                "deleted",
                f"{count} record(s) deleted after {where} (seq {expected}"
                + (f"..{line.seq - 1})" if count > 1 else ")"),
            )
        else:
            earlier = any(other.seq == line.seq for other in lines[: number - 1])
            if earlier:
                return ChainBreak(
                    number,
                    "inserted",
                    f"seq {line.seq} repeats an earlier line's: a line was inserted before it",
                )
            return ChainBreak(number, "reordered", f"seq {line.seq} comes after seq {expected - 1}")
        previous = line
    return None
