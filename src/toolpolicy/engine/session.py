"""The session log: an append-only list of events (knob changes, approvals).

Replaying a session is folding its log; nothing else holds hidden state.
"""

from __future__ import annotations

from _thread import allocate_lock  # threading.Lock itself, without importing threading
from collections.abc import Mapping
from types import MappingProxyType

from ..core.lean_typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any

__all__ = ["SessionEvent", "SessionLog"]


class SessionEvent(NamedTuple):
    """One event: its kind (``sandbox/mode``, ``approval/asked`` ...) and its data."""

    kind: str
    data: Mapping[str, Any] = MappingProxyType({})

    def to_json(self) -> dict[str, Any]:
        """``{"kind": ..., **data}``."""
        return {"kind": self.kind, **self.data}


class SessionLog:
    """Thread-safe, append-only."""

    __slots__ = ("_events", "_lock")

    def __init__(self, events: tuple[SessionEvent, ...] = ()) -> None:
        self._events: list[SessionEvent] = list(events)
        self._lock = allocate_lock()

    def append(self, kind: str, **data: Any) -> SessionEvent:
        """Append an event and return it."""
        event = SessionEvent(kind, MappingProxyType(dict(data)))
        with self._lock:
            self._events.append(event)
        return event

    @property
    def events(self) -> tuple[SessionEvent, ...]:
        """Every event, oldest first."""
        with self._lock:
            return tuple(self._events)

    def of_kind(self, *kinds: str) -> tuple[SessionEvent, ...]:
        """The events whose kind is one of ``kinds``."""
        return tuple(e for e in self.events if e.kind in kinds)
