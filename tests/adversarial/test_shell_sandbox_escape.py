"""Approved shell commands that try to write outside the workspace under the bubblewrap sandbox.

Every ask is approved (the most permissive human); under ``workspace-write`` and ``read-only``
the sandbox still keeps the outside folder, the policy file in use and ``.git`` unchanged.
Skipped where bubblewrap is missing (then the shell refuses with ``sandbox_unavailable``).
"""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from toolpolicy.core.results import ToolResult
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.selection import load
from toolpolicy.tools.builtin import builtin_registry
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import AlwaysAllow, MemorySink, build_trap, policy_file, snapshot_tree

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is missing")

ESCAPES = [
    "echo PWNED > ../outside/new.txt",
    "echo PWNED >> {outside}/existing.txt",
    "echo PWNED > link_out/new.txt",
    "echo PWNED > chain1/new.txt",
    "echo PWNED > dangling_out",
    "echo PWNED > file_link_out",
    "cp hard_link {outside}/copy.txt",
    "touch {outside}/touched",
    "mkdir {outside}/made",
    "ln -s /etc {outside}/etc_link",
    "rm -f {outside}/existing.txt",
    "mv {outside}/existing.txt a/",
    "cd .. && echo PWNED > outside/new.txt",
    "bash -c 'echo PWNED > ../outside/new.txt'",
    "python3 -c \"open('{outside}/py.txt', 'w').write('PWNED')\"",
    "echo PWNED > {policy}",
    "rm -f {policy}",
    "echo PWNED > .git/config",
    "echo PWNED > /tmp/../{outside}/tmp.txt",
]


HARD_LINK = (
    "BUG (sandbox limit): under workspace-write a hard link in the workspace to an outside "
    "file is written through in place; the bind-mounted workspace shares the inode"
)


@pytest.mark.parametrize("sandbox", ["workspace-write", "read-only"])
@pytest.mark.parametrize("command", ESCAPES)
def test_an_approved_shell_command_cannot_write_outside_the_sandbox(
    tmp_path: Path, sandbox: str, command: str
) -> None:
    _attempt(tmp_path, sandbox, command)


@pytest.mark.parametrize(
    "sandbox",
    [
        pytest.param("workspace-write", marks=pytest.mark.xfail(strict=True, reason=HARD_LINK)),
        "read-only",
    ],
)
def test_an_approved_shell_command_cannot_write_through_a_hard_link_to_outside(
    tmp_path: Path, sandbox: str
) -> None:
    _attempt(tmp_path, sandbox, "echo PWNED > hard_link")


def _attempt(tmp_path: Path, sandbox: str, command: str) -> None:
    """Run ``command`` approved under ``sandbox``; assert nothing protected changed."""
    trap = build_trap(tmp_path)
    (trap.ws / ".git").mkdir()
    (trap.ws / ".git" / "config").write_text("[core]\n")
    policy_path = policy_file(trap.ws, [{"behavior": "ask", "match": {"tools": ["shell"]}}])
    policy = load(workspace=trap.ws, policies=[policy_path], sandbox=sandbox)
    protected = {
        "outside": trap.outside_state(),
        "policy": policy_path.read_bytes(),
        "git": snapshot_tree(trap.ws / ".git"),
    }
    gate = policy.gate(
        approval=ApprovalService([AlwaysAllow()]),
        audit=[MemorySink()],
        registry=builtin_registry().snapshot(),
    )
    line = command.format(outside=trap.outside, policy=policy_path)
    gate.handle(ToolCall("c", "shell", {"command": line}), ToolContext(str(trap.ws), "c"))
    assert trap.outside_state() == protected["outside"]
    assert policy_path.read_bytes() == protected["policy"]
    assert snapshot_tree(trap.ws / ".git") == protected["git"]


def test_an_approved_shell_command_still_writes_inside_the_workspace(tmp_path: Path) -> None:
    # The control: the escapes above fail because of the sandbox, not because nothing runs.
    trap = build_trap(tmp_path)
    gate = load(workspace=trap.ws, sandbox="workspace-write").gate(
        approval=ApprovalService([AlwaysAllow()]),
        audit=[MemorySink()],
        registry=builtin_registry().snapshot(),
    )
    result = gate.handle(
        ToolCall("c", "shell", {"command": "echo inside > made.txt"}),
        ToolContext(str(trap.ws), "c"),
    )
    assert not result.is_error, result
    assert (trap.ws / "made.txt").read_text() == "inside\n"


PRESETS = (Path(__file__).parents[2] / "policy" / "presets.yaml").read_text()


def _approved_shell(ws: Path, command: str, **selection: object) -> ToolResult:
    """Run ``command`` through the real gate, every ask approved, under workspace-write.

    The line is hidden from the decision (``eval`` of its base64, decoded at run time), so
    the decision reads none of its files and only asks: what keeps the protected set here
    is the sandbox alone."""
    gate = load(workspace=ws, sandbox="workspace-write", **selection).gate(  # type: ignore[arg-type]
        approval=ApprovalService([AlwaysAllow()]), audit=[MemorySink()]
    )
    encoded = base64.b64encode(command.encode()).decode()
    hidden = f'eval "$(printf %s {encoded} | base64 -d)"'
    return gate.handle(ToolCall("c", "shell", {"command": hidden}), ToolContext(str(ws), "c"))


