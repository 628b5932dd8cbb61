"""The shell under bubblewrap: what a confined command can and cannot touch."""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

import pytest

from toolpolicy.core.results import ToolResult
from toolpolicy.core.vocabulary import SandboxMode
from toolpolicy.tools.protected import ProtectedSet
from toolpolicy.tools.registry import ToolContext
from toolpolicy.tools.shell import ShellRunner

from .shell_processes import command_survives

BWRAP = shutil.which("bwrap")
pytestmark = pytest.mark.skipif(BWRAP is None, reason="bubblewrap (bwrap) is not installed")


def context_for(workspace: Path, mode: SandboxMode, *policy_files: str) -> ToolContext:
    root = os.path.realpath(workspace)
    protected = ProtectedSet.for_workspace(root, (os.path.join(root, p) for p in policy_files))
    return ToolContext(workspace=str(workspace), sandbox=mode, protected=protected)


def run(context: ToolContext, command: str, runner: ShellRunner | None = None) -> ToolResult:
    return (runner or ShellRunner())({"command": command}, context)


@pytest.fixture
def write_mode(workspace: Path) -> ToolContext:
    return context_for(workspace, SandboxMode.WORKSPACE_WRITE)


@pytest.fixture
def read_mode(workspace: Path) -> ToolContext:
    return context_for(workspace, SandboxMode.READ_ONLY)


@pytest.fixture
def beyond_temp() -> Path:
    """A path outside the workspace and outside every temp root (on the read-only root)."""
    return Path.home() / f".toolpolicy-sandbox-probe-{uuid.uuid4().hex}"


def test_workspace_write_can_write_inside_the_workspace(
    workspace: Path, write_mode: ToolContext
) -> None:
    result = run(write_mode, "mkdir -p src && echo hi > src/inside.txt && echo ok")
    assert result == ToolResult("ok\n", is_error=False)
    assert (workspace / "src" / "inside.txt").read_text() == "hi\n"


def test_workspace_write_cannot_write_outside_the_workspace(
    outside: Path, write_mode: ToolContext, beyond_temp: Path
) -> None:
    result = run(write_mode, f"echo x > {outside}/f.txt; echo x > {beyond_temp}; touch /etc/probe")
    assert result.error_code == "shell_failed"
    assert list(outside.iterdir()) == []
    assert not beyond_temp.exists()
    assert not Path("/etc/probe").exists()
    assert "Read-only file system" in result.content


def test_workspace_write_can_use_a_private_tmp(write_mode: ToolContext) -> None:
    name = f"toolpolicy-{uuid.uuid4().hex}"
    result = run(write_mode, f"echo scratch > /tmp/{name} && cat /tmp/{name}")
    assert result.content == "scratch\n"
    assert not Path("/tmp", name).exists()


def test_workspace_write_cannot_touch_git_metadata(
    workspace: Path, write_mode: ToolContext
) -> None:
    git = workspace / ".git"
    git.mkdir()
    (git / "config").write_text("[core]\n")
    result = run(write_mode, "echo evil >> .git/config; touch .git/hooks-pre; rm -rf .git")
    assert result.error_code == "shell_failed"
    assert (git / "config").read_text() == "[core]\n"
    assert sorted(os.listdir(git)) == ["config"]


def test_protected_policy_files_are_read_only_in_the_sandbox(workspace: Path) -> None:
    (workspace / "policy").mkdir()
    rules = workspace / "policy" / "rules.yaml"
    rules.write_text("rules: []\n")
    context = context_for(workspace, SandboxMode.WORKSPACE_WRITE, "policy/rules.yaml")
    result = run(context, "echo 'allow: everything' > policy/rules.yaml; echo ok > other.txt")
    assert not result.is_error
    assert result.content.endswith("line 1: policy/rules.yaml: Read-only file system\n")
    assert rules.read_text() == "rules: []\n"
    assert (workspace / "other.txt").read_text() == "ok\n"


