"""The agents toolpolicy answers hooks for, by the name given on the command line."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .adapter import AgentAdapter
from .claude_code import CLAUDE_CODE
from .codex import CODEX
from .copilot import COPILOT
from .gemini import GEMINI

__all__ = ["ADAPTERS"]

ADAPTERS: Mapping[str, AgentAdapter] = MappingProxyType(
    {adapter.name: adapter for adapter in (CLAUDE_CODE, CODEX, GEMINI, COPILOT)}
)
"""One adapter per agent; ``toolpolicy hook NAME`` and ``hook install NAME`` look them up here."""
