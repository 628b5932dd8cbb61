"""Smoke test of the every-shape scale bench at 10 and 100 rules: it runs as a script, each
shape's calls decide what they claim (the last rule denies, nothing else does), and a shape
whose call misses its rule stops the bench before anything is timed."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from compare_cases import workspace  # noqa: E402
from compare_scale import SHAPES, measure_shapes  # noqa: E402


def test_every_shape_runs_at_10_and_100_rules_as_a_script(tmp_path: Path) -> None:
    out = tmp_path / "shapes.json"
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH / "compare_scale.py"),
            "--max-rules",
            "100",
            "--quick",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )

    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text())
    assert [(row["shape"], row["rules"]) for row in rows] == [
        (shape.key, rules) for rules in (10, 100) for shape in SHAPES
    ]
    assert {shape.key for shape in SHAPES} == {
        "extension",
        "basename",
        "prefix",
        "segment",
        "absolute",
        "command",
        "tool",
    }
    table = done.stdout.splitlines()
    assert len(table) == 2 + 2 * len(SHAPES)
    assert all(row["bytes_per_rule"] > 0 and row["load_seconds"] > 0 for row in rows)


def test_a_shape_whose_matched_call_misses_the_last_rule_is_refused() -> None:
    prefix = next(shape for shape in SHAPES if shape.key == "prefix")
    broken = dataclasses.replace(prefix, matched=lambda k, last: prefix.matched(k, last - 1))

    with workspace() as ws:
        rows, problems = measure_shapes(ws, [10], [broken])

    assert rows == []
    assert len(problems) == 1
    assert problems[0].startswith("prefix: the matched call gave Decision(deny, 'r', source='s-8')")
