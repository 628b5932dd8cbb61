"""The one place an ``AuditRecord`` is built: for a final decision (the gate, the hooks) and
for an agent's report that a call ran (a hook's ``PostToolUse``).

Both stamp the time, hash the canonical arguments and, when asked, record the arguments with
secrets and file contents redacted (:mod:`toolpolicy.engine.redaction`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..core.decision import Decision
from ..core.lean_typing import TYPE_CHECKING, tuple_new
from ..core.records import AuditRecord
from ..core.vocabulary import ApprovalOutcome
from .audit import arguments_sha256, utc_now
from .knobs import KnobState

if TYPE_CHECKING:
    from typing import Any

__all__ = ["EXECUTED", "decision_record", "executed_record"]

EXECUTED = "executed"
_NOTHING: Mapping[str, Any] = MappingProxyType({})


def decision_record(
    session_id: str,
    call_id: str,
    tool: str,
    effect: str,
    decision: Decision,
    knobs: KnobState,
    matched_rules: tuple[str, ...],
    arguments: Mapping[str, object],
    include_arguments: bool = False,
    approval_outcome: ApprovalOutcome | None = None,
    *,
    extra: Mapping[str, Any] = _NOTHING,
) -> AuditRecord:
    """The record of one final decision, under the knobs it was decided with (the gate
    passes its arguments by position: keywords cost it on every call)."""
    # Positional, in ``AuditRecord``'s field order: keywords cost the gate half a microsecond
    # on every call; the decision and the knobs unpacked once, not read field by field.
    # str() of a StrEnum is its value, without the enum property's cost.
    behavior, reason, source, mode = decision
    sandbox, approval, preset = knobs
    return tuple_new(
        AuditRecord,
        (
            utc_now(),
            session_id,
            call_id,
            tool,
            effect,
            behavior.label,
            source,
            reason,
            matched_rules,
            preset,
            str(mode or sandbox),
            str(approval),
            str(approval_outcome) if approval_outcome is not None else None,
            arguments_sha256(arguments),
            _redacted(arguments) if include_arguments else None,
            extra,
        ),
    )


def executed_record(
    *,
    session_id: str,
    call_id: str,
    tool: str,
    effect: str,
    reason: str,
    source: str,
    arguments: Mapping[str, object],
    include_arguments: bool = False,
    extra: Mapping[str, Any] = _NOTHING,
) -> AuditRecord:
    """The record that the agent ran a call (behaviour ``executed``; no knobs: the agent, not
    toolpolicy, ran it)."""
    return AuditRecord(
        ts=utc_now(),
        session_id=session_id,
        call_id=call_id,
        tool=tool,
        effect=effect,
        behavior=EXECUTED,
        source=source,
        reason=reason,
        matched_rules=(),
        preset="",
        sandbox="",
        approval="",
        approval_outcome=None,
        arguments_sha256=arguments_sha256(arguments),
        arguments=_redacted(arguments) if include_arguments else None,
        extra=extra,
    )


def _redacted(arguments: Mapping[str, object]) -> dict[str, object]:
    """The arguments as recorded with ``--audit-arguments``; imported only then (the hook
    records none by default and does not load the redaction module)."""
    from .redaction import redacted_arguments

    return redacted_arguments(arguments)
