"""Start-up wall times: bare Python, ``toolpolicy --version`` and one ``toolpolicy check``."""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

__all__ = ["StartupRow", "startup_commands", "time_startup"]


@dataclass(frozen=True, slots=True)
class StartupRow:
    """The median wall time of a command and its ratio to bare Python."""

    label: str
    median: float
    low: float
    high: float
    ratio: float


def startup_commands(workspace: str) -> list[tuple[str, list[str]]]:
    """The commands, labelled as the table shows them; bare Python first."""
    cli = shutil.which("toolpolicy")
    base = [cli] if cli else [sys.executable, "-m", "toolpolicy"]
    return [
        ("python3 -c pass", [sys.executable, "-c", "pass"]),
        ("toolpolicy --version", [*base, "--version"]),
        (
            'toolpolicy check read_file \'{"path": "a"}\'',
            [*base, "check", "read_file", '{"path": "a"}', "--workspace", workspace],
        ),
    ]


def _wall(argv: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, check=False, timeout=60)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{argv!r} exited {done.returncode}: {done.stderr.decode()[-500:]}")
    return elapsed


def time_startup(workspace: str, repeats: int = 20) -> list[StartupRow]:
    """Run each command once to warm the page cache, then ``repeats`` times."""
    rows: list[StartupRow] = []
    bare = 0.0
    for label, argv in startup_commands(workspace):
        _wall(argv)
        times = [_wall(argv) for _ in range(repeats)]
        median = statistics.median(times)
        if not rows:
            bare = median
        rows.append(StartupRow(label, median, min(times), max(times), median / bare))
    return rows
