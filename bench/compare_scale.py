"""Scale: policies of 10 to 100,000 rules, for the peers' table and for every rule shape.

Two benches live here.

**The peers' scale policy** (``scale_rules``, ``write_policy``): N deny rules over 100 tool
names, each on its own literal directory. Rule ``i`` denies tool ``TOOLS[i % 100]`` under
``dir<i>/**``; ``read_file`` gets its share (N / 100) of the rules. ``compare.py`` times a read
no rule matches and the read of the *last* ``read_file`` rule in toolpolicy and in each peer
that can express path rules.

**Every rule shape** (``SHAPES``, ``measure_shapes``): for each shape toolpolicy indexes —
extension ``*.secretN``, basename ``secretN``, anchored prefix ``dirN/**``, segment
``**/privateN/**``, absolute ``//<root>/absN/**``, command prefixes sharing their first word
(``git subN``), tool-name wildcards (``mcp__sN__*``) — a policy of N deny rules of that shape
only, at 10 / 1,000 / 10,000 / 100,000 rules, through the public API
(``toolpolicy.load(...).check(tool, arguments)``):

- *fresh*: a path (command, tool name) no rule matches, new on every call, so no memo or
  cache can hide the rule lookup;
- *matched*: a new call on every call that only the **last** rule matches (deny);
- *repeated*: the same unmatched call again and again (what a cache gives);
- *load + compile*: ``toolpolicy.load`` of the policy files, wall clock, GC enabled;
- *bytes per rule*: ``tracemalloc`` growth of that load over loading P03 alone, divided by N.

Run ``python bench/compare_scale.py [--max-rules N] [--shapes a,b] [--quick] [--json FILE]``.
"""

from __future__ import annotations

import argparse
import functools
import gc
import itertools
import json
import os
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from compare_cases import Workspace, workspace
from compare_peers import ScaleRule
from compare_timing import Settings, Timing, measure_all

import toolpolicy
from toolpolicy.core import Effect
from toolpolicy.tools.arguments import ArgumentSpec
from toolpolicy.tools.registry import ToolSnapshot

__all__ = [
    "RULES_PER_FILE",
    "SCALE_SIZES",
    "SHAPES",
    "SHAPE_SIZES",
    "TOOLS",
    "UNMATCHED_PATH",
    "Shape",
    "ShapeRow",
    "format_shapes",
    "main",
    "matched_path",
    "measure_shapes",
    "scale_rules",
    "shape_policy",
    "write_policy",
]

SCALE_SIZES = (10, 1_000, 10_000)
SHAPE_SIZES = (10, 1_000, 10_000, 100_000)
TOOLS: tuple[str, ...] = ("read_file", *(f"tool{index:02d}" for index in range(1, 100)))
UNMATCHED_PATH = "src/a.py"
RULES_PER_FILE = 2_000
SHAPE_RULES_PER_FILE = 5_000
"""A policy file is capped at 1 MiB: one rule per line, 5,000 rules stay well under it."""
FRESH_TOOLS = 8_192
"""MCP tool names registered for the tool-wildcard shape's fresh calls (a tool must be
registered to be checked); more than any row makes calls, so none repeats within a row."""
Call = Callable[[], object]
Request = tuple[str, dict[str, object]]


def scale_rules(count: int) -> list[ScaleRule]:
    """The (tool, directory) pairs of the peers' N-rule policy."""
    return [(TOOLS[index % len(TOOLS)], f"dir{index}") for index in range(count)]


def matched_path(count: int) -> str:
    """A read path that only the last ``read_file`` rule of an N-rule policy matches."""
    last = max(index for index in range(count) if index % len(TOOLS) == 0)
    return f"dir{last}/x.py"


def write_policy(folder: str, count: int) -> list[str]:
    """Write the peers' N-rule policy (``Policy`` files extending P03) into ``folder``;
    returns their paths, layered in order."""
    rules = scale_rules(count)
    paths: list[str] = []
    for start in range(0, count, RULES_PER_FILE):
        part = start // RULES_PER_FILE
        lines = [
            "apiVersion: toolpolicy/v1",
            "kind: Policy",
            f"name: scale-{count}-{part}",
            "extends: P03",
            "rules:",
        ]
        for index in range(start, min(count, start + RULES_PER_FILE)):
            tool, top = rules[index]
            lines.extend(
                (
                    f"  - name: rule-{index}",
                    "    behavior: deny",
                    f"    reason: Scale rule {index}",
                    f'    match: {{tools: [{tool}], paths: ["{top}/**"]}}',
                )
            )
        path = os.path.join(folder, f"scale-{count}-{part}.yaml")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        paths.append(path)
    return paths


