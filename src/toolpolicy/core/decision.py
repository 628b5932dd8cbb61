"""``Decision``: a behavior with the reason and the source that produced it."""

from __future__ import annotations

from .errors import PermissionContractError
from .lean_typing import NamedTuple
from .results import ToolResult, tool_error
from .vocabulary import Behavior, SandboxMode

__all__ = ["APPROVAL_NEVER_SOURCE", "Decision"]

APPROVAL_NEVER_SOURCE = "approval-policy"
"""The source of the deny an approval policy of ``never`` makes of an ask."""


class _DecisionFields(NamedTuple):
    behavior: Behavior
    reason: str
    source: str
    sandbox: SandboxMode | None


class Decision(_DecisionFields):
    """An immutable permission decision.

    Construction refuses an unknown behavior, an empty reason and an empty source.
    ``sandbox`` is the mode an allowed call must run under (``None`` on a participant's
    candidate, which does not know the knobs).
    """

    __slots__ = ()

    def __new__(
        cls,
        behavior: Behavior | str,
        reason: str,
        source: str,
        sandbox: SandboxMode | None = None,
    ) -> Decision:
        parsed = behavior if behavior.__class__ is Behavior else Behavior.parse(behavior)
        if not isinstance(reason, str) or not reason.strip():
            raise PermissionContractError("a decision needs a non-empty reason")
        if not isinstance(source, str) or not source.strip():
            raise PermissionContractError("a decision needs a non-empty source")
        if sandbox is not None and not isinstance(sandbox, SandboxMode):
            raise PermissionContractError(f"unknown sandbox mode: {sandbox!r}")
        return super().__new__(cls, parsed, reason, source, sandbox)

    @property
    def is_allowed(self) -> bool:
        """True only for a final allow."""
        return self.behavior is Behavior.ALLOW

    def to_json(self) -> dict[str, str]:
        """The decision as JSON: behavior, source, reason, and the sandbox when set."""
        out = {"behavior": self.behavior.label, "source": self.source, "reason": self.reason}
        if self.sandbox is not None:
            out["sandbox"] = self.sandbox.value
        return out

    def never_approved(self) -> Decision:
        """The deny an approval policy of ``never`` makes of this ask."""
        return Decision(
            Behavior.DENY, f"Approval policy is never: {self.reason}", APPROVAL_NEVER_SOURCE
        )

    def to_tool_result(self) -> ToolResult:
        """The ``permission_denied`` result for a final deny; any other behavior is a bug."""
        if self.behavior is not Behavior.DENY:
            raise PermissionContractError("only a final deny decision can become a tool result")
        return tool_error("permission_denied", self.reason)

    def __repr__(self) -> str:
        return f"Decision({self.behavior.label}, {self.reason!r}, source={self.source!r})"
