"""Benchmark ``toolpolicy lint``: 1,000 generated policy files, one 10,000-rule file, and the
four hostile inputs (alias bomb, 20,000-deep nesting, binary, tab indentation).

Run: ``python bench/bench_lint.py`` (``--files N``, ``--rules N``, ``--runs N``).
Prints one line per measurement. The target (issue 14) is ``toolpolicy lint`` of 1,000
files in at most 1.5 s **as a process** (start-up, imports and the forked workers included;
the median of ``--runs``, with the CPU seconds of the process and its workers beside it, so
a busy machine shows as wall time well above CPU time / cores). The in-process line is the
same lint without the interpreter's start-up.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from toolpolicy.lint import lint_paths

TARGET_SECONDS = 1.5

_POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team-{n}
extends: P03
description: Generated policy number {n}
rules:
  - name: no-env-{n}
    behavior: deny
    reason: Secrets stay private
    match: {{tools: [read_file, write_file, edit_file], paths: [".env", "secrets-{n}/**"]}}
  - name: push-asks-{n}
    behavior: ask
    reason: Pushing needs a human
    match: {{commands: ["git push", "npm publish"]}}
  - name: tests-{n}
    behavior: allow
    reason: Tests are safe
    match: {{commands: ["pytest", "git status"]}}
examples:
  - call: {{tool: read_file, arguments: {{path: .env}}}}
    expect: {{behavior: deny, source: no-env-{n}}}
  - call: {{tool: shell, arguments: {{command: git push origin main}}}}
    expect: {{behavior: ask, source: push-asks-{n}}}
  - call: {{tool: shell, arguments: {{command: pytest -q}}}}
    expect: {{behavior: allow, source: tests-{n}}}
"""


def many_files(folder: str | Path, count: int) -> None:
    """Write ``count`` policy files (three rules and three examples each) under ``folder``,
    in ten sub-folders."""
    for n in range(count):
        sub = Path(folder) / f"team{n % 10}"
        sub.mkdir(exist_ok=True)
        (sub / f"policy-{n}.yaml").write_text(_POLICY.format(n=n), encoding="utf-8")


def _big_rule(n: int) -> str:
    kind = n % 4
    if kind == 1:
        return f"{{name: a{n}, behavior: ask, reason: r, match: {{commands: [tool{n} run]}}}}"
    behavior, tool, path = (
        ("deny", "read_file", f"s{n}/*"),
        ("", "", ""),
        ("allow", "read_file", f"p{n}"),
        ("deny", "write_file", f"w{n}"),
    )[kind]
    match = f"{{tools: [{tool}], paths: [{path}]}}"
    return f"{{name: r{n}, behavior: {behavior}, reason: r, match: {match}}}"


def _big_file(path: Path, rules: int) -> None:
    """A realistic large file: denies, asks and allows over several tools and folders, one
    rule per line so 10,000 rules stay under the loader's 1 MiB limit."""
    lines = ["apiVersion: toolpolicy/v1", "kind: Policy", "name: big", "extends: P02", "rules:"]
    lines += [f"  - {_big_rule(n)}" for n in range(rules)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _hostile(folder: Path) -> dict[str, Path]:
    bomb = "apiVersion: toolpolicy/v1\nkind: Policy\nname: x\na0: &a0 [x, x, x, x, x, x, x, x, x]\n"
    for i in range(1, 10):
        bomb += f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]\n"
    depth = 20_000
    files = {
        "alias bomb": bomb.encode(),
        "20,000-deep nesting": (
            "apiVersion: toolpolicy/v1\nkind: Policy\nname: x\nrules: "
            + "[" * depth
            + "]" * depth
            + "\n"
        ).encode(),
        "binary file": b"apiVersion: toolpolicy/v1\n\x00\x01\x02\xff\xfe",
        "tab-indented file": b"apiVersion: toolpolicy/v1\nkind: Policy\nname: x\nrules:\n\t- a\n",
    }
    paths = {}
    for n, (label, data) in enumerate(files.items()):
        path = folder / f"hostile-{n}.yaml"
        path.write_bytes(data)
        paths[label] = path
    return paths


def _timed(paths: list[str]) -> tuple[float, int, int]:
    start = time.perf_counter()
    result = lint_paths(paths)
    elapsed = time.perf_counter() - start
    return elapsed, len(result.files), len(result.findings)


def _process(paths: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (the process and its workers) of ``toolpolicy lint paths``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "toolpolicy", "lint", *paths],
        check=False,
        stdout=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu


def main() -> int:
    """Run every measurement and print the numbers; exit 1 if the file target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--rules", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        many = root / "many"
        many.mkdir()
        many_files(many, options.files)
        big = root / "big.yaml"
        _big_file(big, options.rules)
        hostile = _hostile(root)

        lint_paths([str(next(many.rglob("*.yaml")))])  # warm the built-in profile caches
        elapsed, files, findings = _timed([str(many)])
        print(
            f"{files} files: {elapsed:.2f} s in-process ({elapsed / files * 1000:.2f} ms/file), "
            f"{findings} findings"
        )
        walls, cpus = zip(*(_process([str(many)]) for _ in range(options.runs)), strict=True)
        wall = statistics.median(walls)
        ok = wall <= TARGET_SECONDS
        print(
            f"{files} files: {wall:.2f} s as a process (median of {options.runs}; "
            f"{statistics.median(cpus):.2f} CPU s over {len(os.sched_getaffinity(0))} CPUs, "
            f"load average {os.getloadavg()[0]:.1f}); target <= {TARGET_SECONDS} s: "
            f"{'met' if ok else 'MISSED'}"
        )
        elapsed, _, findings = _timed([str(big)])
        print(f"one {options.rules}-rule file: {elapsed:.2f} s in-process, {findings} findings")
        for label, path in hostile.items():
            elapsed, _, findings = _timed([str(path)])
            print(f"{label}: {elapsed * 1000:.0f} ms, {findings} findings")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
