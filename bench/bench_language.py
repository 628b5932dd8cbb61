"""Benchmark of the language layer: loading P03 and a generated 10,000-rule policy.

Run by hand (``python bench/bench_language.py``) or in CI with a small budget
(``--quick``). Prints in-process medians over many runs (``time.perf_counter``); the
targets are < 20 ms for P03 and < 2 s for the 10,000-rule policy, both for the load alone
(YAML, schema, semantic checks, models) and for load + compile (``toolpolicy.load``: the
immutable, indexed rule objects a decision uses). Exits 1 when a median misses its target.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from toolpolicy.compile.policy import compile_policy, compile_profile
from toolpolicy.engine.selection import load
from toolpolicy.engine.sources import to_source
from toolpolicy.language import builtin_profiles, check_bytes, load_document

__all__ = ["generated_policy", "main", "median_seconds"]


def generated_policy(rules: int) -> bytes:
    """A valid policy of ``rules`` rules using every match field, with a few examples."""
    lines = ["apiVersion: toolpolicy/v1", "kind: Policy", "name: generated", "extends: P03"]
    lines.append("rules:")
    behaviors = ("allow", "ask", "deny")
    # Flow style keeps 10,000 rules under the 1 MiB file limit.
    matches = (
        "tools: [t{i}, mcp__s{i}__*]",
        'paths: ["d{i}/**"]',
        'commands: ["c{i} *"]',
        'effects: [write], tools: [write_file], paths: ["w{i}/**"]',
    )
    for i in range(rules):
        match = matches[i % 4].format(i=i)
        lines.append(
            f"  - {{name: r-{i}, behavior: {behaviors[i % 3]}, reason: R{i}, match: {{{match}}}}}"
        )
    lines.append("examples:")
    for i in range(0, rules, max(1, rules // 10)):
        lines += [
            f"  - call: {{tool: tool_{i}, arguments: {{path: x{i}}}}}",
            f"    expect: {behaviors[i % 3]}",
        ]
    return ("\n".join(lines) + "\n").encode()


def median_seconds(run: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Median wall and CPU seconds of ``repeats`` calls of ``run`` (after one warm-up call).

    Wall time (``perf_counter``) is the number that counts; CPU time (``process_time``) is
    printed beside it because a busy machine inflates wall time but not CPU time.
    """
    run()
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def main(argv: list[str] | None = None) -> int:
    """Print the medians; 1 if a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (for CI)")
    parser.add_argument("--rules", type=int, default=10_000)
    args = parser.parse_args(argv)
    small, large = (50, 3) if args.quick else (300, 7)

    p03 = Path(builtin_profiles()["P03"].path)
    p03_median = median_seconds(lambda: load_document(p03), small)

    def load_and_compile_p03() -> object:
        source = to_source(load_document(p03))
        return compile_policy(compile_profile(source), [source])

    p03_compiled = median_seconds(load_and_compile_p03, small)

    data = generated_policy(args.rules)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "generated.yaml"
        path.write_bytes(data)
        document, problems = check_bytes(data, str(path))
        assert document is not None and not problems, problems[:3]
        large_median = median_seconds(lambda: load_document(path), large)
        large_compiled = median_seconds(lambda: load(profile=str(path), workspace=folder), large)

    results = [
        ("load P03", p03_median, 0.020),
        ("load + compile P03", p03_compiled, 0.020),
        (f"load {args.rules}-rule policy ({len(data) // 1024} KiB)", large_median, 2.0),
        (f"load + compile {args.rules}-rule policy", large_compiled, 2.0),
    ]
    missed = False
    for label, (wall, cpu), target in results:
        verdict = "ok" if wall < target else "MISSED"
        missed |= wall >= target
        timing = f"median {wall * 1000:9.2f} ms (cpu {cpu * 1000:8.2f} ms)"
        print(f"{label:<40} {timing}  target < {target * 1000:.0f} ms  {verdict}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
