"""``never-matches``: a rule whose ``match`` fields contradict each other.

Every given field must hold, so a rule can never match when its fields cannot hold
together: ``paths`` on tools without a path argument (``shell``, ``glob``), ``commands`` on
tools that run no command or with ``effects`` that exclude ``execute``, or ``tools`` whose
effects are all outside the rule's ``effects``. Such a rule is dead weight — and a deny that
never denies.

FAIL::

    rules:
      - name: no-rm-in-tmp
        behavior: deny
        reason: Keep tmp
        match: {tools: [shell], paths: ["tmp/**"]}   # shell has no path argument

PASS::

    rules:
      - name: no-rm
        behavior: deny
        reason: Keep files
        match: {tools: [shell], commands: ["rm -rf"]}
"""

from __future__ import annotations

from collections.abc import Iterator

from ...compile.rules import CompiledRule
from ...core.vocabulary import Effect
from ...tools.registry import ToolSnapshot
from ..context import LintFile
from ..finding import Hit, Severity
from ..rules import own_rules, tools_reached

__all__ = ["CODE", "SEVERITY", "check", "why_never"]

CODE = "never-matches"
SEVERITY = Severity.WARNING


def why_never(rule: CompiledRule, tools: ToolSnapshot) -> str | None:
    """Why ``rule`` can never match a call, or None when it can (or it cannot be told)."""
    commands_need_execute = rule.effects is not None and Effect.EXECUTE not in rule.effects
    if rule.commands is not None and commands_need_execute:
        return "commands only match tools with the execute effect, and effects excludes it"
    reached = tools_reached(rule, tools)
    if reached is None or reached:
        return None
    assert rule.tools is not None  # tools_reached only decides for exact tool names
    names = ", ".join(p.text for p in rule.tools)
    definitions = [d for d in (tools.get(p.text) for p in rule.tools) if d is not None]
    if rule.effects is not None and all(d.effect not in rule.effects for d in definitions):
        wanted = ", ".join(sorted(e.value for e in rule.effects))
        return f"effects {wanted} fit none of the tools ({names})"
    if rule.paths is not None and all(d.path_argument is None for d in definitions):
        return f"paths only match tools with a path argument, and these have none: {names}"
    if rule.commands is not None and all(d.effect is not Effect.EXECUTE for d in definitions):
        return f"commands only match tools that run commands, and these run none: {names}"
    return f"none of the tools ({names}) fits every field of the match"


def check(target: LintFile) -> Iterator[Hit]:
    """One warning per own rule whose match fields can never hold together."""
    if target.policy is None:
        return
    for site in own_rules(target):
        reason = why_never(site.rule, target.policy.tools)
        if reason is not None:
            yield Hit(site.line, site.column, f"rule {site.rule.name!r} never matches: {reason}")
