"""red18: a program writes the protected set below a folder it is given, and a memo forgot it.

Two holes of the protected set's promise (DESIGN: no tool call writes it):

* A recursive writer given a folder that holds the protected set — ``rm -rf .``,
  ``rm -r src/..``, ``rm -rf .git/..``, ``chmod -R 700 .``, ``find . -delete``,
  ``cp -r src/. .``, ``mv tpl .claude`` — names no protected path, so under an allow for
  ``rm`` (or ``find``, ``cp``, ``mv``) the line was allowed and removed or replaced ``.git``
  and the agent's settings; without rules P03 only asked, which the deny-only agents run.
  Now ``program_table.writes_below`` says which folders a command may write anything below,
  and the protected set refuses any that holds one of its entries (the workspace itself, a
  folder above it, ``.claude``), with that entry's reason.
* Once a harmless line (``ls``) had been decided under P03, the engine answered every later
  line without a ``>`` from its memo of decisions that cannot depend on the arguments:
  ``rm -rf .git`` got ``ls``'s ask for the rest of the process (the gate, a library
  caller). ``tests/engine/test_memo_sequences.py`` holds the property for that kind.

The property runs the real programs in real bash: whenever a line changed the protected set
(contents, links or modes), it was denied with a protected reason, with or without rules.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from toolpolicy import Behavior, load

from .test_red17_argument_writes import _GIT, _POLICY_FILE, _SETTINGS, Setup

LINES = [
    "rm -rf {}",
    "rm -r -- {}",
    "chmod -R 700 {}",
    "find {} -delete",
    "find {} -name config -delete",
    "cp -r tpl/. {}",
    "cp -rT tpl {}",
    "cp -r tpl {}",
    "mv tpl {}",
    "sh -c 'rm -rf {}'",
]
FOLDERS = [".", "./", "src/..", ".git/..", "{ws}", "..", ".claude", "cl", "g/..", "src", "new"]
POLICY_RULES = """\
  - name: cleaning
    behavior: allow
    reason: Cleaning is fine
    match: {commands: [rm, chmod, find, cp, mv, sh]}
"""


class Tree(Setup):
    """red17's workspace (``.git``, ``.claude``, the policy file, links ``g`` and ``cl``)
    with a ``src`` folder and a template folder ``tpl`` holding a ``settings.json``."""

    def __init__(self, base: Path) -> None:
        super().__init__(base)
        for folder in ("src", "tpl"):
            (self.ws / folder).mkdir()
            (self.ws / folder / "a.txt").write_text("a\n")
        (self.ws / "tpl" / "settings.json").write_text('{"hooks": {}}\n')
        (self.ws / "tpl" / "config").write_text("[evil]\n")

    def protected_modes(self) -> dict[str, object]:
        """red17's state of the protected set, with every path's mode."""
        found: dict[str, object] = dict(self.protected_state())
        claude = self.ws / ".claude"
        for path in [self.ws / ".git", *sorted((self.ws / ".git").rglob("*")), claude]:
            if path.exists():
                found[f"mode {path}"] = path.stat().st_mode
        for name in ("settings.json", "settings.local.json"):
            path = claude / name
            if path.is_file():
                found[f"hash {path}"] = hashlib.sha256(path.read_bytes()).hexdigest()
        return found


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    template=st.sampled_from(LINES),
    folder=st.sampled_from(FOLDERS),
    ruled=st.booleans(),
)
@example(template="rm -rf {}", folder=".", ruled=True)
@example(template="rm -rf {}", folder=".git/..", ruled=True)
@example(template="find {} -delete", folder=".", ruled=False)
@example(template="mv tpl {}", folder="new", ruled=True)
@example(template="cp -r tpl {}", folder=".claude", ruled=True)
def test_a_line_that_writes_below_a_folder_holding_the_protected_set_is_denied(
    tmp_path_factory: pytest.TempPathFactory, template: str, folder: str, ruled: bool
) -> None:
    tree = Tree(tmp_path_factory.mktemp("red18") / "base")
    if template in ("cp -r tpl {}", "mv tpl {}") and folder == ".claude":
        shutil.rmtree(tree.ws / ".claude")  # the destination does not exist: it becomes tpl
    if ruled:
        tree.policy.write_text(tree.policy.read_text() + POLICY_RULES)
    line = template.format(folder.format(ws=tree.ws))
    policies = [str(tree.policy)] if ruled else []
    decision = load("P03", policies=policies, workspace=tree.ws).check("shell", {"command": line})
    before = tree.protected_modes()
    tree.bash(line)
    changed = tree.protected_modes() != before
    if changed:
        assert decision.behavior is Behavior.DENY, (line, decision)
        assert decision.reason in (_GIT, _SETTINGS, _POLICY_FILE), (line, decision)
    assert decision.behavior is not Behavior.ALLOW or not changed


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("rm -rf .", _GIT),
        ("rm -rf ./", _GIT),
        ("rm -r src/..", _GIT),
        ("rm -rf .git/..", _GIT),
        ("rm -rf ..", _GIT),
        ("chmod -R 777 .", _GIT),
        ("find . -delete", _GIT),
        ("find -delete", _GIT),
        ("cp -r src/. .", _GIT),
        ("mv tpl .claude", _SETTINGS),
        ("sh -c 'rm -rf .'", _GIT),
        ("rm -rf cl", _SETTINGS),
    ],
)
def test_each_recursive_spelling_is_denied_with_the_protected_reason(
    tmp_path: Path, line: str, reason: str
) -> None:
    tree = Tree(tmp_path)
    tree.policy.write_text(tree.policy.read_text() + POLICY_RULES)
    for policies in ([str(tree.policy)], []):
        policy = load("P03", policies=policies, workspace=tree.ws)
        policy.check("shell", {"command": "ls"})  # a harmless line first: nothing remembered
        decision = policy.check("shell", {"command": line})
        assert (decision.behavior, decision.reason) == (Behavior.DENY, reason), (line, policies)


def test_what_writes_below_an_ordinary_folder_stays_open(tmp_path: Path) -> None:
    """A folder holding nothing protected, and a copy into the workspace itself (which
    exists, so the copy lands beside ``.git``), are the allow's to decide."""
    tree = Tree(tmp_path)
    tree.policy.write_text(tree.policy.read_text() + POLICY_RULES)
    policy = load("P03", policies=[str(tree.policy)], workspace=tree.ws)
    for line in (
        "rm -rf src",
        "chmod -R 700 src",
        "find src -delete",
        "cp -r tpl .",
        "mv tpl/a.txt .",
    ):
        assert policy.check("shell", {"command": line}).behavior is Behavior.ALLOW, line
