"""red16: ``/proc/self/cwd`` in a Bash line is resolved in the hook's folder, not the shell's.

This round's fix for red15 #2 decides a Bash line's files from the event's ``cwd``
(hooks/decide.py ``_shell_folder``): after ``cd config``, ``cat prod/db.yaml`` meets the
deny on ``config/prod/**``. A path through ``/proc/self/cwd`` names the folder of the process
that opens it, which is bash, sitting in the event's ``cwd``; the hook resolves it with
``os.path.realpath`` in its own process, whose folder is the project root. So with the shell
in ``<ws>/config``, ``cat /proc/self/cwd/prod/db.yaml`` is decided as ``<ws>/prod/db.yaml``
(no such file, no rule) and allowed, and bash prints the production password.

What it should get: the deny ``cat prod/db.yaml`` gets in that folder ("Production settings
stay closed"), or at least no allow. DESIGN: "The hook has no handler (the agent opens the
file), so it resolves physically before answering"; "A deny or ask is conservative."
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
    match: {commands: [cat]}
  - name: no-prod
    behavior: deny
    reason: Production settings stay closed
    match: {tools: [read_file], paths: [config/prod/**]}
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    project = Project(tmp_path_factory.mktemp("folder"), POLICY)
    (project.ws / "config" / "prod").mkdir(parents=True)
    (project.ws / "config" / "prod" / "db.yaml").write_text("password: SECRET\n")
    return project


def test_the_premise_the_relative_read_from_the_shells_folder_is_denied(project: Project) -> None:
    folder = project.ws / "config"
    denied = ("deny", "Production settings stay closed")
    assert project.hook("Bash", {"command": "cat prod/db.yaml"}, cwd=folder) == denied
    line = f"cat {project.ws}/config/prod/db.yaml"
    assert project.hook("Bash", {"command": line}, cwd=folder) == denied


def test_a_read_through_proc_self_cwd_from_the_shells_folder_is_not_allowed(
    project: Project,
) -> None:
    folder: Path = project.ws / "config"
    line = "cat /proc/self/cwd/prod/db.yaml"
    assert project.bash(line, cwd=folder).stdout == "password: SECRET\n"
    assert project.hook("Bash", {"command": line}, cwd=folder)[0] != "allow"
