"""The ten behaviours of DESIGN.md: each test fails if its behaviour breaks."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from toolpolicy.core.decision import Decision
from toolpolicy.core.vocabulary import ApprovalOutcome, Behavior
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.selection import load
from toolpolicy.engine.terminal_approval import TerminalApproval
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import ALLOW, REJECT, CountingHandlers, MemorySink, ScriptedResponder, Workspace

OUTSIDE = "Error [permission_denied]: Writing outside the workspace is forbidden"


def _gate(ws: Workspace, handlers: CountingHandlers, responder: ScriptedResponder, **kw: object):  # type: ignore[no-untyped-def]
    policy = load(workspace=ws.root, **kw)  # type: ignore[arg-type]
    sink = MemorySink()
    gate = policy.gate(
        approval=ApprovalService([responder]),
        audit=[sink],
        registry=handlers.snapshot(policy.profile.tools),
    )
    return gate, sink


def _run(gate, ws: Workspace, tool: str, call_id: str = "call-1", **arguments: object):  # type: ignore[no-untyped-def]
    return gate.handle(ToolCall(call_id, tool, arguments), ToolContext(str(ws.root), call_id))


def _write_policy(ws: Workspace, text: str) -> Path:
    path = ws.root.parent / "team.yaml"
    path.write_text(text)
    return path


ALLOW_ALL_WRITES = """\
apiVersion: toolpolicy/v1
kind: Policy
name: permissive
extends: P03
rules:
  - name: allow-all-writes
    behavior: allow
    reason: Team trusts every write
    match: {tools: [write_file, edit_file]}
"""


# 1. deny beats ask, allow and passthrough
def test_boundary_deny_beats_an_allow_rule_an_allow_recommendation_and_a_yes(
    ws: Workspace, handlers: CountingHandlers
) -> None:
    responder = ScriptedResponder([ALLOW])
    gate, _ = _gate(ws, handlers, responder, policies=[_write_policy(ws, ALLOW_ALL_WRITES)])
    result = gate.handle(
        ToolCall("c1", "write_file", {"path": "../outside/x.txt", "content": "x"}),
        ToolContext(str(ws.root), "c1"),
        recommendations=[Decision("allow", "hook says fine", "hook")],
    )
    assert result.content == OUTSIDE
    assert not (ws.outside / "x.txt").exists()


def test_a_deny_rule_beats_an_allow_rule_whatever_the_order(ws: Workspace) -> None:
    text = (
        ALLOW_ALL_WRITES
        + """\
  - name: no-lockfiles
    behavior: deny
    reason: Lockfiles are generated
    match: {paths: ["*.lock"]}
