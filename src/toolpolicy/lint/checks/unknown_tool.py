"""``unknown-tool``: a name in ``match.tools`` that no known tool has.

Known tools are the five built-ins and the profile's tools. A misspelt name silently makes
the rule match nothing — a deny that never denies — so each one is a warning with a "did
you mean" suggestion. Names with ``*`` and MCP-style names (``mcp__server__tool``) are
patterns for tools registered at run time, so they are never reported.

FAIL::

    rules:
      - name: no-secret-writes
        behavior: deny
        reason: Secrets stay private
        match: {tools: [writefile], paths: [".env"]}   # did you mean 'write_file'?

PASS::

    rules:
      - name: no-secret-writes
        behavior: deny
        reason: Secrets stay private
        match: {tools: [write_file], paths: [".env"]}
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from ...language import PolicyDoc, ProfileDoc
from ..context import LintFile
from ..finding import Hit, Severity

__all__ = ["CODE", "SEVERITY", "check"]

CODE = "unknown-tool"
SEVERITY = Severity.WARNING


def check(target: LintFile) -> Iterator[Hit]:
    """One warning per unknown exact tool name in the file's own rules."""
    document = target.document
    if document is None or not isinstance(document.model, PolicyDoc | ProfileDoc):
        return
    known = target.known_tools
    for i, rule in enumerate(document.model.rules):
        for j, name in enumerate(rule.match.tools or ()):
            if "*" in name or name.startswith("mcp__") or name in known:
                continue
            line, column = document.position(f"/rules/{i}/match/tools/{j}")
            yield Hit(line, column, _message(rule.name, name, known))


def _message(rule: str, name: str, known: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"did you mean {close[0]!r}?" if close else "known tools: " + ", ".join(sorted(known))
    return f"rule {rule!r} names unknown tool {name!r}, so it never matches that name; {hint}"
