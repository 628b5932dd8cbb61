"""Hook paths that toolpolicy and the kernel may read differently.

toolpolicy collapses ``..`` lexically (``link/../x`` is ``x``); the kernel resolves ``..``
after following ``link``. The built-in tools write where toolpolicy checked, but under the
hook Claude Code writes: if it passes ``file_path`` to the file system as given, a ``..``
after a symlinked folder lands outside the workspace the hook said the write stays in.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy.hooks.entry import run_hook

from .conftest import build_trap, policy_file


@pytest.mark.parametrize(
    "spelling",
    [
        pytest.param("{ws}/a/deep_out/../escape.txt", id="absolute"),
        pytest.param("a/deep_out/../escape.txt", id="relative"),
        pytest.param("{ws}/link_out/../escape.txt", id="to-the-parent"),
    ],
)
def test_a_dotdot_after_a_symlinked_folder_is_not_allowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spelling: str
) -> None:
    monkeypatch.setenv("TOOLPOLICY_CACHE_DIR", str(tmp_path / "cache"))
    trap = build_trap(tmp_path)
    # a P02-based policy: writes need no approval, the workspace boundary is enforced
    policy = policy_file(tmp_path, [{"behavior": "deny", "match": {"commands": ["git push"]}}])
    policy.write_text(policy.read_text().replace('"P03"', '"P02"'))
    path = spelling.format(ws=trap.ws)
    physical = os.path.realpath(os.path.join(trap.ws, path))
    assert not physical.startswith(str(trap.ws) + os.sep)  # the kernel's target is outside
    event = {
        "session_id": "s",
        "transcript_path": str(tmp_path / "t.jsonl"),
        "cwd": str(trap.ws),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": path, "content": "x"},
        "tool_use_id": "toolu_1",
    }
    out, err = io.StringIO(), io.StringIO()
    argv = ["claude-code", "--audit", str(tmp_path / "audit.jsonl"), "--profile", "P02"]
    code = run_hook(
        [*argv, "--policy", str(policy)], io.BytesIO(json.dumps(event).encode()), out, err
    )
    assert code == 0, err.getvalue()
    assert json.loads(out.getvalue())["hookSpecificOutput"]["permissionDecision"] != "allow"


# -- rules on absolute and home paths, for every caller of the engine -------------------------


def _outside_policy(tmp_path: Path, secret: Path, extends: str = "P03") -> Path:
    path = tmp_path / "outside.yaml"
    path.write_text(
        f"apiVersion: toolpolicy/v1\nkind: Policy\nname: outside\nextends: {extends}\nrules:\n"
        "  - {name: keys, behavior: deny, reason: Keys stay home, match: {paths: ['~/.ssh/**']}}\n"
        f"  - {{name: secret, behavior: deny, reason: Closed, match: {{paths: ['/{secret}']}}}}\n"
        "  - {name: open, behavior: allow, reason: Open, match: {paths: ['//tmp-nowhere/**']}}\n"
    )
    return path


def test_the_engine_closes_absolute_and_home_paths_for_any_caller(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolpolicy import load

    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    ws = tmp_path / "ws"
    ws.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("s")
    (ws / "alias").symlink_to(secret)  # a workspace name for the closed file
    policy = load("P03", policies=[_outside_policy(tmp_path, secret)], workspace=ws)
    for path, reason in (
        (str(home / ".ssh" / "id_rsa"), "Keys stay home"),
        (str(secret), "Closed"),
        (f"{tmp_path}/ws/../secret.txt", "Closed"),
    ):
        decision = policy.check("read_file", {"path": path})
        assert (decision.behavior.label, decision.reason) == ("deny", reason), path
    assert policy.check("read_file", {"path": "notes.txt"}).behavior.label == "allow"
    # In-process the engine decides on the text ("alias" names nothing closed); the read
    # tool opens beneath the workspace and refuses the link that leads out of it.
    from doubles import MemorySink
    from toolpolicy.engine.approval import ApprovalService
    from toolpolicy.tools.registry import ToolCall, ToolContext

    gate = policy.gate(approval=ApprovalService(), audit=[MemorySink()])
    result = gate.handle(ToolCall("c", "read_file", {"path": "alias"}), ToolContext(str(ws), "c"))
    assert result.content == "Error [path_escape]: Path escapes the workspace: alias"


@pytest.mark.parametrize("path", ["//tmp-nowhere/x", "/tmp-nowhere/x", "../tmp-nowhere/x"])
def test_no_rule_opens_a_write_outside_the_workspace(tmp_path: Path, path: str) -> None:
    from toolpolicy import load

    ws = tmp_path / "ws"
    ws.mkdir()
    policy = load("P02", policies=[_outside_policy(tmp_path, tmp_path / "s", "P02")], workspace=ws)
    decision = policy.check("write_file", {"path": path, "content": "x"})
    assert (decision.behavior.label, decision.source) == ("deny", "workspace-boundary")


# -- every spelling of a closed file, composed at random --------------------------------------


@pytest.fixture(scope="module")
def spelled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A project with a closed ``.env``, folders and symlinked folders to climb through."""
    base = tmp_path_factory.mktemp("spellings")
    ws = base / "proj"
    (ws / "a" / "b").mkdir(parents=True)
    (ws / ".env").write_text("K=v")
    (ws / "to_b").symlink_to(ws / "a" / "b", target_is_directory=True)
    (base / "alias").symlink_to(ws, target_is_directory=True)
    policy = base / "closed.yaml"
    policy.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: closed\nextends: P03\nrules:\n"
        "  - {name: env, behavior: deny, reason: Closed, match: {paths: [.env]}}\n"
    )
    return ws, policy


_PREFIXES = [
    "{ws}",
    "/proc/self/cwd",
    "/proc/self/root{ws}",
    "/proc/thread-self/cwd",
    "{base}/alias",
]
# Each climb lands where it started once the kernel resolves it (``to_b/..`` is ``a``).
_CLIMBS = ["a/..", "a/b/../..", "to_b/../..", "./", "a/./b/../.."]


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    prefix=st.sampled_from(_PREFIXES),
    climbs=st.lists(st.sampled_from(_CLIMBS), max_size=3),
    tool=st.sampled_from(["Read", "Grep", "Glob"]),
)
def test_a_closed_file_is_closed_under_every_spelling(
    spelled: tuple[Path, Path], tmp_path: Path, prefix: str, climbs: list[str], tool: str
) -> None:
    ws, policy = spelled
    path = "/".join([prefix.format(ws=ws, base=ws.parent), *climbs, ".env"])
    tool_input = (
        {"file_path": path}
        if tool == "Read"
        else {"pattern": "K", "path": path}
        if tool == "Grep"
        else {"pattern": "*", "path": path}
    )
    event = {
        "session_id": "s",
        "cwd": str(ws),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "t",
    }
    out, err = io.StringIO(), io.StringIO()
    argv = ["claude-code", "--audit", str(tmp_path / "a.jsonl"), "--policy", str(policy)]
    assert run_hook(argv, io.BytesIO(json.dumps(event).encode()), out, err) == 0, err.getvalue()
    assert json.loads(out.getvalue())["hookSpecificOutput"]["permissionDecision"] == "deny", path
