"""Inline suppression: ``# toolpolicy: ignore[CODE, ...]`` on a finding's line or the line
before it drops that finding (loader findings excepted: the loader refuses the file anyway).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

__all__ = ["IGNORE_COMMENT", "suppressed_codes", "suppressions"]

IGNORE_COMMENT = re.compile(r"#\s*toolpolicy:\s*ignore\[([^\]]*)\]")
"""The comment; its group holds the comma-separated codes."""


def suppressions(lines: Sequence[str]) -> Iterator[tuple[int, int, str]]:
    """Every suppressed code as (1-based line, 1-based column of its comment, code)."""
    for number, text in enumerate(lines, start=1):
        if "toolpolicy" not in text:
            continue
        for match in IGNORE_COMMENT.finditer(text):
            for code in match.group(1).split(","):
                if code.strip():
                    yield number, match.start() + 1, code.strip()


def suppressed_codes(lines: Sequence[str], line: int) -> frozenset[str]:
    """The codes suppressed at 1-based ``line`` (by its own comment or the line before's)."""
    codes: set[str] = set()
    for row in (line, line - 1):
        if 1 <= row <= len(lines):
            for match in IGNORE_COMMENT.finditer(lines[row - 1]):
                codes.update(c.strip() for c in match.group(1).split(",") if c.strip())
    return frozenset(codes)
