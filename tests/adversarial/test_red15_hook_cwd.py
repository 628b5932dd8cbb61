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
    match: {commands: [echo, cat, ls]}
  - name: no-prod
    behavior: deny
    reason: Production settings stay closed
    match: {tools: [read_file], paths: [config/prod/**]}
"""


class Setup(Project):
    def __init__(self, base: Path) -> None:
        super().__init__(base, POLICY)
        for folder in (self.ws / ".git" / "hooks", self.ws / "config" / "prod"):
            folder.mkdir(parents=True)
        (self.ws / "config" / "prod" / "db.yaml").write_text("password: SECRET\n")

    def shell(self, command: str, cwd: Path) -> tuple[str, str]:
        return self.hook("Bash", {"command": command}, cwd=cwd)


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    return Setup(tmp_path)


def test_the_root_spelling_is_denied(setup: Setup) -> None:
    """The premise: from the project root both are refused."""
    assert setup.shell("echo x >> .git/hooks/pre-commit", setup.ws) == (
        "deny",
        "Writing inside .git is forbidden",
    )
    assert setup.shell("cat config/prod/db.yaml", setup.ws) == (
        "deny",
        "Production settings stay closed",
    )


def test_a_write_from_a_shell_sitting_in_git_is_denied(setup: Setup) -> None:
    inside_git = setup.ws / ".git"
    answer = setup.shell("echo 'touch F' >> hooks/pre-commit", inside_git)
    # What Claude Code's bash does with that line in that folder:
    setup.bash("echo 'touch F' >> hooks/pre-commit", inside_git)
    assert (setup.ws / ".git" / "hooks" / "pre-commit").read_text() == "touch F\n"
    assert answer == ("deny", "Writing inside .git is forbidden")


def test_a_read_from_a_shell_sitting_in_config_meets_the_anchored_deny(setup: Setup) -> None:
    in_config = setup.ws / "config"
    assert setup.bash("cat prod/db.yaml", in_config).stdout == "password: SECRET\n"
    assert setup.shell("cat prod/db.yaml", in_config) == (
        "deny",
        "Production settings stay closed",
    )
