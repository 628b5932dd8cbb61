"""The one finding type of ``toolpolicy lint``, and its ordered severity.

A check yields ``Hit`` values (where and what); the linter stamps the code and the severity
and turns each into a ``Finding``. Findings sort by path, then position, then code.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["Finding", "Hit", "Severity"]


class Severity(enum.IntEnum):
    """How bad a finding is; ordered, so the fail level is a comparison."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        """``info``, ``warning`` or ``error``."""
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class Hit:
    """What a check found, before the linter stamps it: 1-based position and a message.

    ``code`` is only set by a check that reports several codes (the loader check); the
    linter uses the check's own code otherwise. ``path`` overrides the linted file's path
    for a problem found in another file (a parent reached through ``extends``).
    """

    line: int
    column: int
    message: str
    code: str | None = None
    end_line: int = 0
    end_column: int = 0
    path: str | None = None


@dataclass(frozen=True, slots=True, order=True)
class Finding:
    """One problem in one file, at a 1-based line and column, with a stable code."""

    path: str
    line: int
    column: int
    code: str
    severity: Severity
    message: str
    end_line: int = 0
    end_column: int = 0

    def to_json(self) -> dict[str, object]:
        """The JSON object ``--format json`` prints for this finding."""
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line or self.line,
            "end_column": self.end_column or self.column,
            "severity": self.severity.label,
            "code": self.code,
            "message": self.message,
        }
