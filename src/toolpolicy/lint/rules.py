"""The compiled rules of a file's selection, with where each was written.

Rule checks compare a file's own rules against every rule of its selection (the profile's,
the parents' reached through ``extends``, its own). ``RuleSite`` pairs a compiled rule with
its position; ``tools_reached`` says which of the known tools a rule can apply to.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass

from ..compile.rules import CompiledRule
from ..core.vocabulary import Effect
from ..language import PolicyDoc, ProfileDoc
from ..language.resources import data_dir
from ..tools.registry import ToolSnapshot
from .context import LintFile

__all__ = ["RuleSite", "label", "own_rules", "rule_sites", "same_file", "tools_reached"]


@dataclass(frozen=True, slots=True)
class RuleSite:
    """A compiled rule; ``own`` rules were written in the linted file, at ``line:column``."""

    rule: CompiledRule
    own: bool
    line: int
    column: int
    index: int


@functools.lru_cache(maxsize=4096)
def _real(path: str) -> str:
    return os.path.realpath(path)


def same_file(path: str, other: str) -> bool:
    """True when both paths name one file (compared as written first, then resolved)."""
    return path == other or _real(path) == _real(other)


@functools.cache
def _shipped_profiles() -> str:
    return os.path.realpath(data_dir("profiles"))


def label(rule: CompiledRule) -> str:
    """``name (file:line)``, with a shipped profile's file shown as ``built-in p03.yaml``."""
    path, _, line = rule.origin.rpartition(":")
    if os.path.dirname(_real(path)) == _shipped_profiles():
        return f"{rule.name} (built-in {os.path.basename(path)}:{line})"
    return rule.label


def rule_sites(target: LintFile) -> tuple[RuleSite, ...]:
    """Every rule of the file's selection in order; empty when the file does not compile."""
    if target.policy is None or target.document is None:
        return ()
    if target.rule_sites is not None:
        return target.rule_sites
    sites: list[RuleSite] = []
    # by name (unique in a document): rules whose patterns do not compile are not compiled
    model = target.document.model
    rules = model.rules if isinstance(model, PolicyDoc | ProfileDoc) else ()
    written = {rule.name: index for index, rule in enumerate(rules)}
    for rule in target.policy.compiled.rules:
        path, _, line = rule.origin.rpartition(":")
        if same_file(path, target.path) and rule.name in written:
            index = written[rule.name]
            row, column = target.document.position(f"/rules/{index}")
            sites.append(RuleSite(rule, True, row, column, index))
        else:
            sites.append(RuleSite(rule, False, int(line or 0), 1, -1))
    target.rule_sites = tuple(sites)
    return target.rule_sites


def own_rules(target: LintFile) -> tuple[RuleSite, ...]:
    """The rules written in the linted file."""
    return tuple(site for site in rule_sites(target) if site.own)


def tools_reached(rule: CompiledRule, tools: ToolSnapshot) -> frozenset[str] | None:
    """The known tools ``rule`` can apply to; None when it may also reach unknown tools.

    A rule names only known tools when its ``tools`` are exact names of known tools. A tool
    is reached when its name and effect fit, it has a path argument if the rule has
    ``paths``, and it executes commands if the rule has ``commands``.
    """
    if rule.tools is None:
        return None
    if not all(p.is_exact and tools.get(p.text) is not None for p in rule.tools):
        return None
    reached: set[str] = set()
    for pattern in rule.tools:
        definition = tools.get(pattern.text)
        if definition is None:
            continue
        if rule.effects is not None and definition.effect not in rule.effects:
            continue
        if rule.paths is not None and definition.path_argument is None:
            continue
        if rule.commands is not None and definition.effect is not Effect.EXECUTE:
            continue
        reached.add(definition.name)
    return frozenset(reached)
