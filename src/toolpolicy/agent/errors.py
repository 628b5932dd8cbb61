"""The run errors of the agent loop.

::

    ToolPolicyError                       (toolpolicy.core.errors)
    └── AgentRunError                     the run ended without a final answer
        ├── AgentLimitError               max_turns replies and still no final answer
        ├── IncompleteModelReplyError     truncated, filtered, empty, or the script ran out
        ├── ModelRequestError             the model server could not be reached or refused
        ├── ModelResponseError            the model server answered something malformed
        └── ToolPairingError              the history breaks tool-call/tool-result pairing

Permission denials and permission evaluation failures are not run errors: they go back to
the model as tool results and the loop continues.
"""

from __future__ import annotations

from ..core.errors import ToolPolicyError

__all__ = [
    "AgentLimitError",
    "AgentRunError",
    "IncompleteModelReplyError",
    "ModelRequestError",
    "ModelResponseError",
    "ToolPairingError",
]


class AgentRunError(ToolPolicyError):
    """The run ended without a final answer; the history so far is not one."""


class AgentLimitError(AgentRunError):
    """The model did not give a final answer within ``max_turns`` replies."""

    def __init__(self, max_turns: int) -> None:
        self.max_turns = max_turns
        super().__init__(f"no final answer after {max_turns} turns (--max-turns {max_turns})")


class IncompleteModelReplyError(AgentRunError):
    """A reply that cannot end the run nor continue it.

    ``reason`` is ``length`` (truncated), ``content_filter``, ``empty`` (neither text nor
    tool calls) or ``exhausted`` (a scripted model ran out of replies).
    """

    def __init__(self, reason: str, message: str) -> None:
        self.reason = reason
        super().__init__(message)


class ModelRequestError(AgentRunError):
    """The request failed: network error, HTTP error, or retries exhausted.

    ``status`` is the last HTTP status, ``None`` when no HTTP answer arrived.
    """

    def __init__(self, message: str, status: int | None = None) -> None:
        self.status = status
        super().__init__(message)


class ModelResponseError(AgentRunError):
    """The model server's answer does not have the Chat Completions shape."""


class ToolPairingError(AgentRunError):
    """Every assistant tool call needs exactly one tool message, right after it, in order."""
