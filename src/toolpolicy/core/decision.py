"""``Decision``: a behavior with the reason and the source that produced it."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import PermissionContractError
from .results import ToolResult, tool_error
from .vocabulary import Behavior, SandboxMode

__all__ = ["Decision"]


@dataclass(frozen=True, slots=True, init=False)
class Decision:
    """An immutable permission decision.

    ``sandbox`` is the mode an allowed call must run under (set by the engine; ``None``
    when no mode applies, e.g. a candidate from a single participant).
    """

    behavior: Behavior
    reason: str
    source: str
    sandbox: SandboxMode | None

    def __init__(
        self,
        behavior: Behavior | str,
        reason: str,
        source: str,
        sandbox: SandboxMode | None = None,
    ) -> None:
        parsed = Behavior.parse(behavior)
        if not isinstance(reason, str) or not reason.strip():
            raise PermissionContractError("a decision needs a non-empty reason")
        if not isinstance(source, str) or not source.strip():
            raise PermissionContractError("a decision needs a non-empty source")
        if sandbox is not None and not isinstance(sandbox, SandboxMode):
            raise PermissionContractError(f"unknown sandbox mode: {sandbox!r}")
        object.__setattr__(self, "behavior", parsed)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "sandbox", sandbox)

    @property
    def is_allowed(self) -> bool:
        """True only for a final allow."""
        return self.behavior is Behavior.ALLOW

    def to_tool_result(self) -> ToolResult:
        """The ``permission_denied`` result for a final deny; any other behavior is a bug."""
        if self.behavior is not Behavior.DENY:
            raise PermissionContractError("only a final deny decision can become a tool result")
        return tool_error("permission_denied", self.reason)

    def __repr__(self) -> str:
        return f"Decision({self.behavior.label}, {self.reason!r}, source={self.source!r})"
