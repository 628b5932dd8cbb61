"""``ToolPolicy.check`` remembers decisions made on a call's text, and nothing else.

Every way the answer could change — other knobs, another policy or workspace, a file the
shell would expand a glob to, the home folder — must miss the memo; an invalid call must get
its preparation error every time, however much it looks like a remembered valid one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.core.errors import CallRejected
from toolpolicy.core.vocabulary import Behavior
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.evaluate import DecisionEngine
from toolpolicy.engine.selection import ToolPolicy, load
from toolpolicy.tools.workspace import LexicalBoundary

from .conftest import MemorySink, Workspace

POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: memo
extends: P03
rules:
  - name: no-secrets
    behavior: deny
    reason: Secrets stay closed
    match: {tools: [read_file, write_file], paths: ["secret*", "vault/**"]}
  - name: listing
    behavior: allow
    reason: Listing is fine
    match: {tools: [shell], commands: ["cat"]}
  - name: keys
    behavior: deny
    reason: Keys stay home
    match: {tools: [read_file], paths: ["~/.ssh/**"]}
"""


def _policy(ws: Workspace, **knobs: str) -> ToolPolicy:
    path = ws.root / "memo.yaml"
    path.write_text(POLICY)
    return load(workspace=ws.root, policies=[path], **knobs)


def test_a_repeated_call_gets_the_same_decision(ws: Workspace) -> None:
    policy = _policy(ws)
    first = policy.check("read_file", {"path": "vault/a"})
    assert first == policy.check("read_file", {"path": "vault/a"})
    assert first == policy.check("read_file", '{"path": "vault/a"}')
    assert (first.behavior, first.reason) == (Behavior.DENY, "Secrets stay closed")


def test_other_knobs_miss_the_memo(ws: Workspace) -> None:
    policy = _policy(ws)
    call = {"path": "notes.txt", "content": "x"}
    assert policy.check("write_file", call).behavior is Behavior.ASK
    never = policy.with_knobs(approval="never")
    assert never.check("write_file", call).behavior is Behavior.DENY
    read_only = policy.with_knobs(sandbox="read-only")
    refused = read_only.check("write_file", call)
    assert refused.reason == "The read-only sandbox does not allow writes"
    assert policy.check("write_file", call).behavior is Behavior.ASK


def test_another_policy_or_workspace_misses_the_memo(ws: Workspace, tmp_path: Path) -> None:
    closed = _policy(ws)
    assert closed.check("read_file", {"path": "secret.txt"}).behavior is Behavior.DENY
    other = tmp_path / "other"
    other.mkdir()
    assert load(workspace=other).check("read_file", {"path": "secret.txt"}).behavior is (
        Behavior.ALLOW
    )
    assert load(workspace=ws.root).check("read_file", {"path": "secret.txt"}).behavior is (
        Behavior.ALLOW
    )


@pytest.mark.parametrize(
    ("valid", "invalid", "message"),
    [
        (True, 1, "replace_all must be a boolean"),
        (False, 0, "replace_all must be a boolean"),
        (True, 1.0, "replace_all must be a boolean"),
    ],
)
def test_an_invalid_call_is_never_taken_for_a_remembered_valid_one(
    ws: Workspace, valid: object, invalid: object, message: str
) -> None:
    policy = _policy(ws)
    call = {"path": "a.txt", "old_string": "a", "new_string": "b"}
    policy.check("edit_file", {**call, "replace_all": valid})
    for _ in range(2):
        with pytest.raises(CallRejected) as caught:
            policy.check("edit_file", {**call, "replace_all": invalid})
        assert caught.value.content == f"Error [invalid_arguments]: {message}"


def test_a_str_subclass_is_refused_every_time(ws: Workspace) -> None:
    class Text(str):
        pass

    policy = _policy(ws)
    assert policy.check("read_file", {"path": "a.txt"}).behavior is Behavior.ALLOW
    for _ in range(2):
        with pytest.raises(CallRejected) as caught:
            policy.check("read_file", {"path": Text("a.txt")})
        assert caught.value.content == "Error [invalid_arguments]: path must be a string"


