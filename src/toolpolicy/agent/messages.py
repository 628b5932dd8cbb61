"""The conversation history in Chat Completions shape, and the pairing rule it must keep.

An assistant message that carries tool calls must be followed immediately by exactly one
tool message per call, with the same ids, in the same order. ``validate_tool_pairing`` is
run before every model call; a history that breaks the rule is never sent.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..tools.registry import ToolCall
from .errors import ToolPairingError

__all__ = [
    "AssistantMessage",
    "Message",
    "SystemMessage",
    "ToolMessage",
    "UserMessage",
    "arguments_json",
    "chat_messages",
    "to_chat",
    "validate_tool_pairing",
]


@dataclass(frozen=True, slots=True)
class SystemMessage:
    """The system prompt."""

    content: str


@dataclass(frozen=True, slots=True)
class UserMessage:
    """The user's prompt."""

    content: str


@dataclass(frozen=True, slots=True)
class AssistantMessage:
    """A model reply: text, tool calls, or both."""

    content: str | None
    tool_calls: tuple[ToolCall, ...] = ()


@dataclass(frozen=True, slots=True)
class ToolMessage:
    """The result of one tool call, paired with the call by ``tool_call_id``."""

    tool_call_id: str
    content: str


Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage


def arguments_json(call: ToolCall) -> str:
    """The call's arguments as the JSON string Chat Completions carries (kept verbatim)."""
    if isinstance(call.arguments, str):
        return call.arguments
    return json.dumps(dict(call.arguments), ensure_ascii=False)


def to_chat(message: Message) -> dict[str, Any]:
    """One message as a Chat Completions JSON object."""
    if isinstance(message, SystemMessage):
        return {"role": "system", "content": message.content}
    if isinstance(message, UserMessage):
        return {"role": "user", "content": message.content}
    if isinstance(message, ToolMessage):
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    out: dict[str, Any] = {"role": "assistant", "content": message.content}
    if message.tool_calls:
        out["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": arguments_json(call)},
            }
            for call in message.tool_calls
        ]
    return out


def chat_messages(history: Sequence[Message]) -> list[dict[str, Any]]:
    """The whole history as Chat Completions messages."""
    return [to_chat(message) for message in history]


def validate_tool_pairing(history: Sequence[Message]) -> None:
    """Raise ``ToolPairingError`` unless every tool call is answered right after it, in order.

    Refused: a tool message that answers no pending call (orphan or extra), a tool message
    with another id than the next pending call (wrong id or wrong order), any other message
    while calls are pending, a history that ends with calls pending, and an assistant
    message that repeats a call id.
    """
    pending: list[str] = []
    for index, message in enumerate(history):
        if isinstance(message, ToolMessage):
            if not pending:
                raise ToolPairingError(
                    f"message {index}: tool message for {message.tool_call_id!r} "
                    "answers no pending tool call"
                )
            expected = pending.pop(0)
            if message.tool_call_id != expected:
                raise ToolPairingError(
                    f"message {index}: expected the tool message for {expected!r}, "
                    f"got one for {message.tool_call_id!r}"
                )
            continue
        if pending:
            raise ToolPairingError(f"message {index}: tool call {pending[0]!r} has no tool message")
        if not isinstance(message, SystemMessage | UserMessage | AssistantMessage):
            raise ToolPairingError(f"message {index}: not a chat message: {type(message).__name__}")
        if isinstance(message, AssistantMessage) and message.tool_calls:
            ids = [call.id for call in message.tool_calls]
            if len(set(ids)) != len(ids):
                raise ToolPairingError(f"message {index}: an assistant message repeats a call id")
            pending = ids
    if pending:
        raise ToolPairingError(
            f"message {len(history)}: tool call {pending[0]!r} has no tool message"
        )