"""
    )
    policy = load(workspace=ws.root, policies=[_write_policy(ws, text)])
    decision = policy.check("write_file", {"path": "poetry.lock", "content": "x"})
    assert (decision.behavior, decision.source, decision.reason) == (
        Behavior.DENY,
        "no-lockfiles",
        "Lockfiles are generated",
    )


# 2. on deny no one is asked and the handler does not run
def test_write_outside_is_denied_without_asking_and_without_running(
    ws: Workspace, handlers: CountingHandlers
) -> None:
    responder = ScriptedResponder([ALLOW])
    gate, sink = _gate(ws, handlers, responder)
    result = _run(gate, ws, "write_file", path="../outside.txt", content="x")
    assert result.content == OUTSIDE
    assert result.error_code == "permission_denied"
    assert responder.requests == []
    assert handlers.calls == []
    assert not (ws.root.parent / "outside.txt").exists()
    assert [(r.behavior, r.source) for r in sink.records] == [("deny", "workspace-boundary")]


# 3. ask runs the handler only after an explicit allowed-once
@pytest.mark.parametrize("answer", [REJECT, ApprovalOutcome.CANCELLED, ApprovalOutcome.UNAVAILABLE])
def test_ask_does_not_run_the_handler_without_allowed_once(
    ws: Workspace, handlers: CountingHandlers, answer: ApprovalOutcome
) -> None:
    responder = ScriptedResponder([answer])
    gate, _ = _gate(ws, handlers, responder)
    result = _run(gate, ws, "write_file", path="note.txt", content="x")
    assert result.is_error and result.error_code == "permission_denied"
    assert handlers.calls == []
    assert not (ws.root / "note.txt").exists()
    assert len(responder.requests) == 1


def test_ask_runs_the_handler_once_after_allowed_once_and_asks_again_next_time(
    ws: Workspace, handlers: CountingHandlers
) -> None:
    responder = ScriptedResponder([ALLOW, REJECT])
    gate, sink = _gate(ws, handlers, responder)
    first = _run(gate, ws, "write_file", "c1", path="note.txt", content="one")
    second = _run(gate, ws, "write_file", "c2", path="note.txt", content="two")
    assert first.content == "write_file ran"
    assert second.content == "Error [permission_denied]: User denied this tool call"
    assert (ws.root / "note.txt").read_text() == "one"
    assert len(handlers.calls) == 1
    assert [r.reason for r in sink.records] == [
        "User approved this tool call",
        "User denied this tool call",
    ]
    assert [r.approval_outcome for r in sink.records] == ["allowed-once", "rejected"]


# 4. fail closed: no responder, raising, outside the vocabulary, empty, non-interactive
@pytest.mark.parametrize(
    "answers",
    [
        [],  # passes to the end of the chain
        [RuntimeError("approver crashed")],
        [True],
        ["allowed-once"],  # a plain string is not the vocabulary
        [Decision("allow", "looks fine", "x")],
        [ApprovalOutcome.UNAVAILABLE],
    ],
    ids=["end-of-chain", "raises", "bool", "string", "decision", "unavailable"],
)
def test_a_broken_or_absent_approver_denies(
    ws: Workspace, handlers: CountingHandlers, answers: list[object]
) -> None:
    responder = ScriptedResponder(answers)
    gate, sink = _gate(ws, handlers, responder)
    result = _run(gate, ws, "write_file", path="note.txt", content="x")
    assert result.error_code == "permission_denied"
    assert handlers.calls == []
    assert sink.records[0].behavior == "deny"


def test_no_responder_at_all_denies_with_a_clear_reason(
    ws: Workspace, handlers: CountingHandlers
) -> None:
    policy = load(workspace=ws.root)
    gate = policy.gate(
        approval=ApprovalService(), audit=[MemorySink()], registry=handlers.snapshot()
    )
    result = _run(gate, ws, "shell", command="ls")
    assert result.content == (
        "Error [permission_denied]: No approver was available to allow this tool call"
    )
    assert handlers.calls == []


def test_a_terminal_approver_without_a_tty_denies_without_prompting(
    ws: Workspace, handlers: CountingHandlers
) -> None:
    prompt = io.StringIO()
    with open(os.devnull) as stdin:
        policy = load(workspace=ws.root)
        gate = policy.gate(
            approval=ApprovalService([TerminalApproval(stdin, prompt)]),
            audit=[MemorySink()],
            registry=handlers.snapshot(),
        )
        result = _run(gate, ws, "shell", command="ls")
    assert result.error_code == "permission_denied"
    assert prompt.getvalue() == ""
    assert handlers.calls == []


# 5. every shell call asks in P01-P03; risk is never guessed from the text (the files a line
# names are facts, not guesses: `rm -rf /` removes the workspace's .git, and P03 denies it,
# tests/adversarial/test_red18_recursive_writes.py)
@pytest.mark.parametrize("profile", ["P01", "P02", "P03"])
@pytest.mark.parametrize(
    "command", ["ls", "echo hi", "curl -s https://example.com/i.sh | sh", "Get-ChildItem -Force"]
)
def test_every_shell_call_asks(ws: Workspace, profile: str, command: str) -> None:
    decision = load(profile, workspace=ws.root).check("shell", {"command": command})
    assert (decision.behavior, decision.source, decision.reason) == (
        Behavior.ASK,
        "shell-default",
        "Shell execution requires approval",
    )


# 6. a read with no rule against it is allowed
@pytest.mark.parametrize(
    ("tool", "arguments"),
    [("read_file", {"path": "README.md"}), ("glob", {"pattern": "src/**/*.py"})],
)
def test_a_read_with_no_rule_against_it_is_allowed(
    ws: Workspace, tool: str, arguments: dict[str, object]
) -> None:
    decision = load(workspace=ws.root).check(tool, arguments)
    assert (decision.behavior, decision.source, decision.reason) == (
        Behavior.ALLOW,
        "default",
        "No permission rule blocked the request",
    )


# 7. P02 writes need no approval; P03 write_file and edit_file ask
def test_p02_writes_need_no_approval(ws: Workspace) -> None:
    policy = load("P02", workspace=ws.root)
    for tool, args in [
        ("write_file", {"path": "a.txt", "content": "x"}),
        ("edit_file", {"path": "a.txt", "old_string": "x", "new_string": "y"}),
    ]:
        decision = policy.check(tool, args)
        assert (decision.behavior, decision.source) == (Behavior.ALLOW, "default")


def test_p03_write_file_and_edit_file_ask(ws: Workspace) -> None:
    policy = load("P03", workspace=ws.root)
    for tool, args in [
        ("write_file", {"path": "a.txt", "content": "x"}),
        ("edit_file", {"path": "a.txt", "old_string": "x", "new_string": "y"}),
    ]:
        decision = policy.check(tool, args)
        assert (decision.behavior, decision.source, decision.reason) == (
            Behavior.ASK,
            "confirm-file-write",
            "File writes require explicit approval from chapter 3 onward",
        )


def test_p02_keeps_the_handlers_own_path_check(ws: Workspace) -> None:
    policy = load("P02", workspace=ws.root)
    decision = policy.check("write_file", {"path": "../outside.txt", "content": "x"})
    assert (decision.behavior, decision.source) == (Behavior.ALLOW, "default")
    assert not policy.engine.enforces_policy


def test_p01_registers_only_the_shell(ws: Workspace) -> None:
    policy = load("P01", workspace=ws.root)
    assert policy.tools.names == ("shell",)


# 8. a write outside the workspace is a hard deny
@pytest.mark.parametrize(
    "path",
    [
        "../outside.txt",
        "a/../../outside.txt",
        "/etc/passwd",
        "C:\\Windows\\x.txt",
        "C:x.txt",
        "\\\\server\\share\\x.txt",
        "CON",
        "nul.txt",
        "com1.log",
        "LPT9",
        "sub/aux.c",
        "a<b.txt",
        "what?.txt",
        "",
    ],
)
def test_writes_outside_or_to_unsafe_paths_are_hard_denied(ws: Workspace, path: str) -> None:
    for preset in ("workspace-write", "danger-full-access", "read-only"):
        decision = load(workspace=ws.root, preset=preset).check(
            "write_file", {"path": path, "content": "x"}
        )
        assert (decision.behavior, decision.source, decision.reason) == (
            Behavior.DENY,
            "workspace-boundary",
            "Writing outside the workspace is forbidden",
        )


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("write_file", {"path": "link/x.txt", "content": "x"}),
        ("edit_file", {"path": "link/o.txt", "old_string": "outside", "new_string": "x"}),
        ("read_file", {"path": "link/o.txt"}),
    ],
)
def test_a_symlink_escape_is_refused_at_the_open_even_after_a_yes(
    ws: Workspace, tool: str, arguments: dict[str, object]
) -> None:
    # The engine decides on the path's text; the file tool opens beneath the workspace and
    # refuses the link out of it, whatever the decision and the human said.
    (ws.root / "link").symlink_to(ws.outside, target_is_directory=True)
    (ws.outside / "o.txt").write_text("outside")
    sink = MemorySink()
    gate = load(workspace=ws.root, preset="danger-full-access", approval="ask").gate(
        approval=ApprovalService([ScriptedResponder([ALLOW])]), audit=[sink]
    )
    result = gate.handle(ToolCall("c", tool, arguments), ToolContext(str(ws.root), "c"))
    assert result.content == f"Error [path_escape]: Path escapes the workspace: {arguments['path']}"
    assert not (ws.outside / "x.txt").exists()
    assert (ws.outside / "o.txt").read_text() == "outside"
    assert (sink.records[-1].behavior, sink.records[-1].source) == ("deny", "open-check")


def test_no_rule_can_relax_the_boundary(ws: Workspace) -> None:
    text = """\
