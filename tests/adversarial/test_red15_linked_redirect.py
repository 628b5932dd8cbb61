"""red15: a shell write redirection through a symlink is decided on the link's name.

Last round closed the read side of this kind: every file a plain line *reads* is resolved
through its symlinks when the line is decided, because bash, not a file tool, opens it and no
check at the open follows. The write side was left on the text: a redirection target goes to
``boundary_candidate`` under the lexical boundary, which does not follow links. So with a
link planted in the workspace (a cloned repository can ship one), an allow for ``echo``
covers

* ``echo x > g/config`` with ``g -> .git`` (written out: "Writing inside .git is
  forbidden");
* ``echo x >> pol`` with ``pol -> toolpolicy.yaml`` ("Policy files in use cannot be written");
* ``echo x > cl/settings.json`` with ``cl -> .claude`` ("Agent settings that register
  toolpolicy cannot be written");
* ``echo x >> h/.bashrc`` with ``h -> $HOME`` ("Writing outside the workspace is forbidden").

Under ``workspace-write`` the sandbox's read-only binds still hold; under
``danger-full-access`` nothing else stands between the allow and the write, and bash writes
all four (``test_toolpolicy_run_under_full_access_writes_nothing_through_a_planted_link``).
DESIGN promise 8: "symlink escapes all count as outside" and no rule or preset relaxes the
boundary; "the workspace boundary of the write tools still holds" under danger-full-access.
The hook resolves physically and denies all four (a passing test here keeps it so).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy import load
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
    match: {commands: [echo]}
"""

_GIT = "Writing inside .git is forbidden"
_POLICY_FILE = "Policy files in use cannot be written"
_SETTINGS = "Agent settings that register toolpolicy cannot be written"
_OUTSIDE = "Writing outside the workspace is forbidden"


class Setup(Project):
    """A workspace with ``.git``, ``.claude``, its policy file, and a link to each of them
    and to the home folder outside it."""

    def __init__(self, base: Path) -> None:
        super().__init__(base, POLICY)
        for folder in (self.ws / ".git", self.ws / ".claude"):
            folder.mkdir()
        (self.ws / ".git" / "config").write_text("[core]\n")
        for name, target in (("g", ".git"), ("cl", ".claude"), ("pol", "toolpolicy.yaml")):
            (self.ws / name).symlink_to(target)
        (self.ws / "h").symlink_to(self.home, target_is_directory=True)


# (the target through a link, the same file written out, the reason the latter gets)
_TARGETS = [
    ("g/config", ".git/config", _GIT),
    ("g/hooks/pre-commit", ".git/hooks/pre-commit", _GIT),
    ("pol", "toolpolicy.yaml", _POLICY_FILE),
    ("cl/settings.json", ".claude/settings.json", _SETTINGS),
    ("h/.bashrc", "{home}/.bashrc", _OUTSIDE),
]


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    return Setup(tmp_path)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> tuple[Setup, ToolPolicy]:
    found = Setup(tmp_path_factory.mktemp("linked"))
    return found, load("P03", policies=[found.policy], workspace=found.ws)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    target=st.sampled_from(_TARGETS),
    operator=st.sampled_from([">", ">>", "2>", "&>", ">|", "1>>"]),
    sandbox=st.sampled_from(["workspace-write", "danger-full-access"]),
)
def test_a_redirection_through_a_link_is_decided_as_the_file_it_writes(
    shared: tuple[Setup, ToolPolicy],
    target: tuple[str, str, str],
    operator: str,
    sandbox: str,
) -> None:
    """The link's spelling gets exactly the decision of the file it writes, written out."""
    found, loaded = shared
    policy = loaded.with_knobs(sandbox=sandbox)
    linked, real, reason = target
    real = real.format(home=found.home)
    direct = policy.check("shell", {"command": f"echo x {operator} {real}"})
    assert (direct.behavior.label, direct.reason) == ("deny", reason)  # the premise
    through = policy.check("shell", {"command": f"echo x {operator} {linked}"})
    assert (through.behavior.label, through.source, through.reason) == (
        "deny",
        "workspace-boundary",
        reason,
    )


def test_toolpolicy_run_under_full_access_writes_nothing_through_a_planted_link(
    setup: Setup,
) -> None:
    lines = [
        "echo '[core] fsmonitor = touch F' >> g/config",
        "echo 'rules: []' >> pol",
        "echo '{}' > cl/settings.json",
        "echo 'touch F' >> h/.bashrc",
    ]
    before = setup.policy.read_text()
    done = setup.run_agent(lines, "danger-full-access")
    assert done.returncode == 0, done.stderr
    assert (setup.ws / ".git" / "config").read_text() == "[core]\n"
    assert setup.policy.read_text() == before
    assert not (setup.ws / ".claude" / "settings.json").exists()
    assert not (setup.home / ".bashrc").exists()


def test_the_hook_resolves_the_link_and_denies_each_write(setup: Setup) -> None:
    """The hook's physical boundary already gets this right: the in-process answer should
    match it."""
    for linked, _, reason in _TARGETS:
        event = {
            "session_id": "s", "transcript_path": str(setup.ws / "t.jsonl"),
            "cwd": str(setup.ws), "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": f"echo x >> {linked}"},
            "tool_use_id": "toolu_1",
        }  # fmt: skip
        policy = str(setup.policy)
        done = setup.cli("hook", "claude-code", "--policy", policy, stdin=json.dumps(event))
        answer = json.loads(done.stdout)["hookSpecificOutput"]
        assert (answer["permissionDecision"], answer["permissionDecisionReason"]) == (
            "deny",
            reason,
        ), linked
