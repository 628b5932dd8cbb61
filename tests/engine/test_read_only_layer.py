"""The opt-in ``read-only-commands`` layer: plain read-only commands run without asking,
their paths decided as reads; everything else keeps the profile's answer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolpolicy.core.vocabulary import Behavior
from toolpolicy.engine.selection import ToolPolicy, load

DENY_ENV = """\
apiVersion: toolpolicy/v1
kind: Policy
name: secrets
extends: P03
rules:
  - name: no-env
    behavior: deny
    reason: Secrets stay unread
    match: {paths: [.env]}
  - name: no-keys
    behavior: deny
    reason: Keys stay unread
    match: {tools: [read_file], paths: ["~/.ssh/**"]}
"""


@pytest.fixture
def policy(tmp_path: Path) -> ToolPolicy:
    (tmp_path / "secrets.yaml").write_text(DENY_ENV)
    (tmp_path / ".env").write_text("TOKEN=x\n")
    return load(workspace=tmp_path, policies=["read-only-commands", tmp_path / "secrets.yaml"])


def said(policy: ToolPolicy, line: str) -> tuple[str, str]:
    decision = policy.check("shell", {"command": line})
    return decision.behavior.label, decision.source


@pytest.mark.parametrize(
    "line",
    ["ls -la", "cat README.md | head -5", "tail -n 3 a.log", "wc -l src/x.py",
     "grep -rn TODO src", "rg -i todo src", "find . -name '*.py' -type f", "git status",
     "git log --oneline -5 && git diff HEAD~1 -- src", "git show HEAD:README.md"],
)  # fmt: skip
def test_plain_read_only_commands_are_allowed(policy: ToolPolicy, line: str) -> None:
    assert said(policy, line) == ("allow", "read-only-commands")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("cat .env", ("deny", "no-env")),
        ("cat ./.e*", ("deny", "no-env")),
        ("ls ./.en?", ("deny", "no-env")),
        ("cat *.md", ("ask", "shell-default")),
        ("grep -f .env x", ("deny", "no-env")),
        ("wc --files0-from=.env", ("deny", "no-env")),
        ("head < .env", ("deny", "no-env")),
        ("grep -r x ~/.ssh", ("ask", "workspace-boundary")),
        # no folder named: the working folder, which holds .env (rg may read hidden files)
        ("rg -i todo", ("ask", "search-scope")),
        ("grep -rn TODO", ("ask", "search-scope")),
        ("cat ~/.ssh/id_ed25519", ("deny", "no-keys")),
        ("cat ~/.ssh/*", ("deny", "no-keys")),
        ("head < ~/.ssh/config", ("deny", "no-keys")),
        ("cat /etc/passwd", ("ask", "workspace-boundary")),
        ("ls ../elsewhere", ("ask", "workspace-boundary")),
        ("find src -exec rm {} ;", ("ask", "read-only-commands-find-actions")),
        ("find src -name x -delete", ("ask", "read-only-commands-find-actions")),
        ("find . -name x -delete", ("deny", "workspace-boundary")),  # it walks .git too
        ("find . -fprint out.txt", ("ask", "read-only-commands-find-actions")),
        ("git diff --output=patch.txt", ("ask", "read-only-commands-writing-options")),
        ("rg --pre ./evil x", ("ask", "read-only-commands-writing-options")),
        ("cat $HOME/.netrc", ("ask", "shell-default")),
        ("ls > listing.txt", ("allow", "read-only-commands")),
        ("git push", ("ask", "shell-default")),
        ("git -c core.pager=evil log", ("ask", "shell-default")),
        ("A=1 ls", ("ask", "shell-default")),
    ],
)
def test_paths_are_reads_and_everything_else_keeps_the_profiles_answer(
    policy: ToolPolicy, line: str, expected: tuple[str, str]
) -> None:
    assert said(policy, line) == expected


def test_without_the_layer_every_shell_call_asks(tmp_path: Path) -> None:
    for profile in ("P01", "P02", "P03"):
        decision = load(profile, workspace=tmp_path).check("shell", {"command": "ls"})
        assert decision.behavior is Behavior.ASK, profile


def test_the_cli_and_the_hook_take_the_layer_by_name(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLPOLICY_")}
    env["TOOLPOLICY_CACHE_DIR"] = str(tmp_path / "cache")
    checked = subprocess.run(
        [sys.executable, "-m", "toolpolicy", "check", "shell", '{"command": "git status"}',
         "--policy", "read-only-commands", "--workspace", str(tmp_path)],
        capture_output=True, text=True, check=True, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert (
        checked.stdout.splitlines()[0] == "allow (read-only-commands) - A plain read-only command"
    )
    event = {
        "session_id": "s", "transcript_path": str(tmp_path / "t.jsonl"), "cwd": str(tmp_path),
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "ls -la"}, "tool_use_id": "toolu_1",
    }  # fmt: skip
    hooked = subprocess.run(
        [sys.executable, "-m", "toolpolicy", "hook", "claude-code", "--policy",
         "read-only-commands"],
        input=json.dumps(event), capture_output=True, text=True, check=True, env=env,
        cwd=tmp_path,
    )  # fmt: skip
    out = json.loads(hooked.stdout)["hookSpecificOutput"]
    assert (out["permissionDecision"], out["permissionDecisionReason"]) == (
        "allow",
        "A plain read-only command",
    )


def test_a_symlink_argument_leading_out_of_the_workspace_asks(tmp_path: Path) -> None:
    (tmp_path / "link").symlink_to("/etc", target_is_directory=True)
    policy = load(workspace=tmp_path, policies=["read-only-commands"])
    assert said(policy, "cat link/hostname") == ("ask", "workspace-boundary")
