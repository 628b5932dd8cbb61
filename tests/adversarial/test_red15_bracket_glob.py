"""red15: a bracket glob whose class holds a quoted blank or operator passes for literal text.

The plain-subset reader refuses a bracket glob (``a[bc]``) by looking for a ``]`` after the
``[`` with no blank or operator character in between (``_CLOSING_BRACKET``). Quoting or
escaping such a character inside the class hides the ``]`` from that look, yet bash still
reads the class: ``.gi[t' ']`` is a glob that matches ``.git`` (``t`` or a space), and bash
expands it in an argument and in a redirection target alike. The line is plain, the word is
taken as the literal text ``.gi[t ]``, which names no protected or denied file, so an allow
for ``echo`` covers ``echo x > .gi[t' ']/config``: bash then writes ``.git/config`` (a
``core.fsmonitor`` there runs code on the next ``git status``), the policy file in use, or
reads a denied file or through a link out of the workspace. The hook answers ``allow`` too,
so Claude Code runs it without its own prompt.

What it should get: the line is not plain (an allow never covers a glob bash decides at run
time, DESIGN "An allow is proven"), and a write it may make into the protected set is denied
as the literal spelling is (DESIGN promise 8; SECURITY.md "A redirection's target is decided
as the write or read it is").
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy import Behavior, load
from toolpolicy.engine.selection import ToolPolicy

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
    match: {commands: [echo, cat, wc]}
  - name: no-secret
    behavior: deny
    reason: The secret stays secret
    match: {tools: [read_file], paths: [secret.txt]}
"""

# Each quoted or escaped character the reader's look for a closing "]" stops at.
_HIDDEN = ["' '", "'\t'", "';'", "'|'", "'&'", "'<'", "'>'", '" "', '";"', "\\ ", "\\;", "\\|"]

_PROPERTY = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


class Setup(Project):
    """A workspace holding ``.git``, its policy file, a denied file and a link out."""

    def __init__(self, base: Path) -> None:
        super().__init__(base, POLICY)
        (self.ws / ".git").mkdir()
        (self.ws / ".git" / "config").write_text("[core]\n")
        (self.ws / "secret.txt").write_text("SECRET-IN\n")
        (self.outside / "hostname").write_text("SECRET-OUT\n")
        (self.ws / "link").symlink_to(self.outside, target_is_directory=True)

    def loaded(self) -> ToolPolicy:
        return load("P03", policies=[self.policy], workspace=self.ws)


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    return Setup(tmp_path)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> tuple[Setup, ToolPolicy]:
    found = Setup(tmp_path_factory.mktemp("bracket"))
    return found, found.loaded()


def _hidden_class(name: str, position: int, hidden: str) -> str:
    """``name`` with its character at ``position`` replaced by a class that also holds the
    ``hidden`` character: ``.git`` -> ``.gi[t' ']``."""
    return f"{name[:position]}[{name[position]}{hidden}]{name[position + 1 :]}"


def test_bash_expands_a_class_with_a_quoted_blank_in_a_redirection(setup: Setup) -> None:
    """The premise, on real bash: ``.gi[t' ']/config`` is ``.git/config``."""
    done = setup.bash("echo pwned > .gi[t' ']/config; cat secre[t' '].txt; cat l[i' ']nk/hostname")
    assert (setup.ws / ".git" / "config").read_text() == "pwned\n"
    assert done.stdout == "SECRET-IN\nSECRET-OUT\n"
    assert not (setup.ws / ".gi[t ]").exists()


@_PROPERTY
@given(
    name=st.sampled_from([".git/config", "toolpolicy.yaml", "secret.txt", "link/hostname"]),
    data=st.data(),
    hidden=st.sampled_from(_HIDDEN),
    spelling=st.sampled_from(["echo x > {}", "echo x >> {}", "cat {}", "wc < {}"]),
)
def test_a_hidden_bracket_glob_is_decided_no_weaker_than_the_name_it_matches(
    shared: tuple[Setup, ToolPolicy], name: str, data: st.DataObject, hidden: str, spelling: str
) -> None:
    """Whatever bash makes of the glob, no allow covers it (it is not plain) and it is not
    answered more leniently than the name it matches: where that name is denied, the glob
    asks (a line that is not plain asks; the files it reads are not read one by one,
    SECURITY.md, though a word of it naming the protected set is denied as a possible
    write), and a file it writes is decided as each reading of the word names it: no weaker
    than the name it matches."""
    found, policy = shared
    position = data.draw(st.sampled_from([i for i, c in enumerate(name) if c not in "/."]))
    word = _hidden_class(name, position, hidden)
    assert found.bash(f"printf '%s\\n' {word}").stdout == f"{name}\n"  # bash reads the glob
    hidden_decision = policy.check("shell", {"command": spelling.format(word)})
    plain_decision = policy.check("shell", {"command": spelling.format(name)})
    assert hidden_decision.behavior is not Behavior.ALLOW
    assert hidden_decision.behavior >= min(plain_decision.behavior, Behavior.ASK)
    if ">" in spelling:  # its file is decided, as each reading of the word names it
        assert hidden_decision.behavior >= plain_decision.behavior
    else:  # a word of the line that names the protected set is decided as a write (red17)
        assert hidden_decision.reason in (
            "Shell execution requires approval",
            "Writing inside .git is forbidden",
            "Policy files in use cannot be written",
        )


def test_the_claude_code_hook_does_not_allow_a_write_into_git_by_a_hidden_glob(
    setup: Setup,
) -> None:
    assert setup.hook("Bash", {"command": "echo x > .git/config"})[0] == "deny"
    line = "echo '[core] fsmonitor = touch F' > .gi[t' ']/config"
    assert setup.hook("Bash", {"command": line})[0] != "allow"


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap not installed")
def test_toolpolicy_run_under_full_access_leaves_git_and_the_policy_alone(setup: Setup) -> None:
    """``toolpolicy run`` with real bash: with the literal names both writes are denied; with
    the hidden glob they ran (the sandbox is not there under ``danger-full-access``)."""
    lines = ["echo pwned >> .gi[t' ']/config", "echo 'rules: []' >> toolpolic[y' '].yaml"]
    before = setup.policy.read_text()
    done = setup.run_agent(lines, "danger-full-access")
    assert done.returncode == 0, done.stderr
    assert (setup.ws / ".git" / "config").read_text() == "[core]\n"
    assert setup.policy.read_text() == before
    assert "allow (everyday)" not in done.stderr
