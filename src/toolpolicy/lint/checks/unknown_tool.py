"""``unknown-tool``: a name in ``match.tools`` that no known tool has.

Known tools are the five built-ins, the profile's tools, and the agents' tools that the hook
decides by their own names (Claude Code's ``WebFetch``, ``WebSearch``, ``TodoWrite``,
``Task``...): every agent's, or only those of the agents named with ``lint --agent NAME``.
A misspelt name silently makes the rule match nothing — a deny that never denies — so each
one is a warning with a "did you mean" suggestion. An agent's tool that the
hook decides as a built-in (Claude Code's ``Read`` is ``read_file``) is reported with the
built-in to name instead. Names with ``*`` and MCP-style names (``mcp__server__tool``) are
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
import functools
from collections.abc import Iterator, Mapping
from types import MappingProxyType

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
    agents = _agent_tools(target.agents)
    known = target.known_tools
    by_name = tuple(n for n, decided_as in agents.items() if decided_as is None)
    for i, rule in enumerate(document.model.rules):
        for j, name in enumerate(rule.match.tools or ()):
            if "*" in name or name.startswith("mcp__") or name in known or name in by_name:
                continue
            line, column = document.position(f"/rules/{i}/match/tools/{j}")
            decided_as = agents.get(name)
            if decided_as is not None:
                message = (
                    f"rule {rule.name!r} names the agent tool {name!r}, which toolpolicy "
                    f"decides as {decided_as!r}, so it never matches; name {decided_as!r}"
                )
            else:
                message = _message(rule.name, name, known, by_name)
            yield Hit(line, column, message)


@functools.cache
def _agent_tools(agents: tuple[str, ...] | None) -> Mapping[str, str | None]:
    """The agents' tool names (every agent's when ``agents`` is None): the built-in each is
    decided as, or ``None`` (by name). Built once per run, not once per file."""
    from ...hooks.adapters import ADAPTERS

    return MappingProxyType(
        {
            name: entry.tool
            for agent, adapter in ADAPTERS.items()
            if agents is None or agent in agents
            for name, entry in adapter.catalog.items()
        }
    )


def _message(rule: str, name: str, known: tuple[str, ...], agents: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(name, (*known, *agents), n=1)
    hint = f"did you mean {close[0]!r}?" if close else "known tools: " + ", ".join(sorted(known))
    return f"rule {rule!r} names unknown tool {name!r}, so it never matches that name; {hint}"
