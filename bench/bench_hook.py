"""Start-up cost of the Claude Code hook, side by side with a bare Python start.

Runs, 20 times each and interleaved, in one script on one machine:
  python3 -c pass
  toolpolicy hook claude-code --policy team.yaml   (one PreToolUse event on stdin, warm cache)
  the same hook under a 1,000-rule policy           (indexed shapes: path folders, commands,
                                                     tool names; warm cache)
  toolpolicy check read_file '{"path": "a"}'        (the click CLI)
and prints medians and the ratio to bare Python. Targets: the hook <= 2x bare Python, the
1,000-rule hook <= 1.3x the P03 hook, check <= 2.5x bare Python.

    python bench/bench_hook.py [--runs 20]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
rules:
  - name: secrets-stay-closed
    behavior: deny
    reason: Secrets are off limits
    match: {tools: [read_file, write_file, edit_file], paths: [".env", "secrets/**"]}
  - name: no-pushes
    behavior: deny
    reason: Never push from an agent
    match: {commands: [git push]}
"""


def _large_policy(rules: int) -> str:
    """``rules`` deny rules, a quarter of each shape the rule index keys on."""
    lines = ["apiVersion: toolpolicy/v1", "kind: Policy", "name: large", "extends: P03", "rules:"]
    for i in range(rules):
        match = (
            f'{{tools: [read_file], paths: ["secret{i}/**"]}}',
            f'{{paths: ["src/private{i}/*.key"]}}',
            f'{{commands: ["tool{i} run"]}}',
            f'{{tools: ["mcp__server{i}__delete"]}}',
        )[i % 4]
        lines += [f"  - name: rule-{i}", "    behavior: deny", f"    reason: rule {i}"]
        lines.append(f"    match: {match}")
    return "\n".join(lines) + "\n"


def _time(argv: list[str], stdin: bytes, env: dict[str, str], cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, env=env, cwd=cwd)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{argv[0]} failed ({done.returncode}): {done.stderr.decode()[:300]}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    executable = shutil.which("toolpolicy")
    if executable is None:
        raise SystemExit("toolpolicy is not on PATH: pip install . first")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ws = root / "project"
        ws.mkdir()
        policy = ws / "team.yaml"
        policy.write_text(POLICY)
        large = ws / "large.yaml"
        large.write_text(_large_policy(1000))
        # Measure what an installed toolpolicy does: pip writes bytecode at install time, so
        # compile it here too and let the interpreter read it.
        import toolpolicy

        package = os.path.dirname(toolpolicy.__file__)
        subprocess.run([sys.executable, "-m", "compileall", "-q", package], check=True)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["TOOLPOLICY_CACHE_DIR"] = str(root / "cache")
        env["TOOLPOLICY_AUDIT"] = str(root / "audit.jsonl")
        event = json.dumps(
            {
                "session_id": "bench",
                "cwd": str(ws),
                "hook_event_name": "PreToolUse",
                "tool_name": "Write",
                "tool_input": {"file_path": str(ws / "a.py"), "content": "x"},
                "tool_use_id": "toolu_bench",
            }
        ).encode()
        commands = {
            "python3 -c pass": ([sys.executable, "-c", "pass"], b""),
            "toolpolicy hook claude-code": (
                [executable, "hook", "claude-code", "--policy", str(policy)],
                event,
            ),
            "hook, 1,000 rules": (
                [executable, "hook", "claude-code", "--policy", str(large)],
                event,
            ),
            "toolpolicy check": (
                [executable, "check", "read_file", '{"path": "a"}', "--policy", str(policy)],
                b"",
            ),
        }
        for argv, stdin in commands.values():  # warm the page cache and the policy cache
            _time(argv, stdin, env, ws)
        samples: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, (argv, stdin) in commands.items():
                samples[name].append(_time(argv, stdin, env, ws))
    base = statistics.median(samples["python3 -c pass"])
    print(f"{'command':<30} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'x python':>9}")
    for name, values in samples.items():
        median = statistics.median(values)
        print(
            f"{name:<30} {median * 1e3:>10.1f} {min(values) * 1e3:>8.1f} "
            f"{max(values) * 1e3:>8.1f} {median / base:>9.2f}"
        )
    pairs = zip(samples["hook, 1,000 rules"], samples["toolpolicy hook claude-code"], strict=True)
    large_ratio = statistics.median(a / b for a, b in pairs)
    print(f"hook, 1,000 rules / hook, P03 (pairwise median): {large_ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
