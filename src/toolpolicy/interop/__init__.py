"""Translate a toolpolicy selection to and from the agents' own permission dialects.

``EXPORTERS`` maps a dialect name to the function that writes it; every export reports what
the dialect could not carry (see :mod:`toolpolicy.interop.native`). ``import_claude_settings``
reads Claude Code's ``permissions`` lists back into a Policy document.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.selection import ToolPolicy
from . import claude_settings, codex_rules, gemini_policy
from .claude_import import import_claude_settings, read_claude_permissions
from .native import NativeExport, Omission

__all__ = [
    "EXPORTERS",
    "NativeExport",
    "Omission",
    "export_policy",
    "import_claude_settings",
    "read_claude_permissions",
]

EXPORTERS: dict[str, Callable[[ToolPolicy], NativeExport]] = {
    claude_settings.DIALECT: claude_settings.export_claude_settings,
    codex_rules.DIALECT: codex_rules.export_codex_rules,
    gemini_policy.DIALECT: gemini_policy.export_gemini_policy,
}


def export_policy(policy: ToolPolicy, dialect: str) -> NativeExport:
    """``policy`` in ``dialect`` (a key of ``EXPORTERS``; anything else is a ``KeyError``)."""
    return EXPORTERS[dialect](policy)
