"""The hand-written registry of lint checks: every finding code maps to the module that
reports it, and asking for an unknown code is a clear error.

Order matters only for reading: the loader check comes first, then the checks that need a
compiled selection, then the static ones.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Protocol

from .checks import (
    allow_anything,
    allow_runs_code,
    examples,
    identical_rule,
    loader,
    never_matches,
    outside_workspace,
    preset_tie,
    shadowed_allow,
    unknown_suppression,
    unknown_tool,
)
from .context import LintFile
from .finding import Hit, Severity

__all__ = [
    "CHECKS",
    "INTERNAL_ERROR",
    "LOADER_CODES",
    "REGISTRY",
    "Check",
    "check_for",
    "describe",
    "severity_of",
]

INTERNAL_ERROR = "internal-error"
"""A check failed unexpectedly; reported as an error so a broken lint never passes CI."""


class Check(Protocol):
    """What a check module provides."""

    CODE: str
    SEVERITY: Severity

    def check(self, target: LintFile) -> Iterator[Hit]:
        """Yield what the check found in ``target``."""
        ...


CHECKS: tuple[Check, ...] = (
    loader,
    examples,
    unknown_tool,
    shadowed_allow,
    identical_rule,
    outside_workspace,
    never_matches,
    allow_anything,
    allow_runs_code,
    preset_tie,
    unknown_suppression,
)
"""Every check, in the order they run."""

LOADER_CODES = frozenset(loader.CODES)

REGISTRY: Mapping[str, Check] = MappingProxyType(
    {
        **{code: loader for code in loader.CODES},
        examples.CODE: examples,
        unknown_tool.CODE: unknown_tool,
        shadowed_allow.CODE: shadowed_allow,
        identical_rule.CODE: identical_rule,
        outside_workspace.CODE: outside_workspace,
        never_matches.CODE: never_matches,
        allow_anything.CODE: allow_anything,
        allow_runs_code.CODE: allow_runs_code,
        preset_tie.CODE: preset_tie,
        unknown_suppression.CODE: unknown_suppression,
    }
)
"""Finding code → the check module that reports it."""


def check_for(code: str) -> Check:
    """The check that reports ``code``; ``KeyError`` naming the known codes otherwise."""
    found = REGISTRY.get(code) if code != INTERNAL_ERROR else None
    if found is None:
        raise KeyError(f"unknown lint code {code!r} (known: {', '.join(sorted(REGISTRY))})")
    return found


def severity_of(code: str) -> Severity:
    """The severity findings with ``code`` get."""
    return Severity.ERROR if code == INTERNAL_ERROR else check_for(code).SEVERITY


def describe(code: str) -> tuple[str, str]:
    """The one-line description and the full documentation of ``code``."""
    if code == INTERNAL_ERROR:
        text = "A lint check failed unexpectedly; the file was not fully checked"
        return text, text
    module = check_for(code)
    documentation = (getattr(module, "__doc__", None) or "").strip()
    if module is loader:  # the module documents all its codes; say which one this is
        summary = loader.DESCRIPTIONS[code]
        return summary, f"``{code}``: {summary[:1].lower()}{summary[1:]}.\n\n{documentation}"
    summary = documentation.split("\n\n", 1)[0].replace("\n", " ")
    if summary.startswith(f"``{code}``: "):
        summary = summary[len(code) + 6 :]
    return summary[:1].upper() + summary[1:], documentation
