"""``AgentRunner``: the loop that asks the model, runs tool calls through the gate, repeats.

One turn is one model reply. Before every model call the history is checked for pairing.
A reply with tool calls gets, for every call in order, exactly one tool message with the
same id: the gate's result (the handler's output, a preparation error, ``permission_denied``
or ``permission_evaluation_error``). Nothing a tool call does ends the loop. The run ends with
a ``RunResult`` (a reply with text and no tool calls), ``AgentLimitError`` after
``max_turns`` replies, or ``IncompleteModelReplyError`` for a truncated, filtered or empty
reply. Ctrl-C ends it too, with every call already proposed still answered in the history.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..core.errors import ConfigurationError
from ..core.results import ToolResult, tool_error
from ..tools.registry import ToolCall, ToolContext, ToolSnapshot
from .errors import AgentLimitError, IncompleteModelReplyError
from .messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolMessage,
    UserMessage,
    validate_tool_pairing,
)
from .model import FinishReason, ModelClient, ModelReply

__all__ = [
    "DEFAULT_MAX_TURNS",
    "DEFAULT_SYSTEM_PROMPT",
    "MAX_TURNS_LIMIT",
    "AgentRunner",
    "RunResult",
    "ToolGate",
]

DEFAULT_MAX_TURNS = 20
MAX_TURNS_LIMIT = 1000
DEFAULT_SYSTEM_PROMPT = (
    "You are a coding agent working inside one workspace directory. Use the tools to act; "
    "paths are relative to the workspace. Every tool call is checked by a permission policy "
    "and may be refused; a refusal comes back as the call's result. When the task is done, "
    "reply with a short final answer and no tool calls."
)
# Deciding failed in a way the gate did not turn into a result itself: same result it uses.
EVALUATION_FAILED = tool_error("permission_evaluation_error", "Permission evaluation failed")
INTERRUPTED = tool_error("run_interrupted", "The run was interrupted before this call finished")


class ToolGate(Protocol):
    """What the loop needs from ``toolpolicy.engine.gate.Gate``."""

    @property
    def registry(self) -> ToolSnapshot:
        """The tools offered to the model."""
        ...

    @property
    def session_id(self) -> str:
        """The session id handed to tools and audit records."""
        ...

    def handle(self, call: ToolCall, context: ToolContext) -> ToolResult:
        """Prepare, decide, approve, audit and run one call; always a result."""
        ...


@dataclass(frozen=True, slots=True)
class RunResult:
    """A finished run: the final text, how many model replies it took, the whole history."""

    final_text: str
    turns: int
    history: tuple[Message, ...]


class AgentRunner:
    """Runs one prompt to a final answer through a model client and a gate."""

    __slots__ = (
        "_gate",
        "_history",
        "_interrupted",
        "_max_turns",
        "_model",
        "_system_prompt",
        "_workspace",
    )

    def __init__(
        self,
        model: ModelClient,
        gate: ToolGate,
        *,
        workspace: str,
        max_turns: int = DEFAULT_MAX_TURNS,
        system_prompt: str | None = DEFAULT_SYSTEM_PROMPT,
        interrupted: threading.Event | None = None,
    ) -> None:
        """``interrupted``, once set, stops the run after the current call's result.

        It exists for interrupts that a prompt turned into a cancelled approval: the
        cancellation is decided and audited, then the run ends with ``KeyboardInterrupt``.
        """
        if not 1 <= max_turns <= MAX_TURNS_LIMIT:
            raise ConfigurationError(f"max_turns must be between 1 and {MAX_TURNS_LIMIT}")
        self._model = model
        self._gate = gate
        self._workspace = workspace
        self._max_turns = max_turns
        self._system_prompt = system_prompt
        self._interrupted = interrupted
        self._history: list[Message] = []

    @property
    def history(self) -> tuple[Message, ...]:
        """The current (or last) run's history; paired even after an error or Ctrl-C."""
        return tuple(self._history)

    @property
    def max_turns(self) -> int:
        """The most model replies one run may take."""
        return self._max_turns

    def run(self, prompt: str) -> RunResult:
        """Run ``prompt`` until the model gives a final answer; raises ``AgentRunError``."""
        self._history = []
        if self._system_prompt:
            self._history.append(SystemMessage(self._system_prompt))
        self._history.append(UserMessage(prompt))
        tools = self._gate.registry.openai_tools()
        for turn in range(1, self._max_turns + 1):
            validate_tool_pairing(self._history)
            reply = self._model.complete(self.history, tools)
            _refuse_incomplete(reply)
            if not reply.tool_calls:
                self._history.append(AssistantMessage(reply.content))
                return RunResult(reply.text, turn, self.history)
            self._history.append(AssistantMessage(reply.content, reply.tool_calls))
            self._answer(reply.tool_calls)
        raise AgentLimitError(self._max_turns)

    def _answer(self, calls: Sequence[ToolCall]) -> None:
        for position, call in enumerate(calls):
            try:
                result = self._handle(call)
            except KeyboardInterrupt:
                self._answer_interrupted(calls[position:])
                raise
            self._history.append(ToolMessage(call.id, result.content))
            if self._interrupted is not None and self._interrupted.is_set():
                self._answer_interrupted(calls[position + 1 :])
                raise KeyboardInterrupt

    def _handle(self, call: ToolCall) -> ToolResult:
        context = ToolContext(self._workspace, call_id=call.id, session_id=self._gate.session_id)
        try:
            return self._gate.handle(call, context)
        except Exception:
            # A permission failure never aborts the loop: the model gets a paired result.
            return EVALUATION_FAILED

    def _answer_interrupted(self, calls: Sequence[ToolCall]) -> None:
        self._history.extend(ToolMessage(call.id, INTERRUPTED.content) for call in calls)


def _refuse_incomplete(reply: ModelReply) -> None:
    if reply.finish_reason is FinishReason.LENGTH:
        raise IncompleteModelReplyError(
            "length", "the model reply was cut off (finish_reason length)"
        )
    if reply.finish_reason is FinishReason.CONTENT_FILTER:
        raise IncompleteModelReplyError(
            "content_filter", "the model reply was withheld by a content filter"
        )
    if not reply.tool_calls and not reply.text:
        raise IncompleteModelReplyError("empty", "the model reply has neither text nor tool calls")
