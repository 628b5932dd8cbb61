"""The sandbox knob and per-call escalation."""

from __future__ import annotations

from toolpolicy.core.vocabulary import Behavior, SandboxMode
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.selection import load
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import ALLOW, CountingHandlers, MemorySink, ScriptedResponder, Workspace

ESCALATE = {"sandbox_permissions": "workspace-write", "justification": "write the report"}


def test_read_only_denies_file_writes(ws: Workspace) -> None:
    decision = load("P02", workspace=ws.root, preset="read-only").check(
        "write_file", {"path": "a.txt", "content": "x"}
    )
    assert (decision.behavior, decision.source, decision.reason) == (
        Behavior.DENY,
        "sandbox",
        "The read-only sandbox does not allow writes",
    )


def test_escalation_from_read_only_asks_and_carries_the_wider_mode(ws: Workspace) -> None:
    decision = load("P02", workspace=ws.root, preset="read-only").check(
        "write_file", {"path": "a.txt", "content": "x", **ESCALATE}
    )
    assert (decision.behavior, decision.source, decision.reason) == (
        Behavior.ASK,
        "sandbox-escalation",
        "Sandbox escalation to workspace-write requested: write the report",
    )
    assert decision.sandbox is SandboxMode.WORKSPACE_WRITE


def test_escalation_to_a_mode_that_is_not_wider_is_refused_without_asking(
    ws: Workspace, handlers: CountingHandlers
) -> None:
    responder = ScriptedResponder([ALLOW])
    policy = load("P02", workspace=ws.root)
    gate = policy.gate(
        approval=ApprovalService([responder]), audit=[MemorySink()], registry=handlers.snapshot()
    )
    result = gate.handle(
        ToolCall("c", "shell", {"command": "ls", **ESCALATE}), ToolContext(str(ws.root), "c")
    )
    assert result.content == (
        "Error [permission_denied]: Sandbox escalation must ask for a wider mode than "
        "workspace-write"
    )
    assert responder.requests == [] and handlers.calls == []


def test_escalation_under_never_is_denied_without_asking(ws: Workspace) -> None:
    decision = load("P02", workspace=ws.root, sandbox="read-only", approval="never").check(
        "write_file", {"path": "a.txt", "content": "x", **ESCALATE}
    )
    assert (decision.behavior, decision.source) == (Behavior.DENY, "approval-policy")
    assert decision.reason == (
        "Approval policy is never: Sandbox escalation to workspace-write requested: "
        "write the report"
    )


def test_allowed_escalation_applies_to_that_call_only(
    ws: Workspace, handlers: CountingHandlers
) -> None:
    seen: list[SandboxMode] = []

    def shell(arguments: object, context: ToolContext):  # type: ignore[no-untyped-def]
        seen.append(context.sandbox)
        from toolpolicy.core.results import tool_success

        return tool_success("ok")

    from toolpolicy.tools.definitions import builtin_definitions
    from toolpolicy.tools.registry import ToolSnapshot

    registry = ToolSnapshot(builtin_definitions(handlers={"shell": shell}))
    responder = ScriptedResponder([ALLOW, ALLOW])
    policy = load("P03", workspace=ws.root, preset="read-only")
    gate = policy.gate(
        approval=ApprovalService([responder]), audit=[MemorySink()], registry=registry
    )
    wider = {"command": "make", "sandbox_permissions": "danger-full-access", "justification": "j"}
    gate.handle(ToolCall("c1", "shell", wider), ToolContext(str(ws.root), "c1"))
    gate.handle(ToolCall("c2", "shell", {"command": "make"}), ToolContext(str(ws.root), "c2"))
    assert seen == [SandboxMode.DANGER_FULL_ACCESS, SandboxMode.READ_ONLY]
    assert gate.knobs.state.sandbox is SandboxMode.READ_ONLY


def test_escalation_fields_come_together(ws: Workspace) -> None:
    from toolpolicy.core.errors import CallRejected

    policy = load(workspace=ws.root)
    for arguments in (
        {"command": "ls", "sandbox_permissions": "danger-full-access"},
        {"command": "ls", "justification": "because"},
    ):
        try:
            policy.check("shell", arguments)
        except CallRejected as exc:
            assert exc.code == "invalid_arguments"
            assert exc.content == (
                "Error [invalid_arguments]: sandbox_permissions and justification must be "
                "given together"
            )
        else:
            raise AssertionError("an incomplete escalation was accepted")


def test_the_danger_preset_turns_shell_asks_into_denials(ws: Workspace) -> None:
    decision = load(workspace=ws.root, preset="danger-full-access").check(
        "shell", {"command": "ls"}
    )
    assert (decision.behavior, decision.source, decision.reason) == (
        Behavior.DENY,
        "approval-policy",
        "Approval policy is never: Shell execution requires approval",
    )
