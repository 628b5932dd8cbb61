"""``shadowed-allow``: an allow that a deny or ask rule always overrides.

The decision is the strongest candidate (deny > ask > allow), so an allow whose every
matching call is also matched by a deny or an ask rule — from this file, a parent, or the
profile — can never take effect. P03's own ``confirm-file-write`` asks for every
``write_file`` and ``edit_file``, for instance, so an allow on writes does nothing there.

The comparison is conservative: it reports only what it can prove from the patterns' text
(the covering rule's field is absent, names the same tool or pattern, is ``*`` or ``**``,
matches a literal path of the allow, or is a prefix of its command patterns).

FAIL::

    extends: P03
    rules:
      - name: docs-writes
        behavior: allow                      # confirm-file-write asks for every write
        reason: Docs are free to edit
        match: {tools: [write_file], paths: ["docs/**"]}

PASS::

    extends: P03
    rules:
      - name: docs-reads
        behavior: allow
        reason: Docs are public
        match: {tools: [read_file], paths: ["docs/**"]}
"""

from __future__ import annotations

from collections.abc import Iterator

from ...compile.globs import GlobPattern
from ...compile.rules import CompiledRule
from ...core.vocabulary import Behavior
from ...tools.registry import ToolSnapshot
from ..context import LintFile
from ..finding import Hit, Severity
from ..rules import label, rule_sites

__all__ = ["CODE", "SEVERITY", "check", "covers"]

CODE = "shadowed-allow"
SEVERITY = Severity.WARNING

_MATCH_ALL_GLOBS = frozenset({"*", "**", "/**", "**/*"})
_GLOB_SPECIALS = frozenset("*?[")


def check(target: LintFile) -> Iterator[Hit]:
    """One warning per own allow rule covered by a deny or ask rule of the selection."""
    if target.policy is None:
        return
    sites = rule_sites(target)
    tools = target.policy.tools
    for site in sites:
        if not site.own or site.rule.behavior is not Behavior.ALLOW:
            continue
        for other in sites:
            if other.rule.behavior > Behavior.ALLOW and covers(other.rule, site.rule, tools):
                yield Hit(
                    site.line,
                    site.column,
                    f"allow rule {site.rule.name!r} never takes effect: every call it matches "
                    f"also matches {other.rule.behavior.label} rule {label(other.rule)}, and "
                    f"{other.rule.behavior.label} beats allow",
                )
                break


def covers(wide: CompiledRule, narrow: CompiledRule, tools: ToolSnapshot) -> bool:
    """True when every call ``narrow`` matches is provably matched by ``wide`` too."""
    return (
        _tools_covered(wide, narrow, tools)
        and _paths_covered(wide.paths, narrow.paths)
        and _commands_covered(wide, narrow)
    )


def _tools_covered(wide: CompiledRule, narrow: CompiledRule, tools: ToolSnapshot) -> bool:
    if wide.tools is None and wide.effects is None:
        return True
    if narrow.tools is None:
        return (
            wide.tools is None
            and wide.effects is not None
            and narrow.effects is not None
            and narrow.effects <= wide.effects
        )
    for pattern in narrow.tools:
        definition = tools.get(pattern.text) if pattern.is_exact else None
        effect = None if definition is None else definition.effect
        if effect is not None and narrow.effects is not None and effect not in narrow.effects:
            continue  # this tool never reaches the narrow rule
        if wide.effects is not None and effect not in wide.effects:
            return False
        if wide.tools is None:
            continue
        if pattern.is_exact:
            if not any(w.matches(pattern.text) for w in wide.tools):
                return False
        elif not any(w.text in ("*", pattern.text) for w in wide.tools):
            return False
    return True


def _paths_covered(
    wide: tuple[GlobPattern, ...] | None, narrow: tuple[GlobPattern, ...] | None
) -> bool:
    if wide is None:
        return True
    if narrow is None:
        return False
    return all(any(_glob_covers(w, n) for w in wide) for n in narrow)


def _glob_covers(wide: GlobPattern, narrow: GlobPattern) -> bool:
    if wide.text == narrow.text or wide.text in _MATCH_ALL_GLOBS:
        return True
    if _GLOB_SPECIALS.intersection(narrow.text):
        return False
    literal = narrow.text.strip("/")
    # an unanchored literal (no inner slash, no leading one) also matches at any depth
    anchored = narrow.text.startswith("/") or "/" in literal
    return anchored and wide.matches(literal)


def _commands_covered(wide: CompiledRule, narrow: CompiledRule) -> bool:
    if wide.commands is None:
        return True
    if narrow.commands is None:
        return False
    return all(any(w.matches(n.words) for w in wide.commands) for n in narrow.commands)
