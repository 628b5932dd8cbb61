"""Test doubles shared by the test folders: a scripted approver and an in-memory audit sink.

They stand in for a human and a disk only; everything else in the tests is real.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from toolpolicy.core.protocols import ApprovalRequest, AuditRecord
from toolpolicy.core.vocabulary import ApprovalOutcome


@dataclass
class ScriptedResponder:
    """Answers from a list (anything, even junk or an exception) and remembers requests."""

    answers: list[object]
    name: str = "test-responder"
    requests: list[ApprovalRequest] = field(default_factory=list)

    def respond(self, request: ApprovalRequest) -> ApprovalOutcome | None:
        self.requests.append(request)
        answer = self.answers.pop(0) if self.answers else None
        if isinstance(answer, BaseException):
            raise answer
        return answer  # type: ignore[return-value]


@dataclass
class MemorySink:
    """Keeps audit records in memory; ``fail=True`` makes every record raise."""

    records: list[AuditRecord] = field(default_factory=list)
    fail: bool = False

    def record(self, record: AuditRecord) -> None:
        if self.fail:
            raise OSError("disk full")
        self.records.append(record)
