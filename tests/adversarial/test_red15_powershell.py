"""red15: Claude Code's PowerShell lines are read with bash's quoting rules.

The catalog maps Claude Code's ``PowerShell`` tool to ``shell`` and the line goes through
the bash plain-subset reader. In bash a backslash escapes the next character, so
``.git\\config`` is read as the one name ``.gitconfig`` and ``.\\secret.txt`` as
``.secret.txt``; in PowerShell the backslash is a path separator (on Windows, and for
PowerShell's providers on every platform) and the escape character is the backtick. So under
an allow for ``echo`` and ``cat`` the hook answers ``allow`` for ``echo x > .git\\config``
(PowerShell writes ``.git/config``) and for ``cat .\\secret.txt`` (PowerShell's ``cat``,
``Get-Content``, reads ``secret.txt``, which a rule denies); the ``/`` spellings are denied.

What it should get: what the same file gets spelled with ``/`` (or no allow at all: a line
whose reading in the shell that runs it is not proven is not plain, DESIGN "An allow is
proven"). No PowerShell here, so this test stops at the hook's answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .project import Project

POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
rules:
  - name: everyday
    behavior: allow
    reason: Everyday commands
    match: {commands: [echo, cat]}
  - name: no-secret
    behavior: deny
    reason: The secret stays secret
    match: {tools: [read_file], paths: [secret.txt]}
"""

_GIT = ("deny", "Writing inside .git is forbidden")
_SECRET = ("deny", "The secret stays secret")


@pytest.fixture
def project(tmp_path: Path) -> Project:
    found = Project(tmp_path, POLICY)
    (found.ws / ".git").mkdir()
    (found.ws / "secret.txt").write_text("SECRET\n")
    return found


def _hook(project: Project, tool: str, command: str) -> tuple[str, str]:
    return project.hook(tool, {"command": command})


def test_the_slash_spellings_are_denied(project: Project) -> None:
    assert _hook(project, "PowerShell", "echo x > .git/config") == _GIT
    assert _hook(project, "PowerShell", "cat ./secret.txt") == _SECRET


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("echo x > .git\\config", _GIT),
        ("echo x > .\\.git\\config", _GIT),
        ("cat .\\secret.txt", _SECRET),
    ],
)
def test_a_backslash_path_in_powershell_gets_the_slash_spellings_answer(
    project: Project, command: str, expected: tuple[str, str]
) -> None:
    assert _hook(project, "PowerShell", command) == expected


def test_a_powershell_line_is_never_allowed_by_the_bash_reading(project: Project) -> None:
    """``echo hi`` is allowed as Bash; as PowerShell it asks, since bash's reading proves
    nothing about PowerShell. Even an allow for ``pwsh`` itself gets no allow from the hook:
    then it has no opinion, and Claude Code's own permission flow decides."""
    assert _hook(project, "Bash", "echo hi") == ("allow", "Everyday commands")
    assert _hook(project, "PowerShell", "echo hi") == ("ask", "Shell execution requires approval")
    project.policy.write_text(POLICY.replace("[echo, cat]", "[echo, cat, pwsh]"))
    assert _hook(project, "Bash", "pwsh -NoProfile -Command 'echo hi'") == (
        "allow",
        "Everyday commands",
    )
    assert project.hook_stdout("PowerShell", {"command": "echo hi"}) == ""


def test_a_denied_command_inside_a_powershell_line_is_denied(project: Project) -> None:
    project.policy.write_text(
        POLICY
        + "  - name: no-force\n    behavior: deny\n    reason: No force pushes\n"
        + '    match: {commands: ["git push --force"]}\n'
    )
    line = "if ($true) { git push origin --force }"
    assert _hook(project, "PowerShell", line) == ("deny", "No force pushes")


def test_a_gate_refuses_a_powershell_shell_under_allow_rules_for_shell_lines(
    project: Project,
) -> None:
    """In-process the engine reads a line as bash does: a PowerShell runner under allow
    rules for shell lines is refused when the gate is built, so no allow is ever granted on
    that reading; without such allows it runs (every line asks or is denied)."""
    from doubles import MemorySink
    from toolpolicy import ConfigurationError, load
    from toolpolicy.engine.approval import ApprovalService
    from toolpolicy.tools.builtin import builtin_registry
    from toolpolicy.tools.shell import ShellRunner

    registry = builtin_registry(shell=ShellRunner(shell="powershell")).snapshot()
    policy = load("P03", policies=[str(project.policy)], workspace=str(project.ws))
    with pytest.raises(ConfigurationError) as raised:
        policy.gate(approval=ApprovalService(), audit=[MemorySink()], registry=registry)
    assert str(raised.value) == (
        "a PowerShell shell cannot run under allow rules for shell lines (everyday): "
        "toolpolicy reads a line as bash does"
    )
    bash = builtin_registry().snapshot()
    assert policy.gate(approval=ApprovalService(), audit=[MemorySink()], registry=bash)
    plain = load("P03", workspace=str(project.ws))
    assert plain.gate(approval=ApprovalService(), audit=[MemorySink()], registry=registry)
