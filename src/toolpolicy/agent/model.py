"""The model boundary: one protocol every model client implements, and the reply it returns.

A client gets the history (already checked for pairing) and the tool list, and returns one
``ModelReply``. Clients narrow whatever they receive into this type; nothing unchecked from a
model server or a script reaches the loop.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from ..tools.registry import ToolCall
from .errors import ModelResponseError
from .messages import Message

__all__ = ["MAX_TOOL_CALLS", "FinishReason", "ModelClient", "ModelReply"]

MAX_TOOL_CALLS = 64
MAX_CALL_ID_CHARS = 256


class FinishReason(StrEnum):
    """Why the model stopped, as Chat Completions reports it."""

    STOP = "stop"
    TOOL_CALLS = "tool_calls"
    LENGTH = "length"
    CONTENT_FILTER = "content_filter"


@dataclass(frozen=True, slots=True)
class ModelReply:
    """One assistant turn: text, tool calls (unique, non-empty ids, at most 64), and why."""

    content: str | None
    tool_calls: tuple[ToolCall, ...] = ()
    finish_reason: FinishReason = FinishReason.STOP

    def __post_init__(self) -> None:
        if len(self.tool_calls) > MAX_TOOL_CALLS:
            raise ModelResponseError(
                f"the reply has {len(self.tool_calls)} tool calls (at most {MAX_TOOL_CALLS})"
            )
        ids = [call.id for call in self.tool_calls]
        if any(not i or len(i) > MAX_CALL_ID_CHARS for i in ids):
            raise ModelResponseError(
                f"a tool call id is empty or longer than {MAX_CALL_ID_CHARS} characters"
            )
        if len(set(ids)) != len(ids):
            raise ModelResponseError("the reply repeats a tool call id")

    @property
    def text(self) -> str:
        """The content with surrounding whitespace removed ('' when there is none)."""
        return (self.content or "").strip()


class ModelClient(Protocol):
    """Anything that answers a history with one reply."""

    def complete(
        self, history: Sequence[Message], tools: Sequence[Mapping[str, Any]]
    ) -> ModelReply:
        """The next assistant reply; raises ``AgentRunError`` subclasses on failure."""
        ...
