"""The layers of DESIGN.md, enforced: each room imports only the rooms below it.

core < language < compile < tools < engine < {diff, hooks, lint, agent, interop} < cli.
The rooms of one level may import each other only where listed in ``SIDEWAYS``. ``_version``
sits below everything; the top package (``toolpolicy/__init__``) is for users, and nothing
inside imports it.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "toolpolicy"
LEVEL = {
    "_version": 0,
    "core": 1,
    "language": 2,
    "compile": 3,
    "tools": 4,
    "engine": 5,
    "diff": 6,
    "hooks": 6,
    "lint": 6,
    "agent": 6,
    "interop": 6,
    "cli": 7,
    "__main__": 8,
}
# Same-level imports that are part of the design, each with its reason.
SIDEWAYS = {
    # lint knows the tool names of every agent's catalog (unknown-tool).
    ("lint", "hooks"),
    # interop's Claude Code tables are the hook's catalog.
    ("interop", "hooks"),
    # export/import checks its output with the real linter.
    ("interop", "lint"),
}


def _room(module: str) -> str:
    parts = module.split(".")
    assert parts[0] == "toolpolicy", module
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(path: Path) -> list[tuple[str, int]]:
    """Every toolpolicy module ``path`` imports (at any depth of the file), with its line."""
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    package = list(relative.parts[:-1]) if relative.name != "__init__" else list(relative.parts)
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target == "toolpolicy" or target.startswith("toolpolicy."):
                found.append((target, node.lineno))
        elif isinstance(node, ast.Import):
            found.extend(
                (alias.name, node.lineno)
                for alias in node.names
                if alias.name.split(".")[0] == "toolpolicy"
            )
    return found


def test_every_module_imports_only_lower_rooms() -> None:
    wrong: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        room = _room(module)
        if room == "__init__":
            continue  # the public face: it re-exports from every room
        assert room in LEVEL, f"{module}: a room the layering test does not know"
        for target, line in _imports(path):
            other = _room(target)
            if other == room:
                continue
            allowed = other in LEVEL and (LEVEL[other] < LEVEL[room] or (room, other) in SIDEWAYS)
            if not allowed:
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {room} imports {target}")
    assert wrong == []


def test_the_test_knows_every_room() -> None:
    rooms = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    rooms |= {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    assert rooms == set(LEVEL)
