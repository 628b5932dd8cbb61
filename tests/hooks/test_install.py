"""`toolpolicy hook install claude-code`: merge into settings, idempotently, failing closed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from toolpolicy.hooks.install import EVENTS, hook_command, merge_settings

EXISTING: dict[str, Any] = {
    "permissions": {"allow": ["Bash(ls)"], "deny": ["Read(./.env)"]},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint-bash"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "notify"}]}],
    },
    "model": "sonnet",
}


def install(
    tmp_path: Path, *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLPOLICY_", "CLAUDE_"))}
    env["HOME"] = str(tmp_path / "home")
    return subprocess.run(
        [sys.executable, "-m", "toolpolicy", "hook", "install", "claude-code", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd or tmp_path,
        env=env,
    )


def ours(settings: dict[str, Any], event: str) -> list[dict[str, Any]]:
    return [
        h
        for group in settings["hooks"][event]
        for h in group["hooks"]
        if "hook claude-code" in h["command"]
    ]


def test_install_merges_every_event_and_keeps_what_is_there(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps(EXISTING))
    policy = tmp_path / "team.yaml"
    done = install(
        tmp_path, "--settings", str(settings), "--preset", "read-only", "--policy", "team.yaml"
    )
    assert done.returncode == 0, done.stderr
    merged = json.loads(settings.read_text())
    assert merged["permissions"] == EXISTING["permissions"]
    assert merged["model"] == "sonnet"
    assert merged["hooks"]["Stop"] == EXISTING["hooks"]["Stop"]
    assert merged["hooks"]["PreToolUse"][0] == EXISTING["hooks"]["PreToolUse"][0]
    for event in EVENTS:
        [hook] = ours(merged, event)
        assert hook["type"] == "command" and hook["timeout"] == 30
        command = hook["command"]
        assert command.endswith(f" hook claude-code --preset read-only --policy {policy} || exit 2")
        assert os.path.isabs(command.split()[0].strip("'"))
    assert merged["hooks"]["PreToolUse"][1]["matcher"] == "*"
    assert "matcher" not in merged["hooks"]["SessionStart"][0]


def test_installing_twice_changes_nothing(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps(EXISTING))
    assert install(tmp_path, "--settings", str(settings)).returncode == 0
    first = settings.read_bytes()
    assert install(tmp_path, "--settings", str(settings)).returncode == 0
    assert settings.read_bytes() == first
    # a new selection replaces the old entry instead of adding a second one
    assert install(tmp_path, "--settings", str(settings), "--approval", "never").returncode == 0
    [hook] = ours(json.loads(settings.read_text()), "PreToolUse")
    assert "--approval never" in hook["command"]


def test_project_and_user_settings_are_the_claude_code_files(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    assert install(tmp_path, "--project", cwd=project).returncode == 0
    assert ours(json.loads((project / ".claude/settings.json").read_text()), "PreToolUse")
    assert install(tmp_path, "--user", cwd=project).returncode == 0
    assert ours(json.loads((tmp_path / "home/.claude/settings.json").read_text()), "PostToolUse")


@pytest.mark.parametrize("content", ["{not json", "[]", '{"hooks": []}'])
def test_a_settings_file_that_cannot_be_merged_is_left_alone(tmp_path: Path, content: str) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(content)
    done = install(tmp_path, "--settings", str(settings))
    assert done.returncode == 2
    assert done.stderr.startswith(f"toolpolicy hook install: {settings}: ")
    assert settings.read_text() == content


def _run_command(
    command: str, event: dict[str, object], cwd: Path
) -> subprocess.CompletedProcess[str]:
    """Run the settings' command the way Claude Code does: through a shell, event on stdin."""
    return subprocess.run(
        ["sh", "-c", command],
        input=json.dumps(event),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
    )


def test_the_command_blocks_when_the_executable_is_missing_or_crashes(tmp_path: Path) -> None:
    event = {
        "session_id": "s",
        "cwd": str(tmp_path),
        "hook_event_name": "PreToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": str(tmp_path / "a")},
        "tool_use_id": "t",
    }
    missing = hook_command([str(tmp_path / "gone" / "toolpolicy")], "claude-code", [])
    assert _run_command(missing, event, tmp_path).returncode == 2  # not 127: blocked
    crashing = hook_command(["/bin/false"], "claude-code", [])
    assert _run_command(crashing, event, tmp_path).returncode == 2  # not 1: blocked
    working = hook_command(
        [sys.executable, "-m", "toolpolicy"], "claude-code", ["--audit", str(tmp_path / "a.jsonl")]
    )
    done = _run_command(
        working, {**event, "tool_name": "Bash", "tool_input": {"command": "ls"}}, tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "ask"


def test_a_quoted_executable_path_survives_the_shell(tmp_path: Path) -> None:
    command = hook_command(["/opt/my tools/toolpolicy"], "claude-code", ["--policy", "/p q.yaml"])
    assert command == "'/opt/my tools/toolpolicy' hook claude-code --policy '/p q.yaml' || exit 2"


def test_merge_refuses_hooks_that_are_not_an_object() -> None:
    with pytest.raises(ValueError, match="'hooks' is not an object"):
        merge_settings({"hooks": []}, "x", 30)
