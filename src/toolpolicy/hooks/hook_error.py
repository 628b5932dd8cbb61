"""What makes a hook event one the hook cannot decide: its one error, and the most it reads
(their own module: ``hooks.entry`` and the answer lane name them without loading the
adapters)."""

from __future__ import annotations

__all__ = ["MAX_EVENT_BYTES", "HookError"]

MAX_EVENT_BYTES = 8 * 1024 * 1024
"""The largest event read from stdin; a larger one is a ``HookError``."""


class HookError(ValueError):
    """The event cannot be decided: the hook exits 2, which blocks the call."""
