"""The approval service: never before any responder, the chain, timeouts."""

from __future__ import annotations

import threading

from toolpolicy.core.protocols import ApprovalRequest
from toolpolicy.core.vocabulary import ApprovalOutcome, ApprovalPolicy
from toolpolicy.engine.approval import ApprovalService

from .conftest import ALLOW, ScriptedResponder

REQUEST = ApprovalRequest("approval-1", "call-1", "s", "shell", "why", "shell-default", "{}")


def test_never_rejects_before_any_responder_is_consulted() -> None:
    allow_all = ScriptedResponder([ALLOW, ALLOW], name="allow-all")
    service = ApprovalService([allow_all])
    service.register(ScriptedResponder([ALLOW], name="late"), prepend=True)
    result = service.resolve(REQUEST, ApprovalPolicy.NEVER)
    assert (result.outcome, result.source) == (ApprovalOutcome.REJECTED, "approval-policy")
    assert allow_all.requests == []
    assert service.log.events == ()


def test_the_first_answer_wins_and_none_passes_on() -> None:
    passer = ScriptedResponder([None], name="passer")
    answerer = ScriptedResponder([ApprovalOutcome.REJECTED], name="answerer")
    never_reached = ScriptedResponder([ALLOW], name="third")
    service = ApprovalService([passer, answerer, never_reached])
    result = service.resolve(REQUEST, ApprovalPolicy.ASK)
    assert (result.outcome, result.source) == (ApprovalOutcome.REJECTED, "answerer")
    assert len(passer.requests) == 1 and never_reached.requests == []


def test_asked_and_decided_events_share_the_approval_id() -> None:
    service = ApprovalService([ScriptedResponder([ALLOW])])
    service.resolve(REQUEST, ApprovalPolicy.ASK)
    events = [e.to_json() for e in service.log.events]
    assert [e["kind"] for e in events] == ["approval/asked", "approval/decided"]
    assert events[0]["id"] == events[1]["id"] == "approval-1"
    assert events[1]["outcome"] == "allowed-once"


class _Blocking:
    name = "blocking"

    def __init__(self, answer: ApprovalOutcome) -> None:
        self.release = threading.Event()
        self.answer = answer
        self.answered = threading.Event()

    def respond(self, request: ApprovalRequest) -> ApprovalOutcome:
        self.release.wait(10)
        self.answered.set()
        return self.answer


def test_a_responder_that_never_answers_is_cancelled_by_the_timeout() -> None:
    blocking = _Blocking(ApprovalOutcome.ALLOWED_ONCE)
    service = ApprovalService([blocking], timeout=0.2)
    result = service.resolve(REQUEST, ApprovalPolicy.ASK)
    assert result.outcome is ApprovalOutcome.CANCELLED
    blocking.release.set()
    assert blocking.answered.wait(5)
    # the late allowed-once changed nothing: the recorded outcome stays cancelled
    assert service.log.events[-1].data["outcome"] == "cancelled"
