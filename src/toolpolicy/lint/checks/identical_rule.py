"""``identical-rule``: a rule with the same behavior and the same match as an earlier one.

The later rule never changes a decision: whenever it matches, the earlier one matches too
and says the same thing. It is usually a copy-paste left behind, or a rule the profile or
a parent policy already has. Fields compare as sets, so order and repetition do not matter.

FAIL::

    rules:
      - name: no-env
        behavior: deny
        reason: Secrets stay private
        match: {paths: [".env"]}
      - name: no-dotenv                       # same as no-env
        behavior: deny
        reason: Do not read .env
        match: {paths: [".env"]}

PASS::

    rules:
      - name: no-env
        behavior: deny
        reason: Secrets stay private
        match: {paths: [".env", ".env.*"]}
"""

from __future__ import annotations

from collections.abc import Iterator

from ...compile.rules import CompiledRule
from ..context import LintFile
from ..finding import Hit, Severity
from ..rules import label, rule_sites

__all__ = ["CODE", "SEVERITY", "check", "match_key"]

CODE = "identical-rule"
SEVERITY = Severity.WARNING

MatchKey = tuple[object, ...]


def match_key(rule: CompiledRule) -> MatchKey:
    """The behavior and match of ``rule``, comparable and hashable."""

    def texts(items: tuple[object, ...] | None) -> frozenset[str] | None:
        return None if items is None else frozenset(str(getattr(i, "text", i)) for i in items)

    effects = None if rule.effects is None else frozenset(e.value for e in rule.effects)
    return (rule.behavior, texts(rule.tools), effects, texts(rule.paths), texts(rule.commands))


def check(target: LintFile) -> Iterator[Hit]:
    """One warning per own rule that repeats an earlier rule of the selection."""
    first: dict[MatchKey, CompiledRule] = {}
    for site in rule_sites(target):
        key = match_key(site.rule)
        earlier = first.get(key)
        if earlier is None:
            first[key] = site.rule
        elif site.own:
            yield Hit(
                site.line,
                site.column,
                f"rule {site.rule.name!r} has the same behavior and match as rule "
                f"{label(earlier)}; it never changes a decision",
            )
