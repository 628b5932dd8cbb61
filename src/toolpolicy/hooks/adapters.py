"""The agents toolpolicy answers hooks for, by the name given on the command line."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .adapter import AgentAdapter
from .claude_code import CLAUDE_CODE

__all__ = ["ADAPTERS"]

ADAPTERS: Mapping[str, AgentAdapter] = MappingProxyType({CLAUDE_CODE.name: CLAUDE_CODE})
"""One adapter per agent; ``toolpolicy hook NAME`` and ``hook install NAME`` look them up here."""
