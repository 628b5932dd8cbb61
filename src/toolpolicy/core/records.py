"""The records the protocols exchange: an approval request, and an audit record.

They live apart from the protocols (``core.protocols``, which re-exports them) so that the
hook, which builds an audit record on every call, does not import ``typing``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .lean_typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any

__all__ = ["ApprovalRequest", "AuditRecord"]


class ApprovalRequest(NamedTuple):
    """What a responder is shown: the tool, why approval is needed, the validated arguments."""

    id: str
    call_id: str
    session_id: str
    tool: str
    reason: str
    source: str
    arguments_json: str


class AuditRecord(NamedTuple):
    """One final decision, as every audit sink receives it."""

    ts: str
    session_id: str
    call_id: str
    tool: str
    effect: str
    behavior: str
    source: str
    reason: str
    matched_rules: tuple[str, ...]
    preset: str
    sandbox: str
    approval: str
    approval_outcome: str | None
    arguments_sha256: str
    arguments: Mapping[str, Any] | None = None
    extra: Mapping[str, Any] = MappingProxyType({})

    def to_json(self) -> dict[str, Any]:
        """The JSON object written to a JSONL audit file."""
        out: dict[str, Any] = {
            "ts": self.ts,
            "session_id": self.session_id,
            "call_id": self.call_id,
            "tool": self.tool,
            "effect": self.effect,
            "behavior": self.behavior,
            "source": self.source,
            "reason": self.reason,
            "matched_rules": list(self.matched_rules),
            "preset": self.preset,
            "sandbox": self.sandbox,
            "approval": self.approval,
            "approval_outcome": self.approval_outcome,
            "arguments_sha256": self.arguments_sha256,
        }
        if self.arguments is not None:
            out["arguments"] = dict(self.arguments)
        out.update(self.extra)
        return out
