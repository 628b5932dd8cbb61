"""red15: the Claude Code hook decides a Bash line against the project root, not its cwd.

Claude Code's Bash tool keeps its working folder between calls: after ``cd src && ls`` the
next event's ``cwd`` is ``<project>/src`` (the golden event
``tests/data/claude-code/post_tool_use_bash_after_cd.json`` was captured from Claude Code
2.1.332 doing exactly that), and the next line runs there. The hook takes the workspace from
``$CLAUDE_PROJECT_DIR`` and decides the line's relative redirection targets and path
arguments against that root, ignoring the event's ``cwd``. So once the shell sits in
``<project>/.git`` (one approved ``cd .git && ls``), an allow for ``echo`` covers
``echo x >> hooks/pre-commit``: the hook answers ``allow`` and bash appends to
``.git/hooks/pre-commit``. The same happens to an anchored deny on reading ``config/prod/**``
once the shell sits in ``config``: ``cat prod/db.yaml`` is allowed.

What it should get: the same answer as the same file spelled from the root
(``echo x >> .git/hooks/pre-commit``: deny "Writing inside .git is forbidden"; ``cat
config/prod/db.yaml``: the deny rule). SECURITY.md: "under the hook only the decision stands
between a Write and the file system, so the hook keeps the workspace boundary"; DESIGN: "The
hook has no handler (the agent opens the file), so it resolves physically before answering".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
rules:
  - name: everyday
    behavior: allow
    reason: Everyday commands
    match: {commands: [echo, cat, ls]}
  - name: no-prod
    behavior: deny
    reason: Production settings stay closed
    match: {tools: [read_file], paths: [config/prod/**]}
"""


class Setup:
    def __init__(self, base: Path) -> None:
        self.ws = base / "project"
        for folder in (self.ws / ".git" / "hooks", self.ws / "config" / "prod"):
            folder.mkdir(parents=True)
        (self.ws / "config" / "prod" / "db.yaml").write_text("password: SECRET\n")
        self.policy = self.ws / "toolpolicy.yaml"
        self.policy.write_text(POLICY)
        self.path = str(self.policy)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLPOLICY_")}
        self.env["HOME"] = str(base)
        self.env["TOOLPOLICY_CACHE_DIR"] = str(base / "cache")
        self.env["CLAUDE_PROJECT_DIR"] = str(self.ws)

    def hook(self, command: str, cwd: Path) -> tuple[str, str]:
        event = {
            "session_id": "s", "transcript_path": str(self.ws / "t.jsonl"), "cwd": str(cwd),
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}, "tool_use_id": "toolu_1",
        }  # fmt: skip
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "toolpolicy",
                "hook",
                "claude-code",
                "--policy",
                str(self.policy),
            ],
            input=json.dumps(event),
            capture_output=True,
            text=True,
            cwd=self.ws,
            env=self.env,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout)["hookSpecificOutput"]
        return out["permissionDecision"], out["permissionDecisionReason"]

    def bash(self, command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", "--noprofile", "--norc", "-c", command],
            capture_output=True,
            text=True,
            cwd=cwd,
            env=self.env,
            timeout=30,
            check=False,
        )


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    return Setup(tmp_path)


def test_the_root_spelling_is_denied(setup: Setup) -> None:
    """The premise: from the project root both are refused."""
    assert setup.hook("echo x >> .git/hooks/pre-commit", setup.ws) == (
        "deny",
        "Writing inside .git is forbidden",
    )
    assert setup.hook("cat config/prod/db.yaml", setup.ws) == (
        "deny",
        "Production settings stay closed",
    )


def test_a_write_from_a_shell_sitting_in_git_is_denied(setup: Setup) -> None:
    inside_git = setup.ws / ".git"
    answer = setup.hook("echo 'touch F' >> hooks/pre-commit", inside_git)
    # What Claude Code's bash does with that line in that folder:
    setup.bash("echo 'touch F' >> hooks/pre-commit", inside_git)
    assert (setup.ws / ".git" / "hooks" / "pre-commit").read_text() == "touch F\n"
    assert answer == ("deny", "Writing inside .git is forbidden")


def test_a_read_from_a_shell_sitting_in_config_meets_the_anchored_deny(setup: Setup) -> None:
    in_config = setup.ws / "config"
    assert setup.bash("cat prod/db.yaml", in_config).stdout == "password: SECRET\n"
    assert setup.hook("cat prod/db.yaml", in_config) == (
        "deny",
        "Production settings stay closed",
    )
