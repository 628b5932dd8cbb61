"""red16: Gemini's ``dir_path`` turns every file deny of a shell line into no answer.

Gemini CLI's ``run_shell_command`` takes ``dir_path``, the folder the command runs in. The
hook (hooks/decide.py, ``CatalogEntry.workdir``) decides the line as ``cd DIR && LINE``. A
``cd`` is not plain, so none of the line's redirections and path arguments is decided as a
file access: the deny ``echo x > .git/config`` gets ("Writing inside .git is forbidden") and
the deny on reading ``secret.txt`` are gone, for *any* ``dir_path``, even ``.``. The line only
asks, and SECURITY.md says: "Codex CLI, Gemini CLI and Copilot CLI honour only a deny ... a
toolpolicy ask is not enforced there". So ``toolpolicy hook gemini`` prints nothing and
Gemini runs the write into ``.git`` (or into ``.git`` itself with ``dir_path: .git`` and
``echo x >> hooks/pre-commit``).

What it should get: the deny the same line gets without ``dir_path``, decided from that
folder, as ``ToolContext.cwd`` now does for the event's ``cwd``. DESIGN promise 8 (writes
into ``.git`` are denied for every tool) and "A deny or ask is conservative."
"""

from __future__ import annotations

import json
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


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    project = Project(tmp_path_factory.mktemp("gemini"), POLICY)
    (project.ws / ".git" / "hooks").mkdir(parents=True)
    (project.ws / "secret.txt").write_text("SECRET-IN\n")
    project.env["GEMINI_PROJECT_DIR"] = str(project.ws)
    return project


def _gemini(project: Project, command: str, dir_path: str | None) -> str:
    """What ``toolpolicy hook gemini`` prints for a BeforeTool ``run_shell_command``."""
    tool_input = {"command": command, "description": "x"}
    if dir_path is not None:
        tool_input["dir_path"] = dir_path
    event = {
        "session_id": "s", "transcript_path": str(project.outside / "t.jsonl"),
        "cwd": str(project.ws), "hook_event_name": "BeforeTool",
        "timestamp": "2026-12-01T08:00:00.000Z", "tool_name": "run_shell_command",
        "tool_input": tool_input,
    }  # fmt: skip
    done = project.cli("hook", "gemini", "--policy", str(project.policy), stdin=json.dumps(event))
    assert done.returncode == 0, done.stderr
    return done.stdout


def _denied(reason: str) -> dict[str, str]:
    return {"decision": "deny", "reason": reason}


def test_the_premise_without_dir_path_the_file_denies_hold(project: Project) -> None:
    said = _gemini(project, "echo x > .git/config", None)
    assert json.loads(said) == _denied("Writing inside .git is forbidden")
    assert json.loads(_gemini(project, "cat secret.txt", None)) == _denied(
        "The secret stays secret"
    )


@pytest.mark.parametrize(
    ("command", "dir_path", "reason"),
    [
        ("echo x > .git/config", ".", "Writing inside .git is forbidden"),
        ("echo x >> hooks/pre-commit", ".git", "Writing inside .git is forbidden"),
        ("cat secret.txt", ".", "The secret stays secret"),
    ],
)
def test_a_file_deny_holds_with_a_dir_path(
    project: Project, command: str, dir_path: str, reason: str
) -> None:
    folder: Path = project.ws / dir_path
    ran = project.bash(command, cwd=folder)  # what Gemini runs unless the hook denies
    assert ran.returncode == 0
    said = _gemini(project, command, dir_path)
    assert json.loads(said or "{}") == _denied(reason)
