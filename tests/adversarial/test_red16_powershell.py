"""red16: a PowerShell escape or wildcard hides a file deny from the hook's bash reading.

This round's fix for red15 #6 (hooks/decide.py ``_powershell``) never allows a PowerShell
line and decides it twice for its denies: as ``pwsh -Command LINE`` and as bash reads it with
every ``\\`` a ``/``. PowerShell's escape character is the backtick, which bash reads as a
command substitution, and ``Get-Content``'s ``-Path`` expands ``[t]`` wildcards, which bash's
reading refuses as a bracket glob. Either makes the line not plain to the bash reading, so
its file denies are never looked for, and it only asks:

* ``echo x > .gi`t\\config`` (PowerShell writes ``.git\\config``),
* ``cat .\\secre`t.txt`` and ``Get-Content secret.tx[t]`` (PowerShell reads ``secret.txt``).

Under Claude Code the human is asked where a deny was due; under Copilot CLI, which honours
only a deny (SECURITY.md), the hook prints nothing and the line runs. What they should get:
the deny the same line without the escape gets ("Writing inside .git is forbidden", "The
secret stays secret"). DESIGN: "A deny or ask is conservative. It hits wherever the denied
thing could be"; promise 8.
"""

from __future__ import annotations

import json

import pytest

from .project import Project

POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
rules:
  - name: no-secret
    behavior: deny
    reason: The secret stays secret
    match: {tools: [read_file], paths: [secret.txt]}
"""

_GIT = "Writing inside .git is forbidden"
_SECRET = "The secret stays secret"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    project = Project(tmp_path_factory.mktemp("pwsh"), POLICY)
    (project.ws / ".git").mkdir()
    (project.ws / "secret.txt").write_text("SECRET-IN\n")
    return project


def _copilot(project: Project, command: str) -> str:
    """What ``toolpolicy hook copilot`` prints for Copilot CLI's ``powershell`` tool."""
    event = {
        "sessionId": "s", "timestamp": 1704614600000, "cwd": str(project.ws),
        "toolName": "powershell", "toolArgs": {"command": command, "description": "x"},
    }  # fmt: skip
    done = project.cli("hook", "copilot", "--policy", str(project.policy), stdin=json.dumps(event))
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("echo x > .git\\config", _GIT),
        ("cat .\\secret.txt", _SECRET),
        ("Get-Content secret.txt", _SECRET),
    ],
)
def test_the_premise_the_plain_spelling_is_denied(
    project: Project, command: str, reason: str
) -> None:
    assert project.hook("PowerShell", {"command": command}) == ("deny", reason)
    assert json.loads(_copilot(project, command)) == {
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    }


_HIDDEN = [
    ("echo x > .gi`t\\config", _GIT),
    ("cat .\\secre`t.txt", _SECRET),
    ("Get-Content secret.tx[t]", _SECRET),
]


@pytest.mark.parametrize(("command", "reason"), _HIDDEN)
def test_an_escaped_or_wildcard_spelling_is_denied_by_the_claude_code_hook(
    project: Project, command: str, reason: str
) -> None:
    assert project.hook("PowerShell", {"command": command}) == ("deny", reason)


@pytest.mark.parametrize(("command", "reason"), _HIDDEN)
def test_an_escaped_or_wildcard_spelling_is_denied_by_the_copilot_hook(
    project: Project, command: str, reason: str
) -> None:
    said = _copilot(project, command)
    assert json.loads(said or "{}") == {
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    }
