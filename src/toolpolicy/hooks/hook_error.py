"""The one error of a hook event that cannot be decided (its own module: the answer lane
raises none, yet ``hooks.entry`` names it without loading the adapters)."""

from __future__ import annotations

__all__ = ["HookError"]


class HookError(ValueError):
    """The event cannot be decided: the hook exits 2, which blocks the call."""
