"""``explain`` shows the split of a shell line: each command and the allow that covers it,
why an allow could not apply, which deny hit where, and the files the line touches."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolpolicy.engine.explain import Explanation, explain
from toolpolicy.engine.selection import ToolPolicy, load

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
"""


@pytest.fixture
def policy(tmp_path: Path) -> ToolPolicy:
    (tmp_path / "team.yaml").write_text(POLICY)
    return load(workspace=tmp_path, policies=[tmp_path / "team.yaml"])


def steps(policy: ToolPolicy, line: str) -> dict[str, str]:
    evaluation = policy.evaluate("shell", {"command": line})
    found: Explanation = explain("shell", evaluation, True, policy.compiled.rules)
    return {step.step: step.detail for step in found.steps}


def test_a_plain_line_shows_each_command_and_the_allow_that_covers_it(policy: ToolPolicy) -> None:
    shown = steps(policy, "git status && pytest -q > out.txt 2>&1; make")
    assert shown["shell line"] == "plain: 3 command(s)"
    assert shown["command 1"] == "git status - allowed by everyday ('git status')"
    assert shown["command 2"] == "pytest -q - allowed by everyday ('pytest')"
    assert shown["command 3"] == "make - no allow rule covers it"
    assert shown["file access"] == (
        "redirection '> out.txt' is a write, decided by the workspace boundary and the path rules"
    )


def test_a_line_outside_the_plain_subset_says_what_and_where(policy: ToolPolicy) -> None:
    shown = steps(policy, "echo ok; echo ${x@P}")
    assert shown["shell line"] == (
        "not plain: parameter expansion at column 15: allow rules cover only plain commands"
    )
    assert "command 1" not in shown


def test_a_deny_says_where_it_hit_and_that_a_mention_hits_too(policy: ToolPolicy) -> None:
    shown = steps(policy, 'echo "git push"')
    assert shown["deny hit"] == (
        "no-push: 'git push' occurs in the words 'echo git push' (a deny looks at every word "
        "of the line, quoted strings too, so a mere mention also hits)"
    )
    assert shown["audit"] == "[Permission] shell: deny (no-push) - Never push from an agent"


def test_the_cli_shows_the_split_in_text_and_json(tmp_path: Path) -> None:
    (tmp_path / "team.yaml").write_text(POLICY)
    base = [sys.executable, "-m", "toolpolicy", "explain", "shell",
            json.dumps({"command": "ionice git push"}), "--policy", str(tmp_path / "team.yaml"),
            "--workspace", str(tmp_path)]  # fmt: skip
    text = subprocess.run(base, capture_output=True, text=True, check=True).stdout
    assert "deny hit            no-push: 'git push' occurs in the words 'ionice git push'" in text
    out = json.loads(
        subprocess.run(
            [*base, "--format", "json"], capture_output=True, text=True, check=True
        ).stdout
    )
    assert {"step": "shell line", "detail": "plain: 1 command(s)"} in out["steps"]
    assert {"step": "command 1", "detail": "ionice git push - no allow rule covers it"} in (
        out["steps"]
    )