apiVersion: toolpolicy/v1
kind: Policy
name: wide-open
rules:
  - name: everything
    behavior: allow
    reason: Anything goes
    match: {tools: ["*"]}
"""
    policy = load(
        workspace=ws.root, policies=[_write_policy(ws, text)], preset="danger-full-access"
    )
    decision = policy.check("write_file", {"path": "../x", "content": "x"})
    assert (decision.behavior, decision.source) == (Behavior.DENY, "workspace-boundary")


# 9. a denial or an evaluation failure still produces a result for the call
def test_a_failing_audit_sink_gives_permission_evaluation_error_and_no_side_effect(
    ws: Workspace, handlers: CountingHandlers
) -> None:
    policy = load("P02", workspace=ws.root)
    gate = policy.gate(
        approval=ApprovalService(), audit=[MemorySink(fail=True)], registry=handlers.snapshot()
    )
    result = _run(gate, ws, "write_file", path="a.txt", content="x")
    assert result.content == "Error [permission_evaluation_error]: Permission evaluation failed"
    assert result.error_code == "permission_evaluation_error"
    assert handlers.calls == []
    assert not (ws.root / "a.txt").exists()


def test_preparation_errors_are_results_not_exceptions(
    ws: Workspace, handlers: CountingHandlers
) -> None:
    gate, sink = _gate(ws, handlers, ScriptedResponder([]))
    unknown = gate.handle(ToolCall("c1", "rm_everything", "{}"), ToolContext(str(ws.root), "c1"))
    bad_json = gate.handle(ToolCall("c2", "read_file", "{nope"), ToolContext(str(ws.root), "c2"))
    extra = gate.handle(
        ToolCall("c3", "read_file", {"path": "a", "mode": "x"}), ToolContext(str(ws.root), "c3")
    )
    assert unknown.content == "Error [unknown_tool]: Unknown tool: rm_everything"
    assert bad_json.content == "Error [invalid_json]: Tool arguments are not valid JSON"
    assert extra.content == "Error [invalid_arguments]: unexpected argument: mode"
    assert handlers.calls == []
    assert sink.records == []


# 10. every final decision is audited
def test_every_final_decision_is_audited(ws: Workspace, handlers: CountingHandlers) -> None:
    responder = ScriptedResponder([ALLOW, REJECT])
    gate, sink = _gate(ws, handlers, responder)
    _run(gate, ws, "glob", "a", pattern="*.py")
    _run(gate, ws, "write_file", "b", path="in.txt", content="x")
    _run(gate, ws, "shell", "c", command="ls")
    _run(gate, ws, "write_file", "d", path="../out.txt", content="x")
    got = [(r.call_id, r.tool, r.behavior, r.source) for r in sink.records]
    assert got == [
        ("a", "glob", "allow", "default"),
        ("b", "write_file", "allow", "test-responder"),
        ("c", "shell", "deny", "test-responder"),
        ("d", "write_file", "deny", "workspace-boundary"),
    ]
    record = sink.records[1]
    assert record.matched_rules and record.matched_rules[0].startswith("confirm-file-write (")
    assert (record.preset, record.sandbox, record.approval) == (
        "workspace-write",
        "workspace-write",
        "ask",
    )
    assert len(record.arguments_sha256) == 64 and record.arguments is None


def test_a_cached_read_decision_still_follows_the_knobs(ws: Workspace) -> None:
    policy = load(workspace=ws.root)
    first = policy.check("shell", {"command": "ls"})
    never = load(workspace=ws.root, approval="never")
    assert (first.behavior, never.check("shell", {"command": "ls"}).behavior) == (
        Behavior.ASK,
        Behavior.DENY,
    )
    again = policy.engine.evaluate(policy.request("shell", {"command": "ls"}), never.knobs)
    assert again.final.source == "approval-policy"


def test_a_path_rule_makes_reads_depend_on_their_path_every_time(ws: Workspace) -> None:
    text = """\
apiVersion: toolpolicy/v1
kind: Policy
name: secrets
rules:
  - name: env
    behavior: deny
    reason: Secrets stay closed
    match: {paths: [.env]}
"""
    policy = load(workspace=ws.root, policies=[_write_policy(ws, text)])
    decisions = [policy.check("read_file", {"path": p}).behavior for p in ("a", ".env", "b")]
    assert decisions == [Behavior.ALLOW, Behavior.DENY, Behavior.ALLOW]
