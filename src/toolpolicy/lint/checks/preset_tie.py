"""``preset-tie``: two presets of one table with the same sandbox and approval.

When the knobs match both rows, the name shown is decided by the table order (the first
matching row) unless one of them was explicitly selected. Nothing breaks, but the status
line may show a name nobody picked; this is information, not a failure.

FAIL::

    presets:
      workspace-write: {sandbox: workspace-write, approval: ask}
      auto: {sandbox: workspace-write, approval: ask}        # same as workspace-write

PASS::

    presets:
      workspace-write: {sandbox: workspace-write, approval: ask}
      auto: {sandbox: workspace-write, approval: never}
"""

from __future__ import annotations

from collections.abc import Iterator

from ...language import PresetTableDoc
from ...language.yamltree import escape_pointer
from ..context import LintFile
from ..finding import Hit, Severity

__all__ = ["CODE", "SEVERITY", "check"]

CODE = "preset-tie"
SEVERITY = Severity.INFO


def _key_position(target: LintFile, name: str) -> tuple[int, int]:
    """Where the row's key is written: the value's line or the nearest line above it."""
    assert target.document is not None
    line, column = target.document.position(f"/presets/{escape_pointer(name)}")
    for row in range(min(line, len(target.lines)), max(line - 50, 0), -1):
        text = target.lines[row - 1]
        for spelling in (name, f'"{name}"', f"'{name}'"):
            found = text.find(spelling + ":")
            if found >= 0 and not text[:found].strip(" -{,"):
                return row, found + 1
    return line, column


def check(target: LintFile) -> Iterator[Hit]:
    """One info per preset row whose combination an earlier row already names."""
    document = target.document
    if document is None or not isinstance(document.model, PresetTableDoc):
        return
    first: dict[tuple[str, str], str] = {}
    for name, row in document.model.presets.items():
        pair = (row.sandbox, row.approval)
        earlier = first.setdefault(pair, name)
        if earlier == name:
            continue
        line, column = _key_position(target, name)
        yield Hit(
            line,
            column,
            f"presets {earlier!r} and {name!r} both set sandbox {row.sandbox} and approval "
            f"{row.approval}: when the knobs match both, the table order decides which name "
            f"is shown ({earlier!r})",
        )
