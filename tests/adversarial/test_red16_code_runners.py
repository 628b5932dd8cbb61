"""red16: programs that run code from their arguments, unknown to the ``allow-runs-code`` lint.

SECURITY.md: "An allow covers words, not what a program makes of them. A plain command whose
program runs code from its arguments ... runs whatever it is told; ``toolpolicy lint`` warns
about such allows (``allow-runs-code``)." The warning is the policy author's only notice, and
its table (compile/program_table.py ``RUNS_CODE``) lacks everyday text and archive tools that
run a command given in their arguments:

* GNU ``sed``: the ``e`` command and the ``s///e`` flag run a shell command, ``w FILE``
  writes and ``r FILE`` reads a file named inside the script word;
* GNU ``tar``: ``--checkpoint-action=exec=CMD``, ``--to-command=CMD``, ``-I CMD``;
* ``zip -TT CMD``, ``rsync -e CMD``, ``vim -c '!CMD'``, ``sort --compress-program=CMD``.

An allow for ``sed`` (a rule as everyday as one for ``grep``) is linted clean, and the hook
answers ``allow`` to ``sed -n '1e touch .git/hooks/x' src/a.txt``: real bash writes into
``.git``, which DESIGN promise 8 keeps closed to every tool.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .project import Project

_RUNS_CODE = {
    "sed": "sed -n '1e touch .git/hooks/x' src/a.txt",
    "tar": "tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec='touch .git/hooks/x' src",
}
_ALSO_RUN_CODE = ["zip", "rsync", "vim", "sort"]


def _policy(program: str) -> str:
    return f"""\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
rules:
  - name: everyday
    behavior: allow
    reason: Everyday tools
    match: {{commands: [{program}]}}
"""


@pytest.mark.parametrize("program", sorted(_RUNS_CODE))
def test_the_premise_the_line_runs_code(tmp_path: Path, program: str) -> None:
    """What real bash does with the line (the hook answers ``allow`` to it today)."""
    project = Project(tmp_path, _policy(program))
    (project.ws / ".git" / "hooks").mkdir(parents=True)
    (project.ws / "src").mkdir()
    (project.ws / "src" / "a.txt").write_text("one line\n")
    line = _RUNS_CODE[program]
    project.bash(line)
    assert (project.ws / ".git" / "hooks" / "x").exists()  # what Claude Code's bash then does


@pytest.mark.parametrize("program", [*sorted(_RUNS_CODE), *_ALSO_RUN_CODE])
def test_an_allow_on_a_program_that_runs_code_is_linted(tmp_path: Path, program: str) -> None:
    project = Project(tmp_path, _policy(program))
    done = project.cli("lint", str(project.policy), "--format", "json")
    codes = [finding["code"] for finding in json.loads(done.stdout)["findings"]]
    assert "allow-runs-code" in codes
