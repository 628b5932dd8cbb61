"""The shell tool unconfined (danger-full-access): output, exit codes, caps, timeouts, kills."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from toolpolicy.core.results import ToolResult
from toolpolicy.core.vocabulary import SandboxMode
from toolpolicy.tools.registry import ToolContext
from toolpolicy.tools.shell import CommandResult, ShellRunner, command_tool_result

from .shell_processes import command_survives, pid_survives, running_now


@pytest.fixture
def unconfined(workspace: Path) -> ToolContext:
    return ToolContext(workspace=str(workspace), sandbox=SandboxMode.DANGER_FULL_ACCESS)


def run(context: ToolContext, command: str, runner: ShellRunner | None = None) -> ToolResult:
    return (runner or ShellRunner())({"command": command}, context)


def test_stdout_and_stderr_are_merged_in_order(unconfined: ToolContext) -> None:
    assert run(unconfined, "echo out; echo err >&2; echo again") == ToolResult(
        "out\nerr\nagain\n", is_error=False
    )


def test_the_working_directory_is_the_workspace(workspace: Path, unconfined: ToolContext) -> None:
    assert run(unconfined, "pwd").content == os.path.realpath(workspace) + "\n"


def test_empty_output_is_reported_as_no_output(unconfined: ToolContext) -> None:
    assert run(unconfined, "true") == ToolResult("(no output)", is_error=False)


def test_a_non_zero_exit_is_shell_failed_with_the_output(unconfined: ToolContext) -> None:
    result = run(unconfined, "echo boom; exit 3")
    assert result == ToolResult(
        "Error [shell_failed]: Command exited with code 3\nboom\n",
        is_error=True,
        error_code="shell_failed",
    )


def test_a_non_zero_exit_without_output(unconfined: ToolContext) -> None:
    assert run(unconfined, "exit 1").content == (
        "Error [shell_failed]: Command exited with code 1\n(no output)"
    )


def test_a_command_killed_by_a_signal_is_shell_failed(unconfined: ToolContext) -> None:
    assert run(unconfined, "kill -9 $$").content == (
        "Error [shell_failed]: Command was terminated by signal 9\n(no output)"
    )


def test_output_over_the_cap_is_truncated_with_a_note(unconfined: ToolContext) -> None:
    runner = ShellRunner(max_output_bytes=100)
    result = run(unconfined, "head -c 5000 /dev/zero | tr '\\0' a", runner)
    assert result.content == "a" * 100 + "\n[output truncated]"


def test_the_default_cap_is_50_kb(unconfined: ToolContext) -> None:
    result = run(unconfined, "head -c 60000 /dev/zero | tr '\\0' b")
    assert result.content == "b" * 50_000 + "\n[output truncated]"


def test_output_exactly_at_the_cap_is_not_truncated(unconfined: ToolContext) -> None:
    result = run(
        unconfined, "head -c 100 /dev/zero | tr '\\0' c", ShellRunner(max_output_bytes=100)
    )
    assert result.content == "c" * 100


def test_invalid_utf8_output_is_replaced_not_fatal(unconfined: ToolContext) -> None:
    assert run(unconfined, "printf 'a\\377b'").content == "a\ufffdb"


def test_a_timeout_kills_the_whole_process_group_including_grandchildren(
    workspace: Path, unconfined: ToolContext
) -> None:
    runner = ShellRunner(timeout_seconds=1)
    result = run(unconfined, "echo started; sleep 300 & echo $! > bg.pid; sleep 300", runner)
    assert result == ToolResult(
        "Error [shell_timeout]: Command timed out after 1 s\nstarted\n",
        is_error=True,
        error_code="shell_timeout",
    )
    grandchild = int((workspace / "bg.pid").read_text())
    assert not pid_survives(grandchild)


def test_a_command_that_never_stops_talking_still_times_out(unconfined: ToolContext) -> None:
    result = run(unconfined, "yes", ShellRunner(timeout_seconds=1, max_output_bytes=10))
    assert result.content == (
        "Error [shell_timeout]: Command timed out after 1 s\ny\ny\ny\ny\ny\n\n[output truncated]"
    )


def test_background_processes_do_not_outlive_a_finished_command(
    workspace: Path, unconfined: ToolContext
) -> None:
    result = run(unconfined, "sleep 301 & echo $! > bg.pid; echo done")
    assert result.content == "done\n"
    assert not pid_survives(int((workspace / "bg.pid").read_text()))


def test_a_command_that_closes_its_output_still_runs_to_the_end(
    workspace: Path, unconfined: ToolContext
) -> None:
    result = run(unconfined, "exec >&- 2>&-; sleep 0.3; touch finished")
    assert result.content == "(no output)"
    assert (workspace / "finished").exists()


def test_a_missing_bash_is_shell_start_failed(tmp_path: Path, unconfined: ToolContext) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    result = run(unconfined, "true", ShellRunner(env={"PATH": str(empty)}))
    assert result == ToolResult(
        "Error [shell_start_failed]: Shell process could not be started",
        is_error=True,
        error_code="shell_start_failed",
    )


def test_a_missing_workspace_is_shell_start_failed(tmp_path: Path) -> None:
    context = ToolContext(workspace=str(tmp_path / "gone"), sandbox=SandboxMode.DANGER_FULL_ACCESS)
    assert run(context, "true").error_code == "shell_start_failed"


@pytest.mark.skipif(
    shutil.which("pwsh") is not None or shutil.which("powershell") is not None,
    reason="PowerShell is installed here; this checks the message when it is not",
)
def test_powershell_that_is_not_installed_is_shell_start_failed(unconfined: ToolContext) -> None:
    result = run(unconfined, "Get-Date", ShellRunner(shell="powershell"))
    assert result.content == "Error [shell_start_failed]: PowerShell process could not be started"


@pytest.mark.skipif(shutil.which("pwsh") is None, reason="pwsh (PowerShell 7) is not installed")
def test_powershell_runs_a_command_when_installed(unconfined: ToolContext) -> None:
    result = run(unconfined, "Write-Output 'hi'", ShellRunner(shell="powershell"))
    assert result.content.strip() == "hi"


def test_the_runner_refuses_nonsense_settings() -> None:
    with pytest.raises(ValueError, match="shell must be one of: bash, powershell"):
        ShellRunner(shell="zsh")
    with pytest.raises(ValueError, match="must be positive"):
        ShellRunner(timeout_seconds=0)


def test_the_default_timeout_is_120_seconds() -> None:
    assert ShellRunner().timeout_seconds == 120.0


def test_a_timeout_result_without_output_says_no_output() -> None:
    result = command_tool_result(CommandResult("", None, timed_out=True), 120)
    assert result.content == "Error [shell_timeout]: Command timed out after 120 s\n(no output)"


def test_the_marker_helper_sees_a_running_command() -> None:
    # Guards the helper the sandbox tests rely on: it must find a live process by its argv.
    marker = "toolpolicy-marker-7f3a"
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)", marker])
    try:
        # Right after exec the kernel may still show an empty command line.
        deadline = time.monotonic() + 5
        while not running_now(marker) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert running_now(marker) is True
    finally:
        proc.kill()
        proc.wait()
    assert command_survives(marker) is False
