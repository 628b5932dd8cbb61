"""Properties: no policy, knob setting or answer lets a write out; only allowed-once grants."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy.core.vocabulary import ApprovalOutcome, Behavior
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.selection import load
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import CountingHandlers, MemorySink, ScriptedResponder

TOOLS = ["write_file", "edit_file", "shell", "read_file", "glob", "*"]
PATHS = ["**", "*", "*.txt", "a/**", "outside*", "x"]
COMMANDS = ["ls", "*", "rm -rf", "git push"]
OUTSIDE_PATHS = [
    "../escape.txt",
    "a/../../escape.txt",
    "{outside}/escape.txt",
    "link/escape.txt",
    "CON",
    "nul.txt",
    "a:b.txt",
]

rule = st.fixed_dictionaries(
    {
        "behavior": st.sampled_from(["allow", "ask", "deny"]),
        "match": st.one_of(
            st.fixed_dictionaries(
                {"tools": st.lists(st.sampled_from(TOOLS), min_size=1, max_size=3, unique=True)}
            ),
            st.fixed_dictionaries(
                {
                    "effects": st.lists(
                        st.sampled_from(["read", "write", "execute"]),
                        min_size=1,
                        max_size=3,
                        unique=True,
                    )
                }
            ),
            st.fixed_dictionaries(
                {"paths": st.lists(st.sampled_from(PATHS), min_size=1, max_size=3, unique=True)}
            ),
            st.fixed_dictionaries(
                {
                    "commands": st.lists(
                        st.sampled_from(COMMANDS), min_size=1, max_size=2, unique=True
                    )
                }
            ),
        ),
    }
)
answers = st.sampled_from(
    [
        ApprovalOutcome.ALLOWED_ONCE,
        ApprovalOutcome.REJECTED,
        ApprovalOutcome.CANCELLED,
        ApprovalOutcome.UNAVAILABLE,
        None,
        "yes",
        True,
        RuntimeError("boom"),
    ]
)
knobs = st.tuples(
    st.sampled_from([None, "workspace-write", "danger-full-access", "read-only"]),
    st.sampled_from([None, "read-only", "workspace-write", "danger-full-access"]),
    st.sampled_from([None, "ask", "never"]),
)


def _policy_file(tmp: Path, rules: list[dict[str, object]]) -> Path:
    doc = {
        "apiVersion": "toolpolicy/v1",
        "kind": "Policy",
        "name": "generated",
        "extends": "P03",
        "rules": [
            {"name": f"r{i}", "reason": f"generated rule {i}", **r} for i, r in enumerate(rules)
        ],
    }
    path = tmp / "generated.yaml"
    path.write_text(json.dumps(doc))  # JSON is YAML
    return path


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rules=st.lists(rule, max_size=6),
    knob=knobs,
    answer_list=st.lists(answers, min_size=1, max_size=3),
    raw_path=st.sampled_from(OUTSIDE_PATHS),
    tool=st.sampled_from(["write_file", "edit_file"]),
)
def test_no_policy_knob_or_answer_lets_a_write_out_of_the_workspace(
    tmp_path_factory: object,
    rules: list[dict[str, object]],
    knob: tuple[str | None, ...],
    answer_list: list[object],
    raw_path: str,
    tool: str,
) -> None:
    tmp = tmp_path_factory.mktemp("prop")  # type: ignore[attr-defined]
    root, outside = tmp / "ws", tmp / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "link").symlink_to(outside, target_is_directory=True)
    preset, sandbox, approval = knob
    policy = load(
        workspace=root,
        policies=[_policy_file(tmp, rules)],
        preset=preset,
        sandbox=sandbox,
        approval=approval,
    )
    handlers = CountingHandlers()
    responder = ScriptedResponder(list(answer_list))
    gate = policy.gate(
        approval=ApprovalService([responder]), audit=[MemorySink()], registry=handlers.snapshot()
    )
    path = raw_path.format(outside=outside)
    args = (
        {"path": path, "content": "x"}
        if tool == "write_file"
        else {"path": path, "old_string": "a", "new_string": "b"}
    )
    result = gate.handle(ToolCall("c", tool, args), ToolContext(str(root), "c"))
    assert result.error_code == "permission_denied"
    assert handlers.calls == []
    assert responder.requests == []
    assert list(outside.iterdir()) == []
    assert not (tmp / "escape.txt").exists()


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rules=st.lists(rule, max_size=6),
    knob=knobs,
    answer=answers,
    call=st.sampled_from(
        [
            ("write_file", {"path": "in.txt", "content": "x"}),
            ("edit_file", {"path": "in.txt", "old_string": "a", "new_string": "b"}),
            ("shell", {"command": "ls && rm -rf x"}),
            ("read_file", {"path": "a/b.txt"}),
            ("glob", {"pattern": "**"}),
        ]
    ),
)
def test_only_allowed_once_turns_an_ask_into_a_run(
    tmp_path_factory: object,
    rules: list[dict[str, object]],
    knob: tuple[str | None, ...],
    answer: object,
    call: tuple[str, dict[str, object]],
) -> None:
    tmp = tmp_path_factory.mktemp("prop")  # type: ignore[attr-defined]
    root = tmp / "ws"
    root.mkdir()
    preset, sandbox, approval = knob
    policy = load(
        workspace=root,
        policies=[_policy_file(tmp, rules)],
        preset=preset,
        sandbox=sandbox,
        approval=approval,
    )
    tool, args = call
    effective = policy.check(tool, args)
    handlers = CountingHandlers()
    responder = ScriptedResponder([answer])
    gate = policy.gate(
        approval=ApprovalService([responder]), audit=[MemorySink()], registry=handlers.snapshot()
    )
    gate.handle(ToolCall("c", tool, args), ToolContext(str(root), "c"))
    ran = len(handlers.calls) == 1
    if effective.behavior is Behavior.ASK:
        assert ran == (answer is ApprovalOutcome.ALLOWED_ONCE)
        assert len(responder.requests) == 1
    else:
        assert responder.requests == []
        assert ran == (effective.behavior is Behavior.ALLOW)