@dataclass(frozen=True, slots=True)
class Shape:
    """One rule shape: rule ``i``'s ``match``, and the fresh unmatched and matched calls.

    ``unmatched(k)`` and ``matched(k, last)`` build the k-th call; ``matched`` hits only
    rule ``last``. ``root`` is the workspace (for the absolute shape).
    """

    key: str
    pattern: str
    match: Callable[[int, str], str]
    unmatched: Callable[[int], Request]
    matched: Callable[[int, int], Request]


def _read(path: str) -> Request:
    return "read_file", {"path": path}


SHAPES: tuple[Shape, ...] = (
    Shape(
        "extension",
        "*.secretN",
        lambda i, root: f'{{tools: [read_file], paths: ["*.secret{i}"]}}',
        lambda k: _read(f"src/f{k}.py"),
        lambda k, last: _read(f"src/f{k}.secret{last}"),
    ),
    Shape(
        "basename",
        "secretN",
        lambda i, root: f'{{tools: [read_file], paths: ["secret{i}"]}}',
        lambda k: _read(f"src/d{k}/a.py"),
        lambda k, last: _read(f"src/d{k}/secret{last}"),
    ),
    Shape(
        "prefix",
        "dirN/**",
        lambda i, root: f'{{tools: [read_file], paths: ["dir{i}/**"]}}',
        lambda k: _read(f"src/f{k}.py"),
        lambda k, last: _read(f"dir{last}/f{k}.py"),
    ),
    Shape(
        "segment",
        "**/privateN/**",
        lambda i, root: f'{{tools: [read_file], paths: ["**/private{i}/**"]}}',
        lambda k: _read(f"a/b{k}/c.py"),
        lambda k, last: _read(f"a/b{k}/private{last}/x.py"),
    ),
    Shape(
        "absolute",
        "//<workspace>/absN/**",
        lambda i, root: f'{{tools: [read_file], paths: ["/{root}/abs{i}/**"]}}',
        lambda k: _read(f"src/f{k}.py"),
        lambda k, last: _read(f"abs{last}/f{k}.py"),
    ),
    Shape(
        "command",
        "git subN",
        lambda i, root: f'{{tools: [shell], commands: ["git sub{i}"]}}',
        lambda k: ("shell", {"command": f"git status -n{k}"}),
        lambda k, last: ("shell", {"command": f"git sub{last} -n{k}"}),
    ),
    Shape(
        "tool",
        "mcp__sN__*",
        lambda i, root: f'{{tools: ["mcp__s{i}__*"]}}',
        lambda k: (f"mcp__q{k % FRESH_TOOLS}__run", {}),
        lambda k, last: (f"mcp__s{last}__t{k % FRESH_TOOLS}", {}),
    ),
)


def shape_policy(shape: Shape, count: int, folder: str, root: str) -> list[str]:
    """Write ``count`` deny rules of ``shape`` as Policy files extending P03; their paths."""
    paths: list[str] = []
    for start in range(0, count, SHAPE_RULES_PER_FILE):
        part = start // SHAPE_RULES_PER_FILE
        lines = [
            "apiVersion: toolpolicy/v1",
            "kind: Policy",
            f"name: {shape.key}-{count}-{part}",
            "extends: P03",
            "rules:",
        ]
        lines.extend(
            f"  - {{name: s-{i}, behavior: deny, reason: r, match: {shape.match(i, root)}}}"
            for i in range(start, min(count, start + SHAPE_RULES_PER_FILE))
        )
        path = os.path.join(folder, f"{shape.key}-{count}-{part}.yaml")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        paths.append(path)
    return paths


