"""The report bench/compare.py prints is a pure function of its results: the targets of
issue 14 are judged on the public rows, internal rows stay in their labelled section, and
the README's marked section is replaced, nothing around it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from compare import BEGIN, END, render, replace_section, targets  # noqa: E402


def _timing(us: float) -> dict[str, float]:
    return {"median": us / 1e6, "low": us / 1e6, "high": 2 * us / 1e6, "calls": 1}


def _row(
    section: str, engine: str, key: str, us: float, baseline: str | None = None
) -> dict[str, Any]:
    return {
        "section": section,
        "engine": engine,
        "what": f"{key} call",
        "timing": _timing(us),
        "includes": "a | b",
        "key": key,
        "baseline": baseline,
        "whole_policy": True,
    }


def _process(key: str, ms: float) -> dict[str, Any]:
    seconds = ms / 1000
    return {"key": key, "label": key, "median": seconds, "low": seconds, "high": seconds, "runs": 3}


def _shape(shape: str, rules: int, us: float, load: float, memory: float) -> dict[str, Any]:
    return {
        "shape": shape,
        "pattern": "x",
        "rules": rules,
        "fresh": _timing(us),
        "matched": _timing(us),
        "repeated": _timing(us),
        "load_seconds": load,
        "bytes_per_rule": memory,
    }


def _results(*, read_us: float = 1.0, quick: bool = False) -> dict[str, Any]:
    return {
        "meta": {
            "command": "python bench/compare.py",
            "date": "2026-12-01 02:00 UTC",
            "cpu": "Some CPU",
            "cores": 2,
            "python": "CPython 3.11.7",
            "load": [1.0, 0.5, 0.25],
            "load_end": [1.5, 0.5, 0.25],
            "clock": "wall",
            "runs": 5,
            "chunks": 21,
            "engines": ["toolpolicy", "peer 1.0"],
            "quick": quick,
        },
        "rows": [
            _row("public", "toolpolicy", "read", read_us, "read"),
            _row("public", "toolpolicy", "read-same", 0.5),
            _row("public", "toolpolicy", "read-path-rules", 3.5),
            _row("public", "toolpolicy", "write", 7.0),
            _row("public", "toolpolicy", "mix", 4.0, "mix"),
            _row("public", "toolpolicy", "gate", 12.0),
            _row("public", "peer 1.0", "read", 2.0, "read"),
            _row("public", "peer 1.0", "mix", 8.0, "mix"),
            _row("internal", "toolpolicy", "read", 0.25),
        ],
        "processes": [
            _process("python", 10),
            _process("hook", 20),
            _process("hook-bash", 21),
            _process("hook-1000", 27),
            _process("check", 26),
            _process("lint", 1400),
            _process("diff", 1200),
        ],
        "scale": [],
        "shapes": [
            _shape("prefix", 10, 10.0, 0.001, 3000),
            _shape("prefix", 100_000, 19.0, 4.0, 1000),
            _shape("command", 10, 10.0, 0.001, 3000),
            _shape("command", 100_000, 25.0, 6.0, 1600),
        ],
    }


def test_every_target_of_issue_14_is_judged_on_the_public_rows() -> None:
    assert targets(_results()) == [
        "- read >= 2x faster than the fastest peer's public call: "
        "peer 1.0 2.00 µs / toolpolicy 1.00 µs = 2.00x (the same call again: 0.50 µs, 4.00x) "
        "— met",
        "- read under path rules <= 3x plain read: 3.50 µs = 3.50x — MISSED",
        "- write <= 8x plain read: 7.00 µs = 7.00x — met",
        "- gate + JSONL audit <= 12 µs: 12.0 µs — met",
        "- hook <= 2x python3 -c pass: 20.0 ms = 2.00x — met",
        "- Bash hook event <= 2x python3 -c pass (issue 16): 21.0 ms = 2.10x — MISSED",
        "- 1,000-rule hook <= 1.3x P03 hook: 27.0 ms = 1.35x — MISSED",
        "- `check` <= 2.5x python3 -c pass: 26.0 ms = 2.60x — MISSED",
        "- every shape at the largest size within 2x of its 10-rule decision: "
        "100,000 rules, worst command 2.50x — MISSED",
        "- load + compile 100,000 rules <= 5 s: worst command 6.00 s — MISSED",
        "- memory <= 1.5 KB per rule: 100,000 rules, worst command 1,600 bytes — MISSED",
        "- lint of 1,000 files <= 1.5 s (a process): 1.40 s — met",
        "- diff of two 1,000-rule policies <= 2 s (issue 13; a process): 1.20 s — met",
        "- diff of two 1,000-rule policies <= 1 s (issue 14; a process): 1.20 s — MISSED",
    ]


def test_the_internal_row_never_decides_a_target() -> None:
    results = _results(read_us=1.01)
    results["rows"][-1]["timing"] = _timing(0.01)

    assert targets(results)[0].endswith("= 1.98x (the same call again: 0.50 µs, 4.00x) — MISSED")


def test_what_was_not_measured_is_said_so_not_judged() -> None:
    results = _results(quick=True)
    results["rows"] = [r for r in results["rows"] if r["engine"] == "toolpolicy"]
    results["processes"] = results["processes"][-2:]
    results["processes"].insert(0, _process("python", 10))
    results["processes"][1:1] = [_process("hook", 20), _process("hook-1000", 20)]
    results["processes"].insert(3, _process("check", 20))
    results["shapes"] = [s for s in results["shapes"] if s["rules"] == 10]

    lines = targets(results)

    assert (
        lines[0]
        == "- read >= 2x faster than the fastest peer's public call: no peer — not measured"
    )
    assert "- load + compile 100,000 rules <= 5 s: largest run 10 rules — not measured" in lines
    assert lines[-3:] == [
        "- lint of 1,000 files <= 1.5 s (a process): --quick ran fewer — not measured",
        "- diff of two 1,000-rule policies <= 2 s (issue 13; a process): --quick ran fewer "
        "— not measured",
        "- diff of two 1,000-rule policies <= 1 s (issue 14; a process): --quick ran fewer "
        "— not measured",
    ]


def test_the_report_names_the_run_and_keeps_internal_rows_apart() -> None:
    text = render(_results())
    public, internal = text.split("**Internal calls**")

    assert text.startswith(
        "Measured 2026-12-01 02:00 UTC with `python bench/compare.py` on Some CPU (2 cores), "
        "CPython 3.11.7; load average 1.00 / 0.50 / 0.25 at the start, 1.50 at the end;"
    )
    assert "| toolpolicy | read call | 0.25 |" not in public
    assert "| toolpolicy | read call | 0.25 | 0.25-0.50 | a \\| b |" in internal
    rows = [
        line
        for line in public.splitlines()
        if line.startswith("| toolpolicy") or line.startswith("| peer")
    ]
    assert [row.split(" | ")[0:2] for row in rows[:3]] == [
        ["| toolpolicy", "read call"],
        ["| peer 1.0", "read call"],
        ["| toolpolicy", "read-same call"],
    ]
    assert "| peer 1.0 | read call | 2.00 | 2.00-4.00 | 2.0x | a \\| b |" in public


def test_the_readme_section_is_replaced_and_nothing_around_it() -> None:
    text = f"# Title\n\nbefore\n\n{BEGIN}\nold numbers\n{END}\n\nafter\n"

    replaced = replace_section(text, _results())

    assert replaced == f"# Title\n\nbefore\n\n{BEGIN}\n{render(_results())}{END}\n\nafter\n"
    assert replace_section(replaced, _results()) == replaced


def test_a_file_without_the_markers_is_refused() -> None:
    with pytest.raises(ValueError, match="has no <!-- bench:begin -->"):
        replace_section("# no markers\n", _results())


def test_without_processes_their_targets_are_not_measured() -> None:
    results = _results()
    results["processes"] = []

    lines = targets(results)

    assert lines[4:8] == [
        "- hook <= 2x python3 -c pass — not measured",
        "- Bash hook event <= 2x python3 -c pass (issue 16) — not measured",
        "- 1,000-rule hook <= 1.3x P03 hook — not measured",
        "- `check` <= 2.5x python3 -c pass — not measured",
    ]
    assert "**Processes**" not in render(results)
