"""A pattern that does not compile is reported at its own line and column, by ``load`` and
by every command that loads a policy (it was reported at its rule's first line: compiled
sources keep the lines of rules only)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from toolpolicy import PolicyLoadError, load

POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: bad
extends: P03
rules:
  - name: fine
    behavior: deny
    reason: fine
    match:
      tools: [shell]
      commands: ["git push"]
  - name: broken
    behavior: deny
    reason: broken
    match:
      paths: ["ok/**", "a[b"]
      commands:
        - "git status"
        - "cat $HOME/x|~/x"
"""
GLOB_AT = (16, 24)
COMMAND_AT = (19, 11)


def test_load_places_each_bad_pattern_at_its_node(tmp_path: Path) -> None:
    policy = tmp_path / "bad.yaml"
    policy.write_text(POLICY, encoding="utf-8")
    with pytest.raises(PolicyLoadError) as raised:
        load(str(policy), workspace=tmp_path)
    found = [(p.line, p.column, p.code, p.pointer) for p in raised.value.problems]
    assert found == [
        (*GLOB_AT, "invalid-pattern", "/rules/1/match/paths/1"),
        (*COMMAND_AT, "invalid-pattern", "/rules/1/match/commands/1"),
    ]
    assert raised.value.problems[1].message == (
        "invalid deny or ask pattern 'cat $HOME/x|~/x': the alternatives of '$HOME/x|~/x' "
        "break into other words where a line's words break ($ { } = , : and after a "
        "variable's name); write one pattern each"
    )


def test_the_cli_names_the_pattern_line_and_column(tmp_path: Path) -> None:
    policy = tmp_path / "bad.yaml"
    policy.write_text(POLICY, encoding="utf-8")
    command = [sys.executable, "-m", "toolpolicy", "check", "--policy", str(policy)]
    command += ["--workspace", str(tmp_path), "shell", '{"command": "ls"}']
    for _ in range(2):  # the second run meets whatever the first one cached
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        assert done.returncode == 2
        assert "Traceback" not in done.stderr
        assert f"{policy}:{COMMAND_AT[0]}:{COMMAND_AT[1]}: invalid deny or ask pattern" in (
            done.stderr
        )
        assert f"{policy}:{GLOB_AT[0]}:{GLOB_AT[1]}: " in done.stderr
        assert done.stdout == ""
