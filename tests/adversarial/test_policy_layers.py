"""Random rule sets layered on P03, any knobs, any answers, real tools.

Two properties: a write aimed outside the workspace (by ``..``, absolute path or any planted
symlink) never runs and no one is asked; and for calls inside, only ``allowed-once`` ever
turns an ask into a run, while allow runs and deny never does.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from toolpolicy.core.errors import PolicyLoadError
from toolpolicy.core.vocabulary import ApprovalOutcome, Behavior
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.selection import ToolPolicy, load
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import (
    CountingRealTools,
    MemorySink,
    ScriptedResponder,
    Trap,
    build_trap,
    policy_file,
)

EXAMPLES = 200

TOOL_PATTERNS = ["write_file", "edit_file", "shell", "read_file", "glob", "*", "*_file", "w*"]
PATH_GLOBS = [
    "**",
    "*",
    "*.txt",
    "**/*.txt",
    "a/**",
    "secret/**",
    "link_out/**",
    "link_out",
    "chain1/**",
    "dangling_out",
    "file_link_out",
    "new.txt",
    "outside/**",
]
COMMANDS = ["echo", "echo *", "*", "ls", "rm -rf", "cat", "git push"]
EFFECTS = ["read", "write", "execute"]


def _listed(values: list[str], most: int) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(values), min_size=1, max_size=most, unique=True)


match = st.fixed_dictionaries(
    {},
    optional={
        "tools": _listed(TOOL_PATTERNS, 3),
        "effects": _listed(EFFECTS, 3),
        "paths": _listed(PATH_GLOBS, 3),
        "commands": _listed(COMMANDS, 2),
    },
).filter(bool)
rule = st.fixed_dictionaries(
    {"behavior": st.sampled_from(["allow", "ask", "deny"]), "match": match}
)
knobs = st.tuples(
    st.sampled_from([None, "workspace-write", "danger-full-access", "read-only"]),
    st.sampled_from([None, "read-only", "workspace-write", "danger-full-access"]),
    st.sampled_from([None, "ask", "never"]),
)
answers = st.sampled_from(
    [
        ApprovalOutcome.ALLOWED_ONCE,
        ApprovalOutcome.REJECTED,
        ApprovalOutcome.CANCELLED,
        ApprovalOutcome.UNAVAILABLE,
        None,
        "allowed-once",
        "yes",
        True,
        1,
        RuntimeError("responder crashed"),
    ]
)

# Paths whose text leaves the workspace: the boundary denies them before anyone is asked.
TEXT_ESCAPES = frozenset(
    {
        "../escape.txt",
        "a/../../escape.txt",
        "{base}/outside/new.txt",
        "up_and_back/../../outside/new.txt",
    }
)
OUTSIDE_WRITES = [
    "../escape.txt",
    "a/../../escape.txt",
    "{base}/outside/new.txt",
    "link_out/new.txt",
    "link_out_rel/new.txt",
    "chain1/new.txt",
    "dangling_out",
    "file_link_out",
    "a/deep_out/new.txt",
    "up_and_back/../../outside/new.txt",
    "root_link{base}/outside/new.txt",
    "link_out/existing.txt",
]


def _load(trap: Trap, rules: list[dict[str, object]], knob: tuple[str | None, ...]) -> ToolPolicy:
    preset, sandbox, approval = knob
    try:
        return load(
            workspace=trap.ws,
            policies=[policy_file(trap.base, rules)],
            preset=preset,
            sandbox=sandbox,
            approval=approval,
        )
    except PolicyLoadError:
        reject()


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    rules=st.lists(rule, max_size=6),
    knob=knobs,
    answer_list=st.lists(answers, min_size=1, max_size=3),
    target=st.sampled_from(OUTSIDE_WRITES),
    tool=st.sampled_from(["write_file", "edit_file"]),
)
def test_no_rule_knob_or_answer_runs_a_write_outside_the_workspace(
    tmp_path_factory: object,
    rules: list[dict[str, object]],
    knob: tuple[str | None, ...],
    answer_list: list[object],
    target: str,
    tool: str,
) -> None:
    trap = build_trap(tmp_path_factory.mktemp("layers"))  # type: ignore[attr-defined]
    policy = _load(trap, rules, knob)
    before = trap.outside_state()
    tools = CountingRealTools()
    responder = ScriptedResponder(list(answer_list))
    gate = policy.gate(
        approval=ApprovalService([responder]), audit=[MemorySink()], registry=tools.snapshot()
    )
    path = target.format(base=trap.base)
    arguments: dict[str, object] = (
        {"path": path, "content": "PWNED"}
        if tool == "write_file"
        else {"path": path, "old_string": "a", "new_string": "PWNED"}
    )
    result = gate.handle(ToolCall("c", tool, arguments), ToolContext(str(trap.ws), "c"))
    assert trap.outside_state() == before
    if target in TEXT_ESCAPES:
        assert result.error_code == "permission_denied"
        assert tools.calls == []
        assert responder.requests == []
    else:
        # Inside on its text, outside through a link: the engine decided on the text, the
        # file tool refuses the link out of the workspace at the open.
        assert result.error_code in ("permission_denied", "path_escape")


INSIDE_CALLS: list[tuple[str, dict[str, object]]] = [
    ("write_file", {"path": "new.txt", "content": "x"}),
    ("write_file", {"path": "secret/keep.txt", "content": "x"}),
    ("write_file", {"path": "inner/new.txt", "content": "x"}),
    ("edit_file", {"path": "a/existing.txt", "old_string": "a", "new_string": "b"}),
    ("edit_file", {"path": "inner_file", "old_string": "a", "new_string": "b"}),
    ("edit_file", {"path": "hard_link", "old_string": "a", "new_string": "b"}),
    ("write_file", {"path": "hard_link", "content": "x"}),
    ("read_file", {"path": "a/existing.txt"}),
    ("read_file", {"path": "file_link_out"}),
    ("glob", {"pattern": "**/*.txt"}),
    ("shell", {"command": "echo hi"}),
    ("shell", {"command": "echo hi && rm -rf missing_dir"}),
]


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    rules=st.lists(rule, max_size=6),
    knob=knobs,
    answer_list=st.lists(answers, min_size=1, max_size=3),
    call=st.sampled_from(INSIDE_CALLS),
)
def test_only_allowed_once_turns_an_ask_into_a_real_run(
    tmp_path_factory: object,
    rules: list[dict[str, object]],
    knob: tuple[str | None, ...],
    answer_list: list[object],
    call: tuple[str, dict[str, object]],
) -> None:
    trap = build_trap(tmp_path_factory.mktemp("layers"))  # type: ignore[attr-defined]
    policy = _load(trap, rules, knob)
    before = trap.outside_state()
    tool, arguments = call
    effective = policy.check(tool, arguments)
    tools = CountingRealTools()
    first = answer_list[0]
    responder = ScriptedResponder(list(answer_list))
    gate = policy.gate(
        approval=ApprovalService([responder]), audit=[MemorySink()], registry=tools.snapshot()
    )
    gate.handle(ToolCall("c", tool, arguments), ToolContext(str(trap.ws), "c"))
    ran = tools.calls == [tool]
    if effective.behavior is Behavior.ASK:
        assert len(responder.requests) == 1
        assert ran == (first is ApprovalOutcome.ALLOWED_ONCE)
    else:
        assert responder.requests == []
        assert ran == (effective.behavior is Behavior.ALLOW)
    assert trap.outside_state() == before
