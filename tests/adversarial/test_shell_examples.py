"""Issue 16's examples, verbatim, through every door: ``toolpolicy check``, ``toolpolicy run``
(real bash in the real sandbox) and ``toolpolicy hook claude-code``.

The team policy allows ``echo``, ``git status`` and ``pytest`` and denies ``git push`` and
``rm -rf``; it lives in the workspace as ``toolpolicy.yaml`` (a policy file in use).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import toolpolicy
from toolpolicy import Behavior

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
    match: {commands: [echo, git status, pytest]}
  - name: no-push
    behavior: deny
    reason: Never push from an agent
    match: {commands: [git push]}
  - name: no-rm-rf
    behavior: deny
    reason: Never delete trees
    match: {commands: [rm -rf]}
"""

ASK = ("ask", "shell-default", "Shell execution requires approval")
PUSH = ("deny", "no-push", "Never push from an agent")
OUTSIDE = ("deny", "workspace-boundary", "Writing outside the workspace is forbidden")
POLICY_FILE = ("deny", "workspace-boundary", "Policy files in use cannot be written")

EXAMPLES: list[tuple[str, tuple[str, str, str]]] = [
    ("x='$(touch F)'; echo \"${x@P}\"", ASK),
    ("x='a[$(touch F)]'; echo $((x))", ASK),
    ("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch F;false' "
     "git status", ASK),
    ("LD_PRELOAD=./x.so git status", ASK),
    ("BASH_ENV=./x.sh git status", ASK),
    ("pytest > toolpolicy.yaml", POLICY_FILE),
    ("pytest 2>> ~/.bashrc", OUTSIDE),
    ("PATH=/tmp/evil:$PATH pytest", ASK),
    ("ionice git push", PUSH),
    ("taskset 1 git push", PUSH),
    ("flock /tmp/l git push", PUSH),
    ("strace -f -o /dev/null git push", PUSH),
    ("script -qc 'git push' /dev/null", PUSH),
    ("../../../usr/bin/git push", PUSH),
    ("mapfile -C 'git push #' -c 1 a <<< z", PUSH),
    ("rm -r -f x", ("deny", "no-rm-rf", "Never delete trees")),
    ("rm -fr x", ("deny", "no-rm-rf", "Never delete trees")),
    ("rm -f -r x", ("deny", "no-rm-rf", "Never delete trees")),
    ("rm -R -f x", ASK),
    ("echo ok > out.txt 2>&1", ("allow", "everyday", "Everyday commands")),
    ("git status > /dev/null", ("allow", "everyday", "Everyday commands")),
]  # fmt: skip


@pytest.fixture
def setup(tmp_path: Path) -> Project:
    return Project(tmp_path, POLICY)


def test_toolpolicy_check_gives_each_example_its_answer(setup: Project) -> None:
    for line, (behavior, source, reason) in EXAMPLES:
        done = setup.cli(
            "check", "shell", json.dumps({"command": line}), "--policy", str(setup.policy),
            "--workspace", str(setup.ws), "--format", "json",
        )  # fmt: skip
        out = json.loads(done.stdout)
        assert (out["behavior"], out["source"], out["reason"]) == (behavior, source, reason), line


def test_the_claude_code_hook_gives_each_example_its_answer(setup: Project) -> None:
    for line, (behavior, _, reason) in EXAMPLES:
        event = {
            "session_id": "s", "transcript_path": str(setup.ws / "t.jsonl"),
            "cwd": str(setup.ws), "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": line}, "tool_use_id": "toolu_1",
        }  # fmt: skip
        done = setup.cli(
            "hook", "claude-code", "--policy", str(setup.policy), stdin=json.dumps(event)
        )
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout)["hookSpecificOutput"]
        assert (out["permissionDecision"], out["permissionDecisionReason"]) == (
            behavior,
            reason,
        ), line


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap not installed")
@pytest.mark.parametrize("sandbox", ["workspace-write", "danger-full-access"])
def test_toolpolicy_run_runs_only_what_is_allowed_even_with_full_access(
    setup: Project, sandbox: str
) -> None:
    before = setup.policy.read_text()
    done = setup.run_agent([line for line, _ in EXAMPLES], sandbox)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    for (line, (behavior, source, reason)), printed in zip(EXAMPLES, lines, strict=True):
        if behavior == "ask":  # no terminal: the ask is put to no one and denied
            expected = (
                "[Permission] shell: deny (terminal-approval) - "
                "No approver was available to allow this tool call"
            )
        else:
            expected = f"[Permission] shell: {behavior} ({source}) - {reason}"
        assert printed == expected, line
    # What must not have happened: no hidden command ran, nothing was written where the
    # policy does not let a write go.
    for found in (setup.ws / "F", setup.home / "F", setup.outside / "F", Path("F")):
        assert not found.exists()
    assert not (setup.home / ".bashrc").exists()
    assert setup.policy.read_text() == before
    assert (setup.ws / "out.txt").read_text() == "ok\n"


def test_a_comment_never_hides_the_next_line_from_an_allow(tmp_path: Path) -> None:
    """Found by the bash property: the reader stopped at the end of a comment's line."""
    policy = tmp_path / "p.yaml"
    policy.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: t\nextends: P03\nrules:\n"
        "  - {name: echo, behavior: allow, reason: ok, match: {commands: [echo]}}\n"
    )
    loaded = toolpolicy.load(workspace=tmp_path, policies=[policy])
    assert loaded.check("shell", {"command": "echo hi #c"}).behavior is Behavior.ALLOW
    hidden = loaded.check("shell", {"command": "echo hi #c\ntouch F"})
    assert (hidden.behavior, hidden.reason) == (Behavior.ASK, "Shell execution requires approval")
