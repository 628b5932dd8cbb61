"""Processes, timed from outside as an agent or a user starts them: the Claude Code hook
(P03 on a Read and on a Bash event, and a 1,000-rule policy), ``toolpolicy check``, ``lint``
of 1,000 files and ``diff`` of two 1,000-rule policies, next to ``python3 -c pass`` of the
same interpreter.

The short commands run interleaved (one of each per round, after one warm-up run that fills
the page cache and the hook's policy cache); the median wall time of the rounds is kept.
Every command must exit as expected, or the bench stops: a failing hook is not timed.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from bench_diff import write_policy as write_diff_policy
from bench_lint import many_files
from compare_cases import Workspace
from compare_scale import SHAPES

__all__ = ["Command", "ProcessRow", "commands", "hook_policy", "time_processes"]

HOOK_RULES = 1_000
BASH_LINE = "git status --short && pytest -q src > /dev/null 2>&1"
"""The Bash event's line (``bench_shell.py``'s, on a folder the workspace has): the hook reads
every line for the files it names, on disk."""
LINT_FILES = 1_000
DIFF_RULES = 1_000


@dataclass(frozen=True, slots=True)
class Command:
    """A command line, its stdin, the exit codes that mean it worked, and its key."""

    key: str
    label: str
    argv: list[str]
    stdin: bytes = b""
    codes: tuple[int, ...] = (0,)
    repeats: int | None = None
    """How many timed runs (None: the round count; the slow commands run fewer)."""


@dataclass(frozen=True, slots=True)
class ProcessRow:
    """Wall seconds of a command: median, min and max over its runs."""

    key: str
    label: str
    median: float
    low: float
    high: float
    runs: int

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)


def _executable() -> list[str]:
    beside = os.path.join(os.path.dirname(sys.executable), "toolpolicy")
    found = shutil.which("toolpolicy") if not os.path.exists(beside) else beside
    return [found] if found else [sys.executable, "-m", "toolpolicy"]


def hook_policy(folder: str, root: str, count: int = HOOK_RULES) -> str:
    """A Policy of ``count`` rules cycling through the path and command shapes."""
    shapes = [shape for shape in SHAPES if shape.key != "tool"]
    lines = ["apiVersion: toolpolicy/v1", "kind: Policy", f"name: hook-{count}", "extends: P03"]
    lines.append("rules:")
    lines.extend(
        f"  - {{name: h-{i}, behavior: deny, reason: r, "
        f"match: {shapes[i % len(shapes)].match(i, root)}}}"
        for i in range(count)
    )
    path = os.path.join(folder, f"hook-{count}.yaml")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    return path


_FLOOR = (
    "import json, os, sys\n"
    "event = json.load(sys.stdin)\n"
    "fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)\n"
    "os.write(fd, (json.dumps({'tool': event['tool_name']}) + '\\n').encode())\n"
    "os.fsync(fd)\n"
)
"""A stdlib-only stand-in for the least any hook process does, without deciding anything:
the yardstick for how much of the hook's start is toolpolicy's own."""


def commands(ws: Workspace, *, quick: bool = False) -> list[Command]:
    """Every command, bare Python first; writes the files they need into ``ws.scratch``."""
    cli = _executable()
    event = json.dumps(
        {
            "session_id": "bench",
            "cwd": ws.root,
            "hook_event_name": "PreToolUse",
            "tool_name": "Read",
            "tool_input": {"file_path": os.path.join(ws.root, "src", "a.py")},
            "tool_use_id": "toolu_bench",
        }
    ).encode()
    # A Read no answer lane answers (a dot folder is not plain text): the engine decides it.
    engine_event = event.replace(
        json.dumps(os.path.join(ws.root, "src", "a.py")).encode(),
        json.dumps(os.path.join(ws.root, ".github", "workflows", "ci.yml")).encode(),
    )
    bash_event = json.dumps(
        {
            "session_id": "bench",
            "cwd": ws.root,
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": BASH_LINE},
            "tool_use_id": "toolu_bench",
        }
    ).encode()
    big = hook_policy(ws.scratch, ws.root)
    lint_folder = os.path.join(ws.scratch, "lint")
    os.makedirs(lint_folder, exist_ok=True)
    files = 50 if quick else LINT_FILES
    many_files(lint_folder, files)
    left, right = (os.path.join(ws.scratch, f"diff-{side}.yaml") for side in ("l", "r"))
    rules = 50 if quick else DIFF_RULES
    write_diff_policy(left, rules, flip_every=None, scoped=False)
    write_diff_policy(right, rules, flip_every=100, scoped=False)
    slow = 1 if quick else 5
    hook = [*cli, "hook", "claude-code", "--workspace", ws.root]
    return [
        Command("python", "python3 -c pass", [sys.executable, "-c", "pass"]),
        Command(
            "floor",
            "python3: the least a hook does (json-parse the event with the json module, "
            "append and fsync one line)",
            [sys.executable, "-c", _FLOOR, os.path.join(ws.scratch, "floor.jsonl")],
            event,
        ),
        Command(
            "hook",
            "toolpolicy hook claude-code (P03, a Read event: after the first, its answer lane)",
            hook,
            event,
        ),
        Command(
            "hook-engine",
            "toolpolicy hook claude-code (P03, a Read no lane answers: .github/workflows/ci.yml)",
            hook,
            engine_event,
        ),
        Command(
            "hook-bash",
            f"toolpolicy hook claude-code (P03, a Bash event: {BASH_LINE})",
            hook,
            bash_event,
        ),
        Command(
            "hook-1000",
            f"toolpolicy hook claude-code --policy <{HOOK_RULES:,} rules> (a Read event)",
            [*hook, "--policy", big],
            event,
        ),
        Command(
            "check",
            'toolpolicy check read_file \'{"path": "src/a.py"}\'',
            [*cli, "check", "read_file", '{"path": "src/a.py"}', "--workspace", ws.root],
        ),
        Command(
            "lint",
            f"toolpolicy lint <{files:,} files>",
            [*cli, "lint", lint_folder],
            repeats=slow,
        ),
        Command(
            "diff",
            f"toolpolicy diff <{rules:,} rules> <{rules:,} rules> --format json",
            [*cli, "diff", left, right, "--format", "json"],
            codes=(0, 1),
            repeats=slow,
        ),
    ]


def _environment(ws: Workspace) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["TOOLPOLICY_CACHE_DIR"] = os.path.join(ws.scratch, "cache")
    env["TOOLPOLICY_AUDIT"] = os.path.join(ws.scratch, "hook-audit.jsonl")
    env["CLAUDE_PROJECT_DIR"] = ws.root
    return env


def _wall(command: Command, env: dict[str, str], cwd: str) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        command.argv, input=command.stdin, capture_output=True, env=env, cwd=cwd, timeout=300
    )
    elapsed = time.perf_counter() - start
    if done.returncode not in command.codes:
        raise RuntimeError(
            f"{command.label} exited {done.returncode}: {done.stderr.decode()[-500:]}"
        )
    return elapsed


def time_processes(ws: Workspace, rounds: int = 20, *, quick: bool = False) -> list[ProcessRow]:
    """Warm each command once, then time the short ones interleaved over ``rounds`` rounds
    and the slow ones (``repeats``) after them, interleaved among themselves."""
    import toolpolicy

    # Time what an installed toolpolicy runs: pip writes bytecode at install time.
    package = os.path.dirname(toolpolicy.__file__)
    subprocess.run([sys.executable, "-m", "compileall", "-q", package], check=True)
    env = _environment(ws)
    found = commands(ws, quick=quick)
    for command in found:
        _wall(command, env, ws.root)
    samples: dict[str, list[float]] = {command.key: [] for command in found}
    short = [command for command in found if command.repeats is None]
    for _ in range(rounds):
        for command in short:
            samples[command.key].append(_wall(command, env, ws.root))
    slow = [command for command in found if command.repeats is not None]
    for round_ in range(max((command.repeats or 0 for command in slow), default=0)):
        for command in slow:  # interleaved too: a quiet or busy spell meets each alike
            if round_ < (command.repeats or 0):
                samples[command.key].append(_wall(command, env, ws.root))
    return [_row(command, samples[command.key]) for command in found]


def _row(command: Command, values: Sequence[float]) -> ProcessRow:
    return ProcessRow(
        command.key,
        command.label,
        statistics.median(values),
        min(values),
        max(values),
        len(values),
    )
