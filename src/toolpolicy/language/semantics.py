"""The checks JSON Schema cannot express: reserved names, duplicates, the preset default.

They run on the raw tree, next to the schema, so one pass reports every problem; each is
placed at the exact node it is about.
"""

from __future__ import annotations

from ..core.errors import Problem
from . import codes
from .yamltree import ParsedTree

__all__ = [
    "BOUNDARY_KEYS",
    "CUSTOM_PRESET_MESSAGE",
    "RESERVED_PRESET_NAME",
    "RESERVED_RULE_NAMES",
    "boundary_problems",
    "semantic_problems",
]

RESERVED_RULE_NAMES = frozenset(
    {
        "workspace-boundary",
        "sandbox",
        "sandbox-escalation",
        "default",
        "shell-default",
        "approval-policy",
    }
)
"""Decision sources of the system's own participants; a rule may not pose as one of them."""

RESERVED_PRESET_NAME = "custom"
CUSTOM_PRESET_MESSAGE = "custom is reserved for the derived not-a-preset state"
BOUNDARY_KEYS = frozenset({"workspace_boundary", "workspace-boundary"})
_BOUNDARY_ENDINGS = tuple(f"/{key}" for key in sorted(BOUNDARY_KEYS))


def boundary_problems(tree: ParsedTree, path: str) -> tuple[list[Problem], list[str]]:
    """Refuse every ``workspace_boundary`` key, anywhere; also return their pointers.

    The boundary is hard-coded, so a document trying to configure it is wrong even where
    the key would otherwise be allowed (inside example arguments, say).
    """
    problems: list[Problem] = []
    pointers: list[str] = []
    if tree.keys is not None and tree.keys.isdisjoint(BOUNDARY_KEYS):
        return problems, pointers
    for pointer, (line, column) in tree.key_positions.items():
        if pointer.endswith(_BOUNDARY_ENDINGS) and pointer.rsplit("/", 1)[1] in BOUNDARY_KEYS:
            problems.append(
                Problem(
                    path,
                    line,
                    column,
                    codes.BOUNDARY_NOT_CONFIGURABLE,
                    "the workspace boundary cannot be configured: writes outside the "
                    "workspace are always denied",
                    pointer,
                )
            )
            pointers.append(pointer)
    return problems, pointers


def semantic_problems(tree: ParsedTree, path: str) -> list[Problem]:
    """Reserved and duplicate rule names; a ``custom`` preset; a default naming no row."""
    root = tree.value
    if not isinstance(root, dict):
        return []
    if root.get("kind") == "PresetTable":
        return _preset_problems(tree, path, root)
    return _rule_problems(tree, path, root.get("rules"))


def _problem(tree: ParsedTree, path: str, pointer: str, code: str, message: str) -> Problem:
    line, column = tree.positions.get(pointer, (1, 1))
    return Problem(path, line, column, code, message, pointer)


def _rule_problems(tree: ParsedTree, path: str, rules: object) -> list[Problem]:
    if not isinstance(rules, list):
        return []
    problems: list[Problem] = []
    first_index: dict[str, int] = {}
    for index, rule in enumerate(rules):
        name = rule.get("name") if isinstance(rule, dict) else None
        if not isinstance(name, str):
            continue
        pointer = f"/rules/{index}/name"
        if name in RESERVED_RULE_NAMES:
            problems.append(
                _problem(
                    tree,
                    path,
                    pointer,
                    codes.RESERVED_NAME,
                    f"the rule name {name!r} is reserved for a system decision source; "
                    "choose another name",
                )
            )
        if name in first_index:
            first = tree.positions.get(f"/rules/{first_index[name]}/name", (0, 0))[0]
            problems.append(
                _problem(
                    tree,
                    path,
                    pointer,
                    codes.DUPLICATE_RULE,
                    f"duplicate rule name {name!r} (first used at line {first})",
                )
            )
        else:
            first_index[name] = index
    return problems


def _preset_problems(tree: ParsedTree, path: str, root: dict[str, object]) -> list[Problem]:
    presets, default = root.get("presets"), root.get("default")
    if not isinstance(presets, dict):
        return []
    problems: list[Problem] = []
    if RESERVED_PRESET_NAME in presets:
        pointer = f"/presets/{RESERVED_PRESET_NAME}"
        line, column = tree.key_positions.get(pointer, (1, 1))
        problems.append(
            Problem(path, line, column, codes.RESERVED_PRESET, CUSTOM_PRESET_MESSAGE, pointer)
        )
    if isinstance(default, str) and default not in presets:
        rows = ", ".join(presets) or "none"
        problems.append(
            _problem(
                tree,
                path,
                "/default",
                codes.UNKNOWN_DEFAULT_PRESET,
                f"the default preset {default!r} names no row of this table (rows: {rows})",
            )
        )
    return problems