@dataclass(frozen=True, slots=True)
class ShapeRow:
    """One shape at one size: decision timings (seconds per call), load time, memory."""

    shape: str
    pattern: str
    rules: int
    fresh: Timing
    matched: Timing
    repeated: Timing
    load_seconds: float
    bytes_per_rule: float

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (timings as dicts of seconds)."""
        return asdict(self)

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> ShapeRow:
        """The inverse of :meth:`to_json`."""
        timings = {key: Timing(**value[key]) for key in ("fresh", "matched", "repeated")}
        return cls(**{**value, **timings})


def _with_mcp_tools(policy: toolpolicy.ToolPolicy, last: int) -> toolpolicy.ToolPolicy:
    """``policy`` with the fresh MCP tool names added to its tools: the same selection built
    again with a larger tool snapshot (``check`` decides registered tools only)."""
    none = ArgumentSpec(())
    added = [
        toolpolicy.ToolDefinition(name, "MCP", none, Effect.EXECUTE)
        for k in range(FRESH_TOOLS)
        for name in (f"mcp__q{k}__run", f"mcp__s{last}__t{k}")
    ]
    own = (policy.tools.get(name) for name in policy.tools.names)
    return toolpolicy.ToolPolicy(
        compiled=policy.compiled,
        presets=policy.presets,
        knob_events=policy.knob_events,
        knobs=policy.knobs,
        workspace=policy.workspace,
        engine=policy.engine,
        tools=ToolSnapshot([*(d for d in own if d is not None), *added]),
    )


def _load(shape: Shape, files: Sequence[str], root: str, last: int) -> toolpolicy.ToolPolicy:
    policy = toolpolicy.load("P03", policies=list(files), workspace=root)
    return _with_mcp_tools(policy, last) if shape.key == "tool" else policy


def _fresh(policy: toolpolicy.ToolPolicy, make: Callable[[int], Request]) -> Call:
    counter = itertools.count()
    check = policy.check

    def call() -> object:
        tool, arguments = make(next(counter))
        return check(tool, arguments)

    return call


def _swap(matched: Callable[[int, int], Request]) -> Callable[[int, int], Request]:
    """``matched`` taking ``last`` first, so that ``partial`` can fix it."""
    return lambda last, k: matched(k, last)


def _expectation(policy: toolpolicy.ToolPolicy, shape: Shape, last: int) -> list[str]:
    """Problems: the matched call must be denied by rule ``s-<last>``; the unmatched call
    must not be decided by any scale rule."""
    problems: list[str] = []
    hit = policy.check(*shape.matched(10**9, last))
    if hit.behavior.label != "deny" or hit.source != f"s-{last}":
        problems.append(f"{shape.key}: the matched call gave {hit!r}, not rule s-{last}")
    miss = policy.check(*shape.unmatched(10**9))
    if miss.source.startswith("s-"):
        problems.append(f"{shape.key}: the unmatched call was decided by {miss.source}")
    return problems


def _bytes_per_rule(files: Sequence[str], root: str, count: int) -> float:
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        baseline = toolpolicy.load("P03", workspace=root)
        base = tracemalloc.get_traced_memory()[0] - before
        del baseline
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        loaded = toolpolicy.load("P03", policies=list(files), workspace=root)
        grown = tracemalloc.get_traced_memory()[0] - before
        del loaded
    finally:
        tracemalloc.stop()
    return max(grown - base, 0) / count


def _load_seconds(files: Sequence[str], root: str, repeats: int) -> float:
    """The median time of ``toolpolicy.load``; the policy is freed after the clock stops
    (a caller keeps what it loads: freeing 100,000 rules is not part of loading them)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        policy = toolpolicy.load("P03", policies=list(files), workspace=root)
        times.append(time.perf_counter() - start)
        del policy
        gc.collect()
    return statistics.median(times)


