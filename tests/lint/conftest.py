"""Shared parts of the lint tests: the corpora, the expectations they state, and a real
subprocess run of ``python -m toolpolicy lint``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
VALID = HERE / "valid"
INVALID = HERE / "invalid"

_EXPECT = re.compile(r"^# expect: (?P<code>[a-z-]+) (?P<line>\d+)$", re.MULTILINE)


def expected_findings(path: Path) -> list[tuple[str, int]]:
    """The ``# expect: CODE LINE`` comments of an invalid policy file, sorted."""
    text = path.read_text(encoding="utf-8")
    return sorted((m["code"], int(m["line"])) for m in _EXPECT.finditer(text))


@dataclass(frozen=True)
class Run:
    """What a subprocess run of the CLI left behind."""

    code: int
    stdout: str
    stderr: str


def run_lint(*args: str, cwd: Path | None = None, env: Mapping[str, str] | None = None) -> Run:
    """``python -m toolpolicy lint ARGS`` in a real subprocess (GITHUB_ACTIONS unset)."""
    return run_toolpolicy("lint", *args, cwd=cwd, env=env)


def run_toolpolicy(
    command: str, *args: str, cwd: Path | None = None, env: Mapping[str, str] | None = None
) -> Run:
    """``python -m toolpolicy COMMAND ARGS`` in a real subprocess (GITHUB_ACTIONS unset)."""
    environment = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    environment.update(env or {})
    done = subprocess.run(
        [sys.executable, "-m", "toolpolicy", command, *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr)


@pytest.fixture
def workspace(tmp_path: Path) -> str:
    """An empty folder to decide examples in."""
    folder = tmp_path / "workspace"
    folder.mkdir()
    return str(folder)