def test_absolute_protected_paths_are_read_only_too(workspace: Path) -> None:
    rules = workspace / "toolpolicy.yaml"
    rules.write_text("x: 1\n")
    context = context_for(workspace, SandboxMode.WORKSPACE_WRITE, str(rules))
    assert run(context, "rm -f toolpolicy.yaml").error_code == "shell_failed"
    assert rules.read_text() == "x: 1\n"


def test_read_only_cannot_write_anything(
    workspace: Path, read_mode: ToolContext, beyond_temp: Path
) -> None:
    name = f"toolpolicy-{uuid.uuid4().hex}"
    (workspace / "keep.txt").write_text("keep")
    for command in (
        "touch inside.txt",
        "echo x > keep.txt",
        "rm keep.txt",
        f"touch /tmp/{name}",
        f"touch /var/tmp/{name}",
        f"touch {beyond_temp}",
    ):
        result = run(read_mode, command)
        assert result.error_code == "shell_failed", command
    assert sorted(os.listdir(workspace)) == ["keep.txt"]
    assert (workspace / "keep.txt").read_text() == "keep"
    assert not Path("/tmp", name).exists()
    assert not Path("/var/tmp", name).exists()
    assert not beyond_temp.exists()


def test_read_only_can_read_the_workspace_and_write_to_dev_null(
    workspace: Path, read_mode: ToolContext
) -> None:
    (workspace / "a.txt").write_text("content")
    assert run(read_mode, "cat a.txt; echo discarded > /dev/null").content == "content"


def test_the_network_is_unshared(write_mode: ToolContext) -> None:
    result = run(write_mode, "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '")
    assert result.content == "lo\n"


def test_a_failing_command_inside_the_sandbox_is_shell_failed_not_unavailable(
    write_mode: ToolContext,
) -> None:
    assert run(write_mode, "echo nope; exit 7").content == (
        "Error [shell_failed]: Command exited with code 7\nnope\n"
    )


def test_a_sandboxed_timeout_leaves_no_process_behind(write_mode: ToolContext) -> None:
    result = run(write_mode, "sleep 300.123 & sleep 300.456", ShellRunner(timeout_seconds=1))
    assert result.content == "Error [shell_timeout]: Command timed out after 1 s\n(no output)"
    assert not command_survives("300.123")
    assert not command_survives("300.456")


def test_a_missing_bubblewrap_is_sandbox_unavailable_and_nothing_runs(
    tmp_path: Path, workspace: Path
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "bash").symlink_to(shutil.which("bash") or "/bin/bash")
    runner = ShellRunner(env={"PATH": str(bin_dir)})
    for mode in (SandboxMode.READ_ONLY, SandboxMode.WORKSPACE_WRITE):
        result = run(context_for(workspace, mode), "echo ran > marker.txt", runner)
        assert result == ToolResult(
            "Error [sandbox_unavailable]: bubblewrap (bwrap) was not found on PATH",
            is_error=True,
            error_code="sandbox_unavailable",
        )
    assert not (workspace / "marker.txt").exists()


def test_danger_full_access_runs_without_bubblewrap(tmp_path: Path, workspace: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "bash").symlink_to(shutil.which("bash") or "/bin/bash")
    runner = ShellRunner(env={"PATH": str(bin_dir)})
    context = context_for(workspace, SandboxMode.DANGER_FULL_ACCESS)
    assert run(context, "echo ran > marker.txt", runner).content == "(no output)"
    assert (workspace / "marker.txt").read_text() == "ran\n"


def test_a_bubblewrap_that_cannot_start_is_sandbox_unavailable(
    tmp_path: Path, workspace: Path
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "bash").symlink_to(shutil.which("bash") or "/bin/bash")
    broken = bin_dir / "bwrap"
    broken.write_text(
        "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n"
    )
    broken.chmod(0o755)
    runner = ShellRunner(env={"PATH": str(bin_dir)})
    result = run(context_for(workspace, SandboxMode.WORKSPACE_WRITE), "touch marker", runner)
    assert result.content == (
        "Error [sandbox_unavailable]: The sandbox could not be started: "
        "bwrap: setting up uid map: Permission denied"
    )
    assert not (workspace / "marker").exists()
