"""Session grants: ``a`` at the prompt allows that exact call for the rest of the session.

A grant covers the same tool with the same arguments in the same session, asking for the same
source and reason, and nothing else; it is never consulted under ``never`` and never reached
by a deny.
"""

from __future__ import annotations

from toolpolicy.core.records import ApprovalRequest
from toolpolicy.core.vocabulary import ApprovalOutcome, ApprovalPolicy
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.selection import load
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import CountingHandlers, MemorySink, ScriptedResponder, Workspace

SESSION = ApprovalOutcome.ALLOWED_SESSION
GRANTED = "User approved this exact call for the rest of the session"


def _gate(ws: Workspace, handlers: CountingHandlers, human: ScriptedResponder, sink: MemorySink):  # type: ignore[no-untyped-def]
    return load("P03", workspace=ws.root).gate(
        approval=ApprovalService([human]),
        audit=[sink],
        registry=handlers.snapshot(),
        session_id="s1",
    )


def _write(call_id: str, path: str = "note.txt", content: str = "hi") -> ToolCall:
    return ToolCall(call_id, "write_file", {"path": path, "content": content})


def test_the_same_call_runs_again_without_asking_and_is_audited_as_allowed_session(
    ws: Workspace, handlers: CountingHandlers
) -> None:
    human = ScriptedResponder([SESSION], name="terminal-approval")
    sink = MemorySink()
    gate = _gate(ws, handlers, human, sink)
    context = ToolContext(str(ws.root), "c")
    first = gate.handle(_write("c1"), context)
    second = gate.handle(_write("c2"), context)
    assert not first.is_error and not second.is_error
    assert len(human.requests) == 1
    assert len(handlers.calls) == 2
    assert [(r.behavior, r.source, r.reason, r.approval_outcome) for r in sink.records] == [
        ("allow", "terminal-approval", GRANTED, "allowed-session"),
        ("allow", "session-grant", GRANTED, "allowed-session"),
    ]


def test_other_arguments_or_another_tool_ask_again(
    ws: Workspace, handlers: CountingHandlers
) -> None:
    human = ScriptedResponder(
        [SESSION, ApprovalOutcome.REJECTED, ApprovalOutcome.REJECTED], name="terminal-approval"
    )
    sink = MemorySink()
    gate = _gate(ws, handlers, human, sink)
    context = ToolContext(str(ws.root), "c")
    gate.handle(_write("c1"), context)
    other_content = gate.handle(_write("c2", content="HI"), context)
    edit = gate.handle(
        ToolCall("c3", "edit_file", {"path": "note.txt", "old_string": "hi", "new_string": "x"}),
        context,
    )
    assert other_content.content == "Error [permission_denied]: User denied this tool call"
    assert edit.content == "Error [permission_denied]: User denied this tool call"
    assert len(human.requests) == 3
    assert [c[0] for c in handlers.calls] == ["write_file"]
    assert (ws.root / "note.txt").read_text() == "hi"


def test_argument_order_does_not_make_another_call(
    ws: Workspace, handlers: CountingHandlers
) -> None:
    human = ScriptedResponder([SESSION], name="terminal-approval")
    gate = _gate(ws, handlers, human, MemorySink())
    context = ToolContext(str(ws.root), "c")
    gate.handle(ToolCall("c1", "write_file", {"path": "n.txt", "content": "x"}), context)
    gate.handle(ToolCall("c2", "write_file", {"content": "x", "path": "n.txt"}), context)
    assert len(human.requests) == 1
    assert len(handlers.calls) == 2


def test_a_grant_does_not_cross_sessions(ws: Workspace, handlers: CountingHandlers) -> None:
    human = ScriptedResponder([SESSION, ApprovalOutcome.REJECTED], name="terminal-approval")
    service = ApprovalService([human])
    policy = load("P03", workspace=ws.root)
    context = ToolContext(str(ws.root), "c")
    for session in ("s1", "s2"):
        gate = policy.gate(
            approval=service, audit=[MemorySink()], registry=handlers.snapshot(), session_id=session
        )
        gate.handle(_write(f"{session}-c"), context)
    assert len(human.requests) == 2
    assert len(handlers.calls) == 1


def test_never_denies_a_granted_call_without_asking(
    ws: Workspace, handlers: CountingHandlers
) -> None:
    human = ScriptedResponder([SESSION], name="terminal-approval")
    sink = MemorySink()
    gate = _gate(ws, handlers, human, sink)
    context = ToolContext(str(ws.root), "c")
    gate.handle(_write("c1"), context)
    gate.knobs.set_approval(ApprovalPolicy.NEVER)
    denied = gate.handle(_write("c2"), context)
    assert denied.content == (
        "Error [permission_denied]: Approval policy is never: "
        "File writes require explicit approval from chapter 3 onward"
    )
    assert len(human.requests) == 1
    assert len(handlers.calls) == 1
    assert sink.records[-1].approval_outcome != "allowed-session"


def test_a_denied_call_never_reaches_a_grant(ws: Workspace, handlers: CountingHandlers) -> None:
    human = ScriptedResponder([SESSION], name="terminal-approval")
    gate = _gate(ws, handlers, human, MemorySink())
    context = ToolContext(str(ws.root), "c")
    outside = _write("c1", path="../outside/x.txt")
    first = gate.handle(outside, context)
    second = gate.handle(outside._replace(id="c2"), context)
    expected = "Error [permission_denied]: Writing outside the workspace is forbidden"
    assert first.content == second.content == expected
    assert human.requests == []
    assert handlers.calls == []
    assert not (ws.outside / "x.txt").exists()


def test_a_grant_answers_the_ask_it_answered_and_no_other_ask_of_the_same_call() -> None:
    human = ScriptedResponder([SESSION, ApprovalOutcome.REJECTED], name="terminal-approval")
    service = ApprovalService([human])
    arguments = '{"command": "cat notes/hostname"}'
    shell = ("Shell execution requires approval", "shell-default")
    outside = ("Reading outside the workspace requires approval", "workspace-boundary")

    def ask(number: int, why: tuple[str, str]) -> ApprovalOutcome:
        request = ApprovalRequest(f"a{number}", f"c{number}", "s1", "shell", *why, arguments)
        return service.resolve(request, ApprovalPolicy.ASK).outcome

    assert ask(1, shell) is SESSION
    assert ask(2, shell) is SESSION  # the grant: the human is not asked
    assert ask(3, outside) is ApprovalOutcome.REJECTED  # another reason: asked again
    assert ask(4, shell) is SESSION
    assert [r.reason for r in human.requests] == [shell[0], outside[0]]
