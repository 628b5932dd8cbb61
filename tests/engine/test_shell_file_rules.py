"""Path rules decide the files a plain shell line names, whether or not a command rule exists.

Before: the engine read a line's path arguments and redirections only when some rule looked
at the shell's commands, so adding an unrelated command rule changed how ``cat secret`` was
decided. Now the read and write path rules decide them in both cases, alike.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolpolicy import load

_LINES = ("cat secret", "cat ./secret other", "wc -l < secret", "echo x > notes/out.txt")


def _policy(tmp_path: Path, name: str, *, command_rule: bool) -> str:
    rules: list[dict[str, object]] = [
        {
            "name": "no-secret",
            "behavior": "deny",
            "reason": "The secret stays secret",
            "match": {"tools": ["read_file"], "paths": ["secret"]},
        },
        {
            "name": "notes-ask",
            "behavior": "ask",
            "reason": "Notes are reviewed",
            "match": {"tools": ["write_file"], "paths": ["notes/**"]},
        },
    ]
    if command_rule:
        rules.append(
            {
                "name": "unrelated",
                "behavior": "deny",
                "reason": "Never zz",
                "match": {"tools": ["shell"], "commands": ["zz"]},
            }
        )
    document = {
        "apiVersion": "toolpolicy/v1",
        "kind": "Policy",
        "name": name,
        "extends": "P03",
        "rules": rules,
    }
    path = tmp_path / f"{name}.yaml"
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


def test_a_read_rule_denies_a_shell_argument_without_any_command_rule(
    tmp_path: Path, workspace: Path
) -> None:
    policy = load(_policy(tmp_path, "plain", command_rule=False), workspace=workspace)
    decided = policy.check("shell", {"command": "cat secret"})
    assert (decided.behavior.label, decided.source, decided.reason) == (
        "deny",
        "no-secret",
        "The secret stays secret",
    )
    other = policy.check("shell", {"command": "cat public"})
    assert (other.source, other.reason) == ("shell-default", "Shell execution requires approval")


def test_an_unrelated_command_rule_changes_no_decision_of_a_line_s_files(
    tmp_path: Path, workspace: Path
) -> None:
    without = load(_policy(tmp_path, "without", command_rule=False), workspace=workspace)
    with_rule = load(_policy(tmp_path, "with", command_rule=True), workspace=workspace)
    for line in _LINES:
        a = without.check("shell", {"command": line})
        b = with_rule.check("shell", {"command": line})
        assert (a.behavior, a.source, a.reason) == (b.behavior, b.source, b.reason), line
    assert without.check("shell", {"command": "echo x > notes/out.txt"}).source == "notes-ask"


def test_the_decision_of_one_line_is_not_reused_for_another(
    tmp_path: Path, workspace: Path
) -> None:
    """The engine keeps argument-independent decisions per tool; a shell line whose files
    the rules decide is never one of them (the second line is not answered from the first)."""
    policy = load(_policy(tmp_path, "cached", command_rule=False), workspace=workspace)
    assert policy.check("shell", {"command": "cat public"}).behavior.label == "ask"
    assert policy.check("shell", {"command": "cat secret"}).behavior.label == "deny"
    assert policy.check("shell", {"command": "cat public"}).behavior.label == "ask"


def test_without_path_rules_a_line_is_still_decided_by_the_default(workspace: Path) -> None:
    policy = load("P03", workspace=workspace)
    decided = policy.check("shell", {"command": "cat /etc/passwd"})
    assert (decided.source, decided.reason) == (
        "shell-default",
        "Shell execution requires approval",
    )
