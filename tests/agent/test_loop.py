"""AgentRunner with the real P03 policy, real gate, real tools; only the model is scripted."""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

import pytest

from toolpolicy.agent.compose import build_agent
from toolpolicy.agent.errors import AgentLimitError, IncompleteModelReplyError
from toolpolicy.agent.loop import AgentRunner
from toolpolicy.agent.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolMessage,
    UserMessage,
    validate_tool_pairing,
)
from toolpolicy.agent.model import FinishReason, ModelReply
from toolpolicy.agent.scripted import ScriptedModel
from toolpolicy.core.errors import ConfigurationError
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.audit import JsonlAuditSink, TerminalAuditSink
from toolpolicy.engine.selection import ToolPolicy, load
from toolpolicy.engine.terminal_approval import TerminalApproval
from toolpolicy.tools.registry import ToolCall

from .conftest import SEED_SCRIPT, Pty, Workspace, audit_lines


def replies(*items: ModelReply) -> ScriptedModel:
    return ScriptedModel(items)


def tool(call_id: str, name: str, arguments: dict[str, object] | str) -> ModelReply:
    return ModelReply(None, (ToolCall(call_id, name, arguments),), FinishReason.TOOL_CALLS)


def final(text: str) -> ModelReply:
    return ModelReply(text)


def agent(
    policy: ToolPolicy,
    model: ScriptedModel,
    *,
    stdin: TextIO | None = None,
    audit_file: Path | None = None,
    max_turns: int = 20,
    interrupted: threading.Event | None = None,
) -> tuple[AgentRunner, io.StringIO]:
    """A runner with terminal approval on ``stdin`` (no TTY by default) and terminal audit."""
    err = io.StringIO()
    approver = TerminalApproval(stdin if stdin is not None else io.StringIO(""), err)
    sinks: list[TerminalAuditSink | JsonlAuditSink] = [TerminalAuditSink(err)]
    if audit_file is not None:
        sinks.append(JsonlAuditSink(audit_file, fsync=False))
    runner = build_agent(
        policy,
        model,
        approval=ApprovalService([approver]),
        audit=sinks,
        max_turns=max_turns,
        interrupted=interrupted,
    )
    return runner, err


def test_the_seed_calls_a_b_c_end_with_the_final_answer(
    p03: ToolPolicy, ws: Workspace, tmp_path: Path
) -> None:
    runner, err = agent(p03, ScriptedModel.from_file(SEED_SCRIPT), audit_file=tmp_path / "a.jsonl")
    result = runner.run("go")
    assert result.turns == 4
    assert result.final_text.startswith("Done: glob listed the Python sources (call A)")
    tool_messages = [m for m in result.history if isinstance(m, ToolMessage)]
    assert [(m.tool_call_id, m.content) for m in tool_messages] == [
        ("call_A", "src/pkg/mod.py"),
        ("call_B", "Error [permission_denied]: No approver was available to allow this tool call"),
        ("call_C", "Error [permission_denied]: Writing outside the workspace is forbidden"),
    ]
    assert err.getvalue() == (
        "[Permission] glob: allow (default) - No permission rule blocked the request\n"
        "[Permission] write_file: deny (terminal-approval) - "
        "No approver was available to allow this tool call\n"
        "[Permission] write_file: deny (workspace-boundary) - "
        "Writing outside the workspace is forbidden\n"
    )
    assert not (ws.root / "chapter3-note.txt").exists()
    assert not ws.outside.exists()
    assert [r["call_id"] for r in audit_lines(tmp_path / "a.jsonl")] == [
        "call_A",
        "call_B",
        "call_C",
    ]
    validate_tool_pairing(result.history)


def test_the_history_starts_with_system_and_user_and_ends_with_the_answer(
    p03: ToolPolicy,
) -> None:
    runner, _ = agent(p03, replies(final("  hello  ")))
    result = runner.run("the prompt")
    assert result.final_text == "hello"
    assert result.turns == 1
    assert isinstance(result.history[0], SystemMessage)
    assert result.history[1] == UserMessage("the prompt")
    assert result.history[2] == AssistantMessage("  hello  ")
    assert runner.history == result.history


