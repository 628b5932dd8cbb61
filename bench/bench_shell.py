"""Benchmark a shell decision through the public API: ``policy.check("shell", ...)``.

Run: ``python bench/bench_shell.py`` (``--rounds N``). The policy is P03 plus a team layer
with allow, ask and deny command rules and a path rule; the line is 60 characters. Prints
the median µs per decision for the same line again (its reading is cached) and for a fresh
line each time (read from scratch: plain-subset recogniser, conservative scan, rule index,
file accesses), and the wall time of a Bash event through ``toolpolicy hook claude-code``
next to ``python3 -c pass``. Target: 30 µs per decision after warm-up (the same line
again); the fresh line and the hook are printed for comparison (the hook's start-up budget,
2x ``python3 -c pass``, is the hook's own benchmark's: ``bench/bench_hook.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import toolpolicy

TARGET_MICROSECONDS = 30.0
LINE = "git status --short && pytest -q tests/units > /dev/null 2>&1"
POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
rules:
  - name: everyday
    behavior: allow
    reason: Everyday commands
    match: {commands: [git status, git diff, pytest, ls, cat]}
  - name: no-push
    behavior: deny
    reason: Never push
    match: {commands: [git push, rm -rf, curl]}
  - name: publish-asks
    behavior: ask
    reason: Publishing needs a human
    match: {commands: [npm publish]}
  - name: no-env
    behavior: deny
    reason: Secrets
    match: {tools: [write_file, edit_file], paths: [.env]}
"""


def _median_us(check: object, lines: list[str], rounds: int) -> float:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        for line in lines:
            check("shell", {"command": line})  # type: ignore[operator]
        samples.append((time.perf_counter_ns() - start) / len(lines) / 1000)
    return statistics.median(samples)


def _process_ms(argv: list[str], stdin: str, env: dict[str, str], cwd: str, runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env, cwd=cwd)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--processes", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        (workspace / "team.yaml").write_text(POLICY)
        policy = toolpolicy.load(workspace=workspace, policies=[workspace / "team.yaml"])
        assert len(LINE) == 60, len(LINE)
        decision = policy.check("shell", {"command": LINE})
        print(f"line: {LINE!r} -> {decision.behavior.label} ({decision.source})")
        _median_us(policy.check, [LINE] * 100, 20)  # warm-up
        same = _median_us(policy.check, [LINE] * 100, args.rounds)
        fresh_lines = [LINE.replace("units", f"u{i:04d}") for i in range(2000)]
        fresh = _median_us(policy.check, fresh_lines, max(1, args.rounds // 40))
        print(f"same line:  {same:7.2f} µs/decision (median of {args.rounds} rounds of 100)")
        print(f"fresh line: {fresh:7.2f} µs/decision (2,000 distinct 60-character lines)")
        env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLPOLICY_")}
        env["TOOLPOLICY_CACHE_DIR"] = str(workspace / "cache")
        event = json.dumps(
            {"session_id": "s", "transcript_path": str(workspace / "t.jsonl"),
             "cwd": str(workspace), "permission_mode": "default",
             "hook_event_name": "PreToolUse", "tool_name": "Bash",
             "tool_input": {"command": LINE}, "tool_use_id": "toolu_1"}
        )  # fmt: skip
        hook = [sys.executable, "-m", "toolpolicy", "hook", "claude-code", "--policy",
                str(workspace / "team.yaml")]  # fmt: skip
        _process_ms(hook, event, env, folder, 2)  # fill the cache
        hook_ms = _process_ms(hook, event, env, folder, args.processes)
        bare_ms = _process_ms([sys.executable, "-c", "pass"], "", env, folder, args.processes)
        print(f"hook Bash event: {hook_ms:6.1f} ms; python3 -c pass: {bare_ms:6.1f} ms "
              f"({hook_ms / bare_ms:.2f}x)")  # fmt: skip
    ok = same <= TARGET_MICROSECONDS
    print(f"target {TARGET_MICROSECONDS:.0f} µs after warm-up: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
