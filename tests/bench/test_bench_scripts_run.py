"""Every stand-alone bench script still runs: a script nobody runs in CI rots unseen (the
audit bench called the JSON encoder by a method it had lost, and raised before timing
anything). Each is run as a process with its smallest settings; nothing here is timed.

A script may exit 1 when it measured a target as missed (it prints the verdict); it must
never end in a traceback or print nothing.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"

SCRIPTS = {
    "bench_audit.py": (["--rounds", "1", "--per-round", "10"], "| chained JSONL line"),
    "bench_diff.py": (["--rules", "10", "--runs", "1", "--no-process"], "rules"),
    "bench_language.py": (["--quick", "--rules", "10"], "load + compile P03"),
    "bench_lint.py": (["--files", "5", "--rules", "10", "--runs", "1"], "files"),
    "bench_shell.py": (["--rounds", "1", "--processes", "1"], "fresh line:"),
    "bench_hook.py": (["--runs", "1"], "python3 -c pass"),
}


def test_every_bench_script_is_covered() -> None:
    assert sorted(SCRIPTS) == sorted(p.name for p in BENCH.glob("bench_*.py"))


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_bench_script_runs_to_its_report(script: str, tmp_path: Path) -> None:
    arguments, printed = SCRIPTS[script]
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *arguments],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=240,
    )

    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert printed in done.stdout, done.stdout[-2000:]