def test_a_write_inside_runs_after_y_on_a_real_terminal(
    p03: ToolPolicy, ws: Workspace, pty_pair: Pty
) -> None:
    pty_pair.type(b"y\n")
    with pty_pair.slave_reader() as stdin:
        runner, err = agent(
            p03,
            replies(tool("b", "write_file", {"path": "note.txt", "content": "hi"}), final("ok")),
            stdin=stdin,
        )
        result = runner.run("go")
    assert (ws.root / "note.txt").read_text() == "hi"
    assert result.history[3] == ToolMessage("b", "Created note.txt (2 bytes)")
    assert err.getvalue().endswith(
        "Allow this call? [y/N, a = always this exact call] "
        "[Permission] write_file: allow (terminal-approval) - User approved this tool call\n"
    )


def test_a_write_inside_is_denied_on_an_empty_answer(
    p03: ToolPolicy, ws: Workspace, pty_pair: Pty
) -> None:
    pty_pair.type(b"\n")
    with pty_pair.slave_reader() as stdin:
        runner, err = agent(
            p03,
            replies(tool("b", "write_file", {"path": "note.txt", "content": "hi"}), final("ok")),
            stdin=stdin,
        )
        result = runner.run("go")
    assert not (ws.root / "note.txt").exists()
    assert result.history[3] == ToolMessage(
        "b", "Error [permission_denied]: User denied this tool call"
    )
    assert "[Permission] write_file: deny (terminal-approval) - User denied this tool call\n" in (
        err.getvalue()
    )


def test_a_write_outside_is_denied_without_asking_even_on_a_terminal(
    p03: ToolPolicy, ws: Workspace, pty_pair: Pty
) -> None:
    pty_pair.type(b"y\n")
    with pty_pair.slave_reader() as stdin:
        runner, err = agent(
            p03,
            replies(
                tool("c", "write_file", {"path": "../outside.txt", "content": "x"}), final("ok")
            ),
            stdin=stdin,
        )
        runner.run("go")
    assert not ws.outside.exists()
    assert "Allow this call?" not in err.getvalue()
    assert err.getvalue() == (
        "[Permission] write_file: deny (workspace-boundary) - "
        "Writing outside the workspace is forbidden\n"
    )


def test_every_call_of_one_reply_gets_its_result_in_order(p03: ToolPolicy) -> None:
    calls = (
        ToolCall("1", "read_file", {"path": "README.md"}),
        ToolCall("2", "no_such_tool", {}),
        ToolCall("3", "read_file", "{not json"),
        ToolCall("4", "read_file", {"path": "README.md", "extra": 1}),
        ToolCall("5", "write_file", {"path": "../x", "content": ""}),
    )
    runner, _ = agent(p03, replies(ModelReply(None, calls), final("ok")))
    result = runner.run("go")
    results = [m for m in result.history if isinstance(m, ToolMessage)]
    assert [m.tool_call_id for m in results] == ["1", "2", "3", "4", "5"]
    assert results[0].content == "hello\n"
    assert results[1].content == "Error [unknown_tool]: Unknown tool: no_such_tool"
    assert results[2].content == "Error [invalid_json]: Tool arguments are not valid JSON"
    assert results[3].content.startswith("Error [invalid_arguments]: ")
    assert results[4].content == (
        "Error [permission_denied]: Writing outside the workspace is forbidden"
    )
    assert result.final_text == "ok"


def test_a_failing_audit_sink_becomes_an_evaluation_error_and_the_loop_goes_on(
    ws: Workspace, tmp_path: Path
) -> None:
    policy = load("P03", workspace=ws.root)
    sink = JsonlAuditSink(tmp_path / "audit.jsonl", fsync=False)
    sink.close()  # every record now raises AuditError
    runner = build_agent(
        policy,
        replies(tool("r", "glob", {"pattern": "**/*.py"}), final("still here")),
        approval=ApprovalService(),
        audit=[sink],
    )
    result = runner.run("go")
    assert result.history[3] == ToolMessage(
        "r", "Error [permission_evaluation_error]: Permission evaluation failed"
    )
    assert result.final_text == "still here"


def test_the_turn_limit_ends_the_run_with_a_paired_history(p03: ToolPolicy) -> None:
    model = replies(*(tool(f"c{i}", "glob", {"pattern": "*"}) for i in range(5)))
    runner, _ = agent(p03, model, max_turns=3)
    with pytest.raises(AgentLimitError) as info:
        runner.run("go")
    assert str(info.value) == "no final answer after 3 turns (--max-turns 3)"
    assert info.value.max_turns == 3
    assert model.remaining == 2
    assert sum(isinstance(m, ToolMessage) for m in runner.history) == 3
    validate_tool_pairing(runner.history)


