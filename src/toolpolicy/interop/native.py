"""What an export produces: the native text, and what it could not carry.

An export never widens an allow: an allow the dialect would read more broadly than toolpolicy
is left out. A deny or ask the dialect reads more narrowly (toolpolicy's are conservative:
options between words, wrappers, ``bash -c`` strings) is exported as close as the dialect
allows and reported as ``partly exported``. Everything else the dialect cannot say — the
workspace boundary, the knobs, the profile's defaults, path rules where the dialect has none —
is reported as ``not expressible``; a rule or pattern left out entirely as ``not exported``.
"""

from __future__ import annotations

from enum import StrEnum

from ..core.lean_typing import NamedTuple

__all__ = ["NativeExport", "Omission", "OmissionKind", "one_line"]


class OmissionKind(StrEnum):
    """How much of something an export carries; the value starts its stderr line."""

    DROPPED = "not exported"
    """A rule, or one of its patterns, is left out: ``--strict`` fails on these."""
    PARTIAL = "partly exported"
    """A deny or ask is exported, but the dialect reads it more narrowly than toolpolicy."""
    SELECTION = "not expressible"
    """Part of every selection no rule dialect carries: the boundary, knobs, defaults."""


class Omission(NamedTuple):
    """One thing an export could not express."""

    subject: str
    detail: str
    kind: OmissionKind = OmissionKind.DROPPED

    @property
    def line(self) -> str:
        """One line for stderr: ``not exported: SUBJECT: DETAIL``."""
        return f"{self.kind.value}: {self.subject}: {self.detail}"

    def to_json(self) -> dict[str, str]:
        """The JSON form used by ``toolpolicy export --format json``."""
        return {"kind": self.kind.name.lower(), "subject": self.subject, "detail": self.detail}


class NativeExport(NamedTuple):
    """A policy in an agent's own rule dialect, and every omission, in rule order."""

    dialect: str
    text: str
    omissions: tuple[Omission, ...]

    @property
    def dropped(self) -> tuple[Omission, ...]:
        """The rules or patterns left out entirely (what ``--strict`` fails on)."""
        return tuple(o for o in self.omissions if o.kind is OmissionKind.DROPPED)


def one_line(text: str) -> str:
    """``text`` with every control character (newlines too) turned into a space."""
    return "".join(" " if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F else c for c in text)
