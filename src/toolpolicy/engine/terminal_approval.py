"""``TerminalApproval``: ask the human at the terminal, fail closed everywhere else.

No TTY on stdin → ``unavailable``. Only ``y`` or ``yes`` (trimmed, any case) allow this
call; ``a`` or ``always`` allow this exact call (same tool, same arguments) for the rest of the
session; an empty line or anything else → ``rejected``; end of input or Ctrl-C → ``cancelled``.
"""

from __future__ import annotations

import sys
from typing import TextIO

from ..core.protocols import ApprovalRequest
from ..core.vocabulary import ApprovalOutcome
from .terminal_text import visible

__all__ = ["TerminalApproval"]


class TerminalApproval:
    """A responder that prompts on a terminal."""

    __slots__ = ("_input", "_output")

    def __init__(self, input: TextIO | None = None, output: TextIO | None = None) -> None:
        self._input = input if input is not None else sys.stdin
        self._output = output if output is not None else sys.stderr

    @property
    def name(self) -> str:
        """The decision source for answers given here."""
        return "terminal-approval"

    def respond(self, request: ApprovalRequest) -> ApprovalOutcome:
        """Prompt once and map the answer."""
        try:
            interactive = self._input.isatty()
        except (AttributeError, ValueError, OSError):
            interactive = False
        if not interactive:
            return ApprovalOutcome.UNAVAILABLE
        try:
            self._output.write(
                f"Tool call requires approval: {visible(request.tool)}\n"
                f"Reason: {visible(request.reason)}\n"
                f"Arguments: {visible(request.arguments_json)}\n"
                "Allow this call? [y/N, a = always this exact call] "
            )
            self._output.flush()
            line = self._input.readline()
        except (KeyboardInterrupt, EOFError):
            self._output.write("\n")
            return ApprovalOutcome.CANCELLED
        if line == "":
            self._output.write("\n")
            return ApprovalOutcome.CANCELLED
        return _ANSWERS.get(line.strip().lower(), ApprovalOutcome.REJECTED)


_ANSWERS = {
    "y": ApprovalOutcome.ALLOWED_ONCE,
    "yes": ApprovalOutcome.ALLOWED_ONCE,
    "a": ApprovalOutcome.ALLOWED_SESSION,
    "always": ApprovalOutcome.ALLOWED_SESSION,
}
