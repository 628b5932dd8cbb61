"""The agents toolpolicy answers hooks for, by the name given on the command line."""

from __future__ import annotations

from collections.abc import Mapping

from ..core.lean_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

    from .adapter import AgentAdapter

    _Base = Mapping[str, AgentAdapter]
else:  # the adapter module (and its enums) loads with the first adapter looked up
    _Base = Mapping

__all__ = ["ADAPTERS"]

_MODULES = {
    "claude-code": ("claude_code", "CLAUDE_CODE"),
    "codex": ("codex", "CODEX"),
    "gemini": ("gemini", "GEMINI"),
    "copilot": ("copilot", "COPILOT"),
}


class _Adapters(_Base):
    """The adapters by name, each module imported on its first lookup.

    The hook starts a process per tool call and answers one agent: it does not pay for
    importing the other agents' adapters.
    """

    def __getitem__(self, name: str) -> AgentAdapter:
        module, attribute = _MODULES[name]
        # ``__import__``, not ``importlib``, whose own import (and warnings') costs the hook
        found = __import__(f"{__package__}.{module}", fromlist=[attribute])
        adapter: AgentAdapter = getattr(found, attribute)
        return adapter

    def __contains__(self, name: object) -> bool:
        return name in _MODULES

    def __iter__(self) -> Iterator[str]:
        return iter(_MODULES)

    def __len__(self) -> int:
        return len(_MODULES)


ADAPTERS: Mapping[str, AgentAdapter] = _Adapters()
"""One adapter per agent; ``toolpolicy hook NAME`` and ``hook install NAME`` look them up here."""
