"""The folders of valid and invalid documents shared by the language tests."""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["DATA", "INVALID", "VALID", "document_text", "expected_problems"]

DATA = Path(__file__).resolve().parent.parent / "data"
VALID = sorted((DATA / "valid").glob("*.yaml"))
INVALID = sorted((DATA / "invalid").glob("*.yaml"))

_EXPECT = re.compile(r"^# expect: (?P<code>[a-z-]+) (?P<line>\d+):(?P<column>\d+)$", re.MULTILINE)


def document_text(path: Path) -> str:
    """A corpus document's text as a loader reads it: UTF-8, a leading BOM dropped."""
    return path.read_bytes().decode("utf-8").removeprefix("\ufeff")


def expected_problems(path: Path) -> list[tuple[str, int, int]]:
    """The ``# expect: CODE LINE:COL`` lines of an invalid document, in file order."""
    text = path.read_bytes().decode("utf-8", errors="replace")
    return [(m["code"], int(m["line"]), int(m["column"])) for m in _EXPECT.finditer(text)]
