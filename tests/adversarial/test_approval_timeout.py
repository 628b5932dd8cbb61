"""A responder that never answers is cancelled by the timeout; a late answer changes nothing."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from toolpolicy.core.protocols import ApprovalRequest
from toolpolicy.core.vocabulary import ApprovalOutcome
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.selection import load
from toolpolicy.tools.builtin import builtin_registry
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import AlwaysAllow, MemorySink

TIMEOUT = 0.2
CANCELLED = "Error [permission_denied]: Approval was cancelled before an answer"


@dataclass
class Stuck:
    """Blocks until released, then answers ``answer`` (a late answer) or raises."""

    answer: ApprovalOutcome | None = ApprovalOutcome.ALLOWED_ONCE
    name: str = "stuck"
    release: threading.Event = field(default_factory=threading.Event)
    answered: threading.Event = field(default_factory=threading.Event)
    raise_late: bool = False

    def respond(self, request: ApprovalRequest) -> ApprovalOutcome | None:
        self.release.wait()
        self.answered.set()
        if self.raise_late:
            raise RuntimeError("late failure")
        return self.answer


def _write(ws: Path, service: ApprovalService, sink: MemorySink, name: str) -> str:
    gate = load(workspace=ws).gate(
        approval=service, audit=[sink], registry=builtin_registry().snapshot()
    )
    result = gate.handle(
        ToolCall(name, "write_file", {"path": f"{name}.txt", "content": "x"}),
        ToolContext(str(ws), name),
    )
    return result.content


def test_a_responder_that_never_answers_is_cancelled_and_the_write_is_denied(
    tmp_path: Path,
) -> None:
    stuck = Stuck()
    sink = MemorySink()
    try:
        content = _write(tmp_path, ApprovalService([stuck], timeout=TIMEOUT), sink, "c1")
        assert content == CANCELLED
        assert not (tmp_path / "c1.txt").exists()
        assert [r.approval_outcome for r in sink.records] == ["cancelled"]
        assert [r.behavior for r in sink.records] == ["deny"]
    finally:
        stuck.release.set()


def test_a_timeout_ends_the_chain_instead_of_asking_the_next_responder(tmp_path: Path) -> None:
    stuck, generous = Stuck(), AlwaysAllow()
    try:
        service = ApprovalService([stuck, generous], timeout=TIMEOUT)
        assert _write(tmp_path, service, MemorySink(), "c1") == CANCELLED
        assert generous.asked == 0
        assert not (tmp_path / "c1.txt").exists()
    finally:
        stuck.release.set()


def test_an_allowed_once_that_arrives_after_the_cancellation_is_ignored(tmp_path: Path) -> None:
    stuck = Stuck(answer=ApprovalOutcome.ALLOWED_ONCE)
    sink = MemorySink()
    service = ApprovalService([stuck], timeout=TIMEOUT)
    assert _write(tmp_path, service, sink, "c1") == CANCELLED
    stuck.release.set()
    assert stuck.answered.wait(timeout=30)
    assert not (tmp_path / "c1.txt").exists()
    assert [r.behavior for r in sink.records] == ["deny"]
    decided = [e.data for e in service.log.events if e.kind == "approval/decided"]
    assert [d["outcome"] for d in decided] == ["cancelled"]


@dataclass
class LateThenNo:
    """Call c1: blocks, then answers allowed-once late; call c2: lets that late answer land
    while c2 is being asked, then rejects c2."""

    name: str = "late-then-no"
    release: threading.Event = field(default_factory=threading.Event)
    answered: threading.Event = field(default_factory=threading.Event)

    def respond(self, request: ApprovalRequest) -> ApprovalOutcome | None:
        if request.call_id == "c1":
            self.release.wait()
            self.answered.set()
            return ApprovalOutcome.ALLOWED_ONCE
        self.release.set()
        self.answered.wait()
        return ApprovalOutcome.REJECTED


def test_a_late_answer_to_one_call_never_grants_the_next(tmp_path: Path) -> None:
    responder = LateThenNo()
    service = ApprovalService([responder], timeout=30)
    sink = MemorySink()
    gate = load(workspace=tmp_path).gate(
        approval=ApprovalService([responder], timeout=TIMEOUT),
        audit=[sink],
        registry=builtin_registry().snapshot(),
    )
    first = gate.handle(
        ToolCall("c1", "write_file", {"path": "c1.txt", "content": "x"}),
        ToolContext(str(tmp_path), "c1"),
    )
    assert first.content == CANCELLED
    gate = load(workspace=tmp_path).gate(
        approval=service, audit=[sink], registry=builtin_registry().snapshot()
    )
    second = gate.handle(
        ToolCall("c2", "write_file", {"path": "c2.txt", "content": "x"}),
        ToolContext(str(tmp_path), "c2"),
    )
    assert responder.answered.is_set()
    assert second.content == "Error [permission_denied]: User denied this tool call"
    assert not (tmp_path / "c1.txt").exists()
    assert not (tmp_path / "c2.txt").exists()
    assert [r.behavior for r in sink.records] == ["deny", "deny"]


def test_a_responder_that_raises_after_the_timeout_changes_nothing(tmp_path: Path) -> None:
    stuck = Stuck(raise_late=True)
    sink = MemorySink()
    assert _write(tmp_path, ApprovalService([stuck], timeout=TIMEOUT), sink, "c1") == CANCELLED
    stuck.release.set()
    assert stuck.answered.wait(timeout=30)
    assert not (tmp_path / "c1.txt").exists()
    assert [r.approval_outcome for r in sink.records] == ["cancelled"]