@pytest.mark.parametrize(
    ("reply", "reason", "message"),
    [
        (
            ModelReply("partial", (), FinishReason.LENGTH),
            "length",
            "the model reply was cut off (finish_reason length)",
        ),
        (
            ModelReply(None, (), FinishReason.CONTENT_FILTER),
            "content_filter",
            "the model reply was withheld by a content filter",
        ),
        (ModelReply(None), "empty", "the model reply has neither text nor tool calls"),
        (ModelReply("  \n "), "empty", "the model reply has neither text nor tool calls"),
    ],
)
def test_an_incomplete_reply_ends_the_run(
    p03: ToolPolicy, reply: ModelReply, reason: str, message: str
) -> None:
    runner, _ = agent(p03, replies(reply))
    with pytest.raises(IncompleteModelReplyError) as info:
        runner.run("go")
    assert info.value.reason == reason
    assert str(info.value) == message
    assert not any(isinstance(m, AssistantMessage) for m in runner.history)


def test_a_truncated_reply_with_tool_calls_runs_none_of_them(
    p03: ToolPolicy, ws: Workspace
) -> None:
    truncated = ModelReply(
        None,
        (ToolCall("w", "write_file", {"path": "n.txt", "content": "x"}),),
        FinishReason.LENGTH,
    )
    runner, err = agent(p03, replies(truncated))
    with pytest.raises(IncompleteModelReplyError):
        runner.run("go")
    assert err.getvalue() == ""
    assert not (ws.root / "n.txt").exists()


def test_running_out_of_script_is_an_incomplete_reply(p03: ToolPolicy) -> None:
    runner, _ = agent(p03, replies(tool("a", "glob", {"pattern": "*"})))
    with pytest.raises(IncompleteModelReplyError) as info:
        runner.run("go")
    assert info.value.reason == "exhausted"
    assert str(info.value) == "the script script has no reply left (all 1 were used)"


def test_an_interrupt_flag_stops_after_the_call_and_answers_the_rest(p03: ToolPolicy) -> None:
    flag = threading.Event()
    flag.set()
    reply = ModelReply(
        None, (ToolCall("1", "glob", {"pattern": "*"}), ToolCall("2", "glob", {"pattern": "*"}))
    )
    runner, err = agent(p03, replies(reply, final("never")), interrupted=flag)
    with pytest.raises(KeyboardInterrupt):
        runner.run("go")
    assert runner.history[-1] == ToolMessage(
        "2", "Error [run_interrupted]: The run was interrupted before this call finished"
    )
    assert err.getvalue().count("[Permission]") == 1
    validate_tool_pairing(runner.history)


class RecordingModel(ScriptedModel):
    """The scripted model, keeping the tool list it was offered on each turn."""

    def __init__(self, items: Sequence[ModelReply]) -> None:
        super().__init__(items)
        self.offered: list[list[dict[str, Any]]] = []

    def complete(
        self, history: Sequence[Message], tools: Sequence[Mapping[str, Any]]
    ) -> ModelReply:
        self.offered.append(json.loads(json.dumps(list(tools))))
        return super().complete(history, tools)


def test_the_model_sees_only_name_description_and_parameters(p03: ToolPolicy) -> None:
    model = RecordingModel([final("ok")])
    runner, _ = agent(p03, model)
    runner.run("go")
    names = [t["function"]["name"] for t in model.offered[0]]
    assert names == ["shell", "read_file", "write_file", "edit_file", "glob"]
    for entry in model.offered[0]:
        assert set(entry) == {"type", "function"}
        assert set(entry["function"]) == {"name", "description", "parameters"}


def test_p01_offers_the_model_only_the_shell(ws: Workspace) -> None:
    model = RecordingModel([final("ok")])
    runner, _ = agent(load("P01", workspace=ws.root), model)
    runner.run("go")
    assert [t["function"]["name"] for t in model.offered[0]] == ["shell"]


def test_the_composition_root_refuses_p03_without_approval_or_audit(p03: ToolPolicy) -> None:
    with pytest.raises(ConfigurationError) as info:
        build_agent(p03, replies(), approval=None, audit=[TerminalAuditSink(io.StringIO())])
    assert str(info.value) == "profile P03 enforces a policy and needs an approval service"
    with pytest.raises(ConfigurationError) as info:
        build_agent(p03, replies(), approval=ApprovalService(), audit=[])
    assert str(info.value) == "profile P03 enforces a policy and needs an audit sink"


@pytest.mark.parametrize("turns", [0, -1, 1001])
def test_a_turn_limit_outside_1_to_1000_is_refused(p03: ToolPolicy, turns: int) -> None:
    with pytest.raises(ConfigurationError):
        agent(p03, replies(), max_turns=turns)
