"""Shared parts for interop tests: a team policy on disk, loaded selections, the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import toolpolicy
from toolpolicy.engine.selection import ToolPolicy

TEAM_POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
rules:
  - name: no-secrets
    behavior: deny
    reason: Secrets stay private
    match: {tools: [read_file, write_file, edit_file], paths: [".env", "secrets/**", "build/"]}
  - name: push-asks
    behavior: ask
    reason: Pushing needs a human
    match: {commands: ["git push", "npm publish", "git * main"]}
  - name: tests-run
    behavior: allow
    reason: Tests are safe to run
    match: {commands: ["pytest", "git status", "npm run *"]}
  - name: mcp-search
    behavior: allow
    reason: The search server only reads
    match: {tools: ["mcp__search__*", "mcp__github__get_issue", "WebFetch"]}
examples:
  - call: {tool: shell, arguments: {command: git push origin main}}
    expect: ask
  - call: {tool: shell, arguments: {command: git status}}
    expect: allow
  - call: {tool: shell, arguments: {command: pytest -q tests}}
    expect: allow
  - call: {tool: shell, arguments: {command: "git status && rm -rf build"}}
    expect: ask
"""


def write_policy(folder: Path, text: str, name: str = "team.yaml") -> Path:
    """``text`` saved as ``folder/name``."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def policy_with_rules(rules: str) -> str:
    """A Policy on P03 with ``rules`` (YAML list items, indented by two spaces)."""
    return f"apiVersion: toolpolicy/v1\nkind: Policy\nname: p\nextends: P03\nrules:\n{rules}"


@pytest.fixture
def team(tmp_path: Path) -> Path:
    return write_policy(tmp_path, TEAM_POLICY)


def load(path: Path, **knobs: str) -> ToolPolicy:
    """The selection P03 + ``path`` with the workspace in ``path``'s folder."""
    return toolpolicy.load(policies=[path], workspace=path.parent, **knobs)


def run_cli(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m toolpolicy ARGS`` in ``cwd`` without any TOOLPOLICY_ variable."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLPOLICY_")}
    return subprocess.run(
        [sys.executable, "-m", "toolpolicy", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