def test_the_preset_table_in_use_cannot_be_rewritten_by_the_shell(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    table = ws / "presets.yaml"
    table.write_text(PRESETS)
    command = (
        "sed -i 's/sandbox: workspace-write/sandbox: danger-full-access/' presets.yaml; "
        "echo '# appended' >> presets.yaml; mv presets.yaml p.old; rm -f presets.yaml"
    )
    _approved_shell(ws, command, presets=table)
    assert table.read_text() == PRESETS
    assert sorted(os.listdir(ws)) == ["presets.yaml"]


@pytest.mark.parametrize("folder", ["policies", "conf/team/policies"])
def test_a_nested_policy_folder_cannot_be_replaced_by_the_shell(
    tmp_path: Path, folder: str
) -> None:
    ws = tmp_path / "ws"
    (ws / folder).mkdir(parents=True)
    policy = policy_file(ws / folder, [{"behavior": "deny", "match": {"commands": ["rm"]}}])
    before = policy.read_bytes()
    top = folder.split("/")[0]
    forged = '{"apiVersion": "toolpolicy/v1", "kind": "Policy", "name": "x", "rules": []}'
    command = (
        f"mv {top} p.old; mv {folder} q.old; "
        f"mkdir -p {folder} && printf '%s' '{forged}' > {folder}/{policy.name}"
    )
    _approved_shell(ws, command, policies=[policy])
    # (mv may copy a mount point it cannot rename; the copy is harmless, the original stays.)
    assert policy.read_bytes() == before
    assert sorted(os.listdir(ws / folder)) == [policy.name]
    assert not (ws / "p.old").exists()


def test_the_shell_cannot_plant_a_git_repository_that_runs_code_on_the_host(
    tmp_path: Path,
) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is missing")
    ws, marker = tmp_path / "ws", tmp_path / "F"
    ws.mkdir()
    command = f"git init -q . && git config core.fsmonitor 'touch {marker}; false'"
    result = _approved_shell(ws, command)
    assert result.error_code == "shell_failed"
    assert "Read-only file system" in result.content
    # The read-only placeholder bubblewrap mounted is gone: the host sees no .git at all.
    assert sorted(os.listdir(ws)) == []
    # The user's next git command finds no planted configuration to run.
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["GIT_CEILING_DIRECTORIES"] = str(tmp_path)
    subprocess.run(["git", "status"], cwd=ws, env=env, capture_output=True, timeout=60)
    assert not marker.exists()


def test_the_shell_cannot_create_or_change_the_agent_settings(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / ".claude").mkdir(parents=True)
    settings = ws / ".claude" / "settings.json"
    settings.write_text('{"hooks": {}}')
    command = (
        "echo '{}' > .claude/settings.json; echo '{}' > .claude/settings.local.json; "
        "mv .claude c.old; mkdir -p .codex .gemini; echo x > .codex/config.toml; "
        "echo '{}' > .gemini/settings.json; echo ok > allowed.txt"
    )
    _approved_shell(ws, command)
    assert settings.read_text() == '{"hooks": {}}'
    assert sorted(os.listdir(ws / ".claude")) == ["settings.json"]
    assert sorted(os.listdir(ws)) == [".claude", "allowed.txt"]


def test_a_file_in_the_way_of_the_agent_settings_cannot_be_swapped_for_a_folder(
    tmp_path: Path,
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / ".claude").write_text("not a folder")
    command = "rm -f .claude; mkdir .claude && echo '{}' > .claude/settings.json; echo ok"
    result = _approved_shell(ws, command)
    assert result.content.endswith("ok\n")  # the sandbox started; only the swap failed
    assert (ws / ".claude").read_text() == "not a folder"


def test_the_shell_cannot_remove_or_disable_the_copilot_hook(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / ".github" / "hooks").mkdir(parents=True)
    (ws / ".github" / "workflows").mkdir()
    hook = ws / ".github" / "hooks" / "toolpolicy.json"
    hook.write_text('{"version": 1}')
    command = (
        "rm -f .github/hooks/toolpolicy.json; echo '{\"disableAllHooks\": true}' > "
        ".github/hooks/off.json; mv .github/hooks h.old; mkdir -p .github/copilot; "
        "echo '{\"disableAllHooks\": true}' > .github/copilot/settings.json; "
        "echo ok > .github/workflows/ci.yml"
    )
    _approved_shell(ws, command)
    assert hook.read_text() == '{"version": 1}'
    assert sorted(os.listdir(ws / ".github" / "hooks")) == ["toolpolicy.json"]
    assert not (ws / ".github" / "copilot" / "settings.json").exists()
    # (mv copies a mount point it cannot rename; the copy is harmless, the original stays.)
    # The rest of .github stays an ordinary, writable folder.
    assert (ws / ".github" / "workflows" / "ci.yml").read_text() == "ok\n"
