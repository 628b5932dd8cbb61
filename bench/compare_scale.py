"""Scale policies: N deny rules over 100 tool names, each on its own literal directory.

Rule ``i`` denies tool ``TOOLS[i % 100]`` under ``dir<i>/**``; ``read_file`` is one of the
100 names, so it gets its share (N / 100) of the rules. The timed reads are a path no rule
matches (``src/a.py``: allowed) and the path of the *last* ``read_file`` rule (denied), the
worst place for an engine that scans its rules in order.
"""

from __future__ import annotations

import os

from compare_peers import ScaleRule

__all__ = [
    "RULES_PER_FILE",
    "SCALE_SIZES",
    "TOOLS",
    "UNMATCHED_PATH",
    "matched_path",
    "scale_rules",
    "write_policy",
]

SCALE_SIZES = (10, 1_000, 10_000)
TOOLS: tuple[str, ...] = ("read_file", *(f"tool{index:02d}" for index in range(1, 100)))
UNMATCHED_PATH = "src/a.py"
RULES_PER_FILE = 2_000


def scale_rules(count: int) -> list[ScaleRule]:
    """The (tool, directory) pairs of an N-rule policy."""
    return [(TOOLS[index % len(TOOLS)], f"dir{index}") for index in range(count)]


def matched_path(count: int) -> str:
    """A read path that only the last ``read_file`` rule of an N-rule policy matches."""
    last = max(index for index in range(count) if index % len(TOOLS) == 0)
    return f"dir{last}/x.py"


def write_policy(folder: str, count: int) -> list[str]:
    """Write the N-rule policy (``Policy`` files extending P03) into ``folder``.

    A policy file is capped at 1 MiB, so the rules go into files of at most
    :data:`RULES_PER_FILE` rules, layered in order; returns their paths.
    """
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
