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

import itertools
from collections.abc import Iterable, Iterator

from ...compile.commands import CommandPattern
from ...compile.globs import GlobPattern
from ...compile.names import NamePattern
from ...compile.rules import CompiledRule
from ...core.vocabulary import Behavior
from ...tools.registry import ToolSnapshot
from ..context import LintFile
from ..finding import Hit, Severity
from ..rules import label, rule_sites

__all__ = [
    "CODE",
    "MAX_COMPARISONS",
    "SEVERITY",
    "CoverIndex",
    "check",
    "covers",
    "reachable_tools",
]

CODE = "shadowed-allow"
SEVERITY = Severity.WARNING

MAX_COMPARISONS = 2_000_000
"""At most this many rule pairs are compared in one file (the check is bounded like any input)."""

_MATCH_ALL_GLOBS = frozenset({"*", "**", "/**", "**/*"})
_GLOB_SPECIALS = frozenset("*?[")
_ANY = "*"


def check(target: LintFile) -> Iterator[Hit]:
    """One warning per own allow rule covered by a deny or ask rule of the selection."""
    if target.policy is None:
        return
    tools = target.policy.tools
    index = CoverIndex(s.rule for s in rule_sites(target) if s.rule.behavior > Behavior.ALLOW)
    budget = MAX_COMPARISONS
    for site in rule_sites(target):
        if not site.own or site.rule.behavior is not Behavior.ALLOW:
            continue
        candidates = index.candidates(site.rule, reachable_tools(site.rule, tools))
        budget -= len(candidates)
        if budget < 0:
            yield Hit(
                site.line,
                site.column,
                f"not checked for shadowing from here on: more than {MAX_COMPARISONS} "
                "rule comparisons in one file; split the file",
            )
            return
        for other in candidates:
            if covers(other, site.rule, tools):
                yield Hit(
                    site.line,
                    site.column,
                    f"allow rule {site.rule.name!r} never takes effect: every call it matches "
                    f"also matches {other.behavior.label} rule {label(other)}, and "
                    f"{other.behavior.label} beats allow",
                )
                break


class CoverIndex:
    """Deny and ask rules bucketed by (tool, first path segment, first command word), so an
    allow is compared only with rules that could cover it. In a key, ``None`` stands for an
    absent field (which covers anything) and ``*`` for a pattern that is not a literal; a
    field present in the wide rule but absent in the allow can never cover it. Lookup is a
    superset filter; ``covers`` decides."""

    def __init__(self, rules: Iterable[CompiledRule]) -> None:
        self._buckets: dict[tuple[str | None, str | None, str | None], list[CompiledRule]] = {}
        for rule in rules:
            for key in itertools.product(_tool_keys(rule), _path_keys(rule), _word_keys(rule)):
                self._buckets.setdefault(key, []).append(rule)

    def candidates(
        self, allow: CompiledRule, reachable: tuple[NamePattern, ...]
    ) -> list[CompiledRule]:
        """The rules that may cover ``allow`` (whose ``reachable_tools`` are given), in
        selection order."""
        tools = _probe(_tool_key(reachable[0]) if reachable else None)
        paths = _probe(None if allow.paths is None else _segment_key(allow.paths[0]))
        words = _probe(None if allow.commands is None else _word_key(allow.commands[0]))
        found = {
            id(rule): rule
            for key in itertools.product(tools, paths, words)
            for rule in self._buckets.get(key, ())
        }
        return sorted(found.values(), key=lambda rule: rule.order)


def _probe(key: str | None) -> list[str | None]:
    """The wide-rule keys that may cover an allow whose own key is ``key``."""
    if key is None:
        return [None]
    return [None, _ANY] if key == _ANY else [None, _ANY, key]


def _tool_key(pattern: NamePattern) -> str:
    return pattern.text if pattern.is_exact else _ANY


def _segment_key(pattern: GlobPattern) -> str:
    """The literal first segment of an anchored pattern; ``*`` for anything else."""
    body = pattern.text.lstrip("/")
    first, slash, rest = body.partition("/")
    anchored = pattern.text.startswith("/") or bool(slash and rest.strip("/"))
    if not anchored or not first or _GLOB_SPECIALS.intersection(first):
        return _ANY
    return first


def _word_key(pattern: CommandPattern) -> str:
    return pattern.words[0]  # a lone "*" word is _ANY already


def _tool_keys(rule: CompiledRule) -> set[str | None]:
    return {None} if rule.tools is None else {_tool_key(p) for p in rule.tools}


def _path_keys(rule: CompiledRule) -> set[str | None]:
    return {None} if rule.paths is None else {_segment_key(p) for p in rule.paths}


def _word_keys(rule: CompiledRule) -> set[str | None]:
    return {None} if rule.commands is None else {_word_key(p) for p in rule.commands}


def covers(wide: CompiledRule, narrow: CompiledRule, tools: ToolSnapshot) -> bool:
    """True when every call ``narrow`` matches is provably matched by ``wide`` too."""
    return (
        _tools_covered(wide, narrow, tools)
        and _paths_covered(wide.paths, narrow.paths)
        and _commands_covered(wide, narrow)
    )


def reachable_tools(rule: CompiledRule, tools: ToolSnapshot) -> tuple[NamePattern, ...]:
    """The rule's tool patterns that can reach it: all of them, except exact known tools
    whose effect the rule's ``effects`` exclude."""
    if rule.tools is None:
        return ()
    kept = []
    for pattern in rule.tools:
        definition = tools.get(pattern.text) if pattern.is_exact else None
        if definition is None or rule.effects is None or definition.effect in rule.effects:
            kept.append(pattern)
    return tuple(kept)


def _tools_covered(wide: CompiledRule, narrow: CompiledRule, tools: ToolSnapshot) -> bool:
    if narrow.tools is None:
        return wide.tools is None and (
            wide.effects is None or (narrow.effects is not None and narrow.effects <= wide.effects)
        )
    reachable = reachable_tools(narrow, tools)
    if not reachable:
        return False  # the allow matches nothing: never-matches says so, not this check
    if wide.tools is None and wide.effects is None:
        return True
    for pattern in reachable:
        definition = tools.get(pattern.text) if pattern.is_exact else None
        if wide.effects is not None and (
            definition is None or definition.effect not in wide.effects
        ):
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
    if wide.root != narrow.root:
        return False  # a workspace pattern never matches an absolute or home path, nor back
    if wide.text == narrow.text or wide.text in _MATCH_ALL_GLOBS:
        return True
    if _GLOB_SPECIALS.intersection(narrow.text):
        return False
    if narrow.outside:
        return wide.fullmatch(narrow.text[2:].strip("/")) is not None
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
