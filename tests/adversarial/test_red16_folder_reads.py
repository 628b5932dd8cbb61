"""red16: a shell line that reads a folder whole, which the folder check never sees.

Last round's fix (engine/evaluate.py ``_folder_candidates``) asks when a folder *argument*
holds a file a read rule closes (``grep -r SECRET .`` asks). Three spellings still read such
a folder under an allow for the program:

* no folder argument at all: ``grep -r SECRET`` and ``git grep --no-index SECRET`` read the
  folder they run in (GNU grep: "if no file operand is given, grep searches the working
  directory"), so no argument reaches the check;
* a symlink below the folder, followed by the program (``grep -R``, ``tar -h``): the walk
  (engine/folder_walk.py) lists ``src/vault`` as an entry and matches the rules on that
  text only, never on ``secrets/**`` where it leads;
* ``.git``, which the walk skips, so a read rule on ``.git/config`` is never met by
  ``grep -r url .``.

What each should get: the ask ``grep -r SECRET .`` gets. All three are fixed: a program that
reads its working folder unnamed has ``.`` as an argument
(``compile/program_table.py`` ``reads_working_folder``), a link is followed, and the walk goes
into a ``.git`` folder when a read rule may close a file there (``compile/globs.py``
``may_match_below``); the properties are in ``tests/compile/test_working_folder.py`` and
``tests/compile/test_glob_below.py``. DESIGN: "A deny or ask is
conservative. It hits wherever the denied thing could be."
"""

from __future__ import annotations

from pathlib import Path

import pytest

from toolpolicy import Behavior, Decision, load

from .project import Project

POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
rules:
  - name: tools-are-fine
    behavior: allow
    reason: These tools are fine
    match: {commands: [grep, git, tar]}
  - name: no-secret
    behavior: deny
    reason: The secret stays secret
    match: {tools: [read_file], paths: [secret.txt, "secrets/**", .git/config]}
"""


class Setup(Project):
    def __init__(self, base: Path) -> None:
        super().__init__(base, POLICY)
        for folder in (self.ws / "src", self.ws / "secrets", self.ws / "repo" / ".git"):
            folder.mkdir(parents=True)
        (self.ws / "secret.txt").write_text("SECRET-IN\n")
        (self.ws / "secrets" / "key.pem").write_text("KEY-IN\n")
        (self.ws / "src" / "a.txt").write_text("nothing\n")
        (self.ws / "src" / "vault").symlink_to("../secrets", target_is_directory=True)
        (self.ws / "repo" / "a.txt").write_text("nothing\n")
        (self.ws / "repo" / ".git" / "config").write_text("url = https://token@host\n")
        self.loaded = load("P03", policies=[self.policy], workspace=self.ws)

    def check(self, line: str) -> Decision:
        return self.loaded.check("shell", {"command": line})


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Setup:
    return Setup(tmp_path_factory.mktemp("folders"))


def test_the_premise_a_folder_argument_holding_the_secret_asks(setup: Setup) -> None:
    assert setup.check("grep -r SECRET .").behavior is Behavior.ASK
    assert setup.check("grep -r KEY secrets").behavior >= Behavior.ASK
    assert setup.check("grep -r x src/a.txt").behavior is Behavior.ALLOW  # guard


@pytest.mark.parametrize(
    "line", ["grep -r SECRET", "grep -rn SECRET", "git grep --no-index SECRET"]
)
def test_a_recursive_read_without_a_folder_argument_is_not_allowed(setup: Setup, line: str) -> None:
    shown = setup.bash(line)
    assert "SECRET-IN" in shown.stdout  # real grep/git read secret.txt
    assert setup.hook("Bash", {"command": line})[0] != "allow"
    assert setup.check(line).behavior >= Behavior.ASK


@pytest.mark.parametrize("line", ["grep -R KEY src", "tar -c -h -f - src"])
def test_a_link_below_a_folder_that_the_program_follows_is_not_allowed(
    setup: Setup, line: str
) -> None:
    shown = setup.bash(line)
    assert "KEY-IN" in shown.stdout  # grep -R and tar -h follow src/vault -> ../secrets
    assert setup.hook("Bash", {"command": line})[0] != "allow"
    assert setup.check(line).behavior >= Behavior.ASK


def test_a_folder_holding_a_closed_git_config_is_not_allowed(tmp_path: Path) -> None:
    policy = POLICY.replace('[secret.txt, "secrets/**", .git/config]', "[repo/.git/config]")
    project = Project(tmp_path, policy)
    (project.ws / "repo" / ".git").mkdir(parents=True)
    (project.ws / "repo" / ".git" / "config").write_text("url = https://token@host\n")
    loaded = load("P03", policies=[project.policy], workspace=project.ws)
    assert loaded.check("shell", {"command": "grep -r url repo/.git"}).behavior is Behavior.ASK
    shown = project.bash("grep -r token repo")
    assert "token@host" in shown.stdout
    assert project.hook("Bash", {"command": "grep -r token repo"})[0] != "allow"
    assert loaded.check("shell", {"command": "grep -r token repo"}).behavior >= Behavior.ASK
