"""Tool results: what goes back to the model, paired with the call id."""

from __future__ import annotations

from .lean_typing import NamedTuple

__all__ = ["ToolResult", "is_tool_result", "tool_error", "tool_success"]


class ToolResult(NamedTuple):
    """The outcome of one tool call as the model will see it."""

    content: str
    is_error: bool
    error_code: str | None = None


def tool_success(content: str) -> ToolResult:
    """A successful result carrying ``content``."""
    return ToolResult(content=content, is_error=False)


def tool_error(code: str, message: str) -> ToolResult:
    """A failed result; the model reads ``Error [code]: message``."""
    return ToolResult(content=f"Error [{code}]: {message}", is_error=True, error_code=code)


def is_tool_result(value: object) -> bool:
    """True only for a well-formed ``ToolResult`` (handler output is untrusted)."""
    if not isinstance(value, ToolResult):
        return False
    if not isinstance(value.content, str) or not isinstance(value.is_error, bool):
        return False
    if value.is_error:
        return isinstance(value.error_code, str) and value.error_code != ""
    return value.error_code is None