def test_a_shell_glob_is_decided_on_the_files_it_matches_now(ws: Workspace) -> None:
    policy = _policy(ws)
    (ws.root / "notes.txt").write_text("x")
    assert policy.check("shell", {"command": "cat s*"}).behavior is not Behavior.DENY
    (ws.root / "secret.txt").write_text("x")
    decision = policy.check("shell", {"command": "cat s*"})
    assert (decision.behavior, decision.reason) == (Behavior.DENY, "Secrets stay closed")


def test_a_home_rule_follows_the_home_folder_of_the_call(
    ws: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    policy = _policy(ws)
    key = str(tmp_path / "home" / ".ssh" / "id")
    monkeypatch.setenv("HOME", str(tmp_path / "elsewhere"))
    assert policy.check("read_file", {"path": key}).behavior is Behavior.ALLOW
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert policy.check("read_file", {"path": key}).reason == "Keys stay home"


def test_a_shell_line_naming_a_file_follows_the_home_folder_too(
    ws: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    policy = _policy(ws)
    line = {"command": f"cat {tmp_path}/home/.ssh/id"}
    monkeypatch.setenv("HOME", str(tmp_path / "elsewhere"))
    assert policy.check("shell", line).reason == "Reading outside the workspace requires approval"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert policy.check("shell", line).reason == "Keys stay home"


_paths = st.lists(
    st.sampled_from(["vault", "secret.txt", "a", "..", ".", "src", "x.py", "~", "NUL"]),
    min_size=1,
    max_size=4,
).map("/".join)
_calls = st.one_of(
    st.builds(lambda p: ("read_file", {"path": p}), _paths),
    st.builds(lambda p: ("write_file", {"path": p, "content": "x"}), _paths),
    st.builds(lambda c: ("shell", {"command": c}), st.sampled_from(["cat a", "ls", "cat a | wc"])),
)


@settings(max_examples=60, deadline=None)
@given(calls=st.lists(_calls, min_size=1, max_size=6))
def test_the_memo_never_changes_a_decision(
    tmp_path_factory: pytest.TempPathFactory, calls: list[tuple[str, dict[str, object]]]
) -> None:
    root = tmp_path_factory.mktemp("memo")
    ws = Workspace(root / "ws", root / "outside")
    ws.root.mkdir()
    policy = _policy(ws)
    engine = policy.engine
    for tool, arguments in calls * 2:
        # A new engine over the same compiled policy remembers nothing yet.
        unremembered = DecisionEngine(
            policy.compiled,
            LexicalBoundary(policy.workspace),
            enforces=True,
            protected=engine.protected,
        )
        request = policy.request(tool, arguments)
        fresh = unremembered.evaluate(request, policy.knobs).effective
        assert policy.check(tool, arguments) == fresh
        assert policy.check(tool, json.dumps(arguments)) == fresh
        assert engine.evaluate(request, policy.knobs).effective == fresh


def test_the_gate_reads_the_knobs_of_each_call_past_the_engine_memo(ws: Workspace) -> None:
    policy = _policy(ws)
    gate = policy.gate(approval=ApprovalService(), audit=[MemorySink()])
    request = policy.request("write_file", {"path": "notes.txt", "content": "x"})
    assert (
        gate.decide(request).decision.reason == "No approver was available to allow this tool call"
    )
    gate.knobs.set_sandbox("read-only")
    assert gate.decide(request).decision.reason == "The read-only sandbox does not allow writes"


def test_a_request_runs_in_its_own_selections_workspace_under_the_call_id_asked(
    ws: Workspace, tmp_path: Path
) -> None:
    """The context a selection gives its requests by default is made once per selection:
    another workspace, other knobs or another call id never get it."""
    other = tmp_path / "other"
    other.mkdir()
    first, second = load(workspace=ws.root), load(workspace=other)
    asked = first.request("read_file", {"path": "a.txt"})
    assert asked.context == (first.workspace, "check", *asked.context[2:])
    assert first.request("read_file", {"path": "b.txt"}).context is asked.context
    assert second.request("read_file", {"path": "a.txt"}).context.workspace == second.workspace
    assert second.workspace != first.workspace
    named = first.request("read_file", {"path": "a.txt"}, call_id="call-7")
    assert (named.context.workspace, named.call_id) == (first.workspace, "call-7")
    reknobbed = first.with_knobs(sandbox="read-only").request("read_file", {"path": "a.txt"})
    assert reknobbed.context == asked.context and reknobbed.context is not asked.context
