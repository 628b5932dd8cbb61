"""``unknown-suppression``: an ignore comment that can never suppress anything.

``# toolpolicy: ignore[CODE]`` only works with a registered finding code, and never for the
loader's codes (``schema``, ``yaml-syntax`` ...): the loader refuses such a file at run time
whatever the comment says. A misspelt code silently suppresses nothing, so it is reported.

FAIL::

    # toolpolicy: ignore[allow-anythin]
    - name: sandboxed
      behavior: allow

PASS::

    # toolpolicy: ignore[allow-anything]
    - name: sandboxed
      behavior: allow
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from ..context import LintFile
from ..finding import Hit, Severity
from ..suppression import suppressions

__all__ = ["CODE", "SEVERITY", "check"]

CODE = "unknown-suppression"
SEVERITY = Severity.WARNING


def check(target: LintFile) -> Iterator[Hit]:
    """One warning per suppressed code that is unknown or belongs to the loader."""
    # imported here: the registry imports every check module, this one included
    from ..registry import LOADER_CODES, REGISTRY

    suppressible = sorted(code for code in REGISTRY if code not in LOADER_CODES)
    for line, column, code in suppressions(target.lines):
        if code in LOADER_CODES:
            yield Hit(
                line,
                column,
                f"ignore[{code}] has no effect: loader findings cannot be suppressed, the "
                "file is refused when loaded whatever the comment says",
            )
        elif code not in REGISTRY:
            close = difflib.get_close_matches(code, suppressible, n=1)
            hint = f"did you mean {close[0]!r}?" if close else "known: " + ", ".join(suppressible)
            yield Hit(line, column, f"ignore[{code}] names no lint code; {hint}")
