"""Shared parts for diff tests: policy files written into tmp dirs, the CLI as a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TEAM_POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
rules:
  - name: no-vendored-c
    behavior: deny
    reason: Vendored C sources are read-only
    match:
      tools: [write_file, edit_file]
      paths: ["third_party/**/*.c"]
"""

GIT_STATUS_POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: git-status
extends: P03
rules:
  - name: git-status-ok
    behavior: allow
    reason: git status changes nothing
    match:
      commands: ["git status"]
"""


@pytest.fixture
def team(tmp_path: Path) -> Path:
    path = tmp_path / "team.yaml"
    path.write_text(TEAM_POLICY, encoding="utf-8")
    return path


@pytest.fixture
def git_status(tmp_path: Path) -> Path:
    path = tmp_path / "git-status.yaml"
    path.write_text(GIT_STATUS_POLICY, encoding="utf-8")
    return path


def run_cli(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m toolpolicy ARGS`` in ``cwd`` without any TOOLPOLICY_ variable."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLPOLICY_")}
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "toolpolicy", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env=full_env,
        check=False,
    )
