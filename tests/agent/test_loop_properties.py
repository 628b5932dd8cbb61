"""Properties of the loop over arbitrary model behaviour, with the real P03 gate."""

from __future__ import annotations

import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy.agent.compose import build_agent
from toolpolicy.agent.errors import AgentRunError
from toolpolicy.agent.loop import AgentRunner
from toolpolicy.agent.messages import AssistantMessage, ToolMessage, validate_tool_pairing
from toolpolicy.agent.model import FinishReason, ModelReply
from toolpolicy.agent.scripted import ScriptedModel
from toolpolicy.core.results import ToolResult
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.audit import TerminalAuditSink
from toolpolicy.engine.selection import ToolPolicy
from toolpolicy.engine.terminal_approval import TerminalApproval
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import Workspace

names = st.sampled_from(["glob", "read_file", "write_file", "edit_file", "shell", "nope", ""])
values = st.one_of(st.text(max_size=8), st.integers(), st.booleans(), st.none())
arguments = st.one_of(
    st.dictionaries(st.sampled_from(["path", "pattern", "content", "command", "x"]), values),
    st.text(max_size=12),
)


@st.composite
def reply(draw: st.DrawFn) -> ModelReply:
    count = draw(st.integers(0, 3))
    ids = draw(
        st.lists(
            st.text("abc123", min_size=1, max_size=4), min_size=count, max_size=count, unique=True
        )
    )
    calls = tuple(ToolCall(i, draw(names), draw(arguments)) for i in ids)
    content = draw(st.one_of(st.none(), st.text(max_size=6)))
    finish = draw(st.sampled_from(list(FinishReason)))
    return ModelReply(content, calls, finish)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(reply(), max_size=6), st.integers(1, 5))
def test_whatever_the_model_says_the_run_ends_cleanly_and_the_history_stays_paired(
    p03: ToolPolicy, ws: Workspace, replies: list[ModelReply], max_turns: int
) -> None:
    before = sorted(p.relative_to(ws.root) for p in ws.root.rglob("*"))
    audit = io.StringIO()
    runner = build_agent(
        p03,
        ScriptedModel(replies),
        approval=ApprovalService([TerminalApproval(io.StringIO(""), io.StringIO())]),
        audit=[TerminalAuditSink(audit)],
        max_turns=max_turns,
    )
    try:
        result = runner.run("go")
    except AgentRunError:
        pass
    else:
        assert result.final_text
        assert result.turns <= max_turns
        assert result.history == runner.history
    validate_tool_pairing(runner.history)
    calls = [c for m in runner.history if isinstance(m, AssistantMessage) for c in m.tool_calls]
    results = [m for m in runner.history if isinstance(m, ToolMessage)]
    assert [c.id for c in calls] == [m.tool_call_id for m in results]
    # Without a terminal nothing that asks can run: no file changes, nothing outside.
    assert sorted(p.relative_to(ws.root) for p in ws.root.rglob("*")) == before
    assert not ws.outside.exists()


class RaisingGate:
    """The loop's last line of defence: a gate that raises instead of returning a result."""

    def __init__(self, policy: ToolPolicy) -> None:
        self.registry = policy.tools
        self.session_id = "s"

    def handle(self, call: ToolCall, context: ToolContext) -> ToolResult:
        raise RuntimeError("boom")


def test_a_gate_that_raises_still_gives_a_paired_evaluation_error(p03: ToolPolicy) -> None:
    model = ScriptedModel(
        [ModelReply(None, (ToolCall("x", "glob", {"pattern": "*"}),)), ModelReply("fine")]
    )
    result = AgentRunner(model, RaisingGate(p03), workspace=p03.workspace).run("go")
    assert result.history[3] == ToolMessage(
        "x", "Error [permission_evaluation_error]: Permission evaluation failed"
    )
    assert result.final_text == "fine"