def measure_shapes(
    ws: Workspace,
    sizes: Sequence[int] = SHAPE_SIZES,
    shapes: Sequence[Shape] = SHAPES,
    settings: Settings | None = None,
    progress: Callable[[str], None] | None = None,
) -> tuple[list[ShapeRow], list[str]]:
    """Every shape at every size: the rows, and the problems of the correctness pre-check
    (if any, nothing is timed and the rows are empty)."""
    settings = settings or Settings(runs=3, chunks=9)
    rows: list[ShapeRow] = []
    for count in sizes:
        loaded: list[tuple[Shape, toolpolicy.ToolPolicy, float, float]] = []
        for shape in shapes:
            if progress:
                progress(f"{shape.key} x {count:,}")
            folder = os.path.join(ws.scratch, f"{shape.key}-{count}")
            os.makedirs(folder, exist_ok=True)
            files = shape_policy(shape, count, folder, ws.root)
            seconds = _load_seconds(files, ws.root, 3)  # one load of 100,000 varied by 1 s
            memory = _bytes_per_rule(files, ws.root, count)
            policy = _load(shape, files, ws.root, count - 1)
            problems = _expectation(policy, shape, count - 1)
            if problems:
                return [], problems
            loaded.append((shape, policy, seconds, memory))
        subjects: list[list[Call]] = []
        for shape, policy, _, _ in loaded:
            last = count - 1
            repeated = shape.unmatched(-1)
            subjects += [
                [_fresh(policy, shape.unmatched)],
                [_fresh(policy, functools.partial(_swap(shape.matched), last))],
                [functools.partial(policy.check, *repeated)],
            ]
        timings = measure_all(subjects, settings)
        for index, (shape, _, seconds, memory) in enumerate(loaded):
            fresh, matched, repeated_timing = timings[3 * index : 3 * index + 3]
            rows.append(
                ShapeRow(
                    shape.key,
                    shape.pattern,
                    count,
                    fresh,
                    matched,
                    repeated_timing,
                    seconds,
                    memory,
                )
            )
        del loaded, subjects
        gc.collect()
    return rows, []


def _us(seconds: float) -> str:
    value = seconds * 1e6
    return f"{value:,.0f}" if value >= 1000 else f"{value:.1f}"


def format_shapes(rows: Sequence[ShapeRow]) -> list[str]:
    """The markdown table: one line per shape and size, growth against the smallest size."""
    smallest: dict[str, ShapeRow] = {}
    out = [
        "| shape | rules | fresh µs | matched µs | repeated µs | growth (fresh) "
        "| load + compile s | bytes/rule |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        first = smallest.setdefault(row.shape, row)
        growth = row.fresh.median / first.fresh.median
        out.append(
            f"| {row.shape} `{row.pattern}` | {row.rules:,} | {_us(row.fresh.median)} | "
            f"{_us(row.matched.median)} | {_us(row.repeated.median)} | {growth:.2f}x | "
            f"{row.load_seconds:.3f} | {row.bytes_per_rule:,.0f} |"
        )
    return out


def _sizes(max_rules: int) -> list[int]:
    sizes = [size for size in SHAPE_SIZES if size <= max_rules]
    if max_rules not in sizes and max_rules > 0:
        sizes.append(max_rules)
    return sorted(sizes)


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--max-rules",
        type=int,
        default=max(SHAPE_SIZES),
        help="largest policy size (sizes: 10, 1,000, 10,000, 100,000 up to it, and it)",
    )
    parser.add_argument("--shapes", default=",".join(s.key for s in SHAPES))
    parser.add_argument("--quick", action="store_true", help="short timing runs (smoke test)")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    return parser.parse_args(argv)


def _shapes(names: str) -> list[Shape]:
    wanted = names.split(",")
    unknown = sorted(set(wanted) - {shape.key for shape in SHAPES})
    if unknown:
        raise SystemExit(f"unknown shapes: {', '.join(unknown)}")
    return [shape for shape in SHAPES if shape.key in wanted]


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the table; 1 when a shape's pre-check failed."""
    args = _arguments(argv)
    settings = Settings(runs=1, chunks=3) if args.quick else Settings(runs=3, chunks=9)
    with workspace() as ws:
        rows, problems = measure_shapes(
            ws,
            _sizes(args.max_rules),
            _shapes(args.shapes),
            settings,
            progress=lambda text: print(text, file=sys.stderr, flush=True),
        )
    if problems:
        print("pre-check FAILED:\n" + "\n".join(f"  {p}" for p in problems), file=sys.stderr)
        return 1
    print("\n".join(format_shapes(rows)))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump([row.to_json() for row in rows], handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
