"""glob: anchored patterns, sorted and capped, never through symlinked folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolpolicy.core.results import ToolResult
from toolpolicy.tools.glob_tool import GlobTool
from toolpolicy.tools.registry import ToolContext


def glob(context: ToolContext, pattern: str, tool: GlobTool | None = None) -> ToolResult:
    return (tool or GlobTool())({"pattern": pattern}, context)


@pytest.fixture
def tree(workspace: Path) -> Path:
    for relative in (
        "b.py",
        "a.py",
        "README.md",
        "src/pkg/mod.py",
        "src/pkg/data.json",
        "src/x.py",
    ):
        path = workspace / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")
    return workspace


def test_a_top_level_pattern_lists_sorted_top_level_files(tree: Path, context: ToolContext) -> None:
    assert glob(context, "*.py") == ToolResult("a.py\nb.py", is_error=False)


def test_double_star_crosses_folders(tree: Path, context: ToolContext) -> None:
    assert glob(context, "**/*.py").content == "a.py\nb.py\nsrc/pkg/mod.py\nsrc/x.py"
    assert glob(context, "src/**").content == "src/pkg/data.json\nsrc/pkg/mod.py\nsrc/x.py"


def test_question_mark_and_classes_match_one_character(tree: Path, context: ToolContext) -> None:
    assert glob(context, "[ab].p?").content == "a.py\nb.py"
    assert glob(context, "[!a].py").content == "b.py"


def test_no_match_says_so(tree: Path, context: ToolContext) -> None:
    assert glob(context, "*.rs") == ToolResult("No files match: *.rs", is_error=False)


@pytest.mark.parametrize(
    "pattern",
    ["/etc/*", "../*", "a/../b", "C:*", "[abc", "src\\*.py", "~/x", "", "a//b"],
)
def test_invalid_patterns_are_invalid_pattern_errors(context: ToolContext, pattern: str) -> None:
    result = glob(context, pattern)
    assert result.error_code == "invalid_pattern"
    assert result.content.startswith("Error [invalid_pattern]: invalid glob")


def test_shell_metacharacters_are_never_interpreted(
    workspace: Path, outside: Path, context: ToolContext
) -> None:
    result = glob(context, f"$(touch {outside.name})*")
    assert result.error_code in (None, "invalid_pattern")
    assert list(outside.iterdir()) == []
    assert list(workspace.iterdir()) == []


def test_symlinked_folders_are_never_followed(
    workspace: Path, outside: Path, context: ToolContext
) -> None:
    (outside / "secret.txt").write_text("s")
    (outside / "deep").mkdir()
    (outside / "deep" / "more.txt").write_text("s")
    (workspace / "inside").mkdir()
    (workspace / "inside" / "own.txt").write_text("x")
    (workspace / "escape").symlink_to(outside)
    (workspace / "inside" / "alias").symlink_to("..")
    (workspace / "loop").symlink_to("loop")
    assert glob(context, "**/*.txt").content == "inside/own.txt"
    assert glob(context, "escape/*").content == "No files match: escape/*"
    assert glob(context, "**").content == "inside/own.txt"


def test_symlinked_files_are_not_listed(
    workspace: Path, outside: Path, context: ToolContext
) -> None:
    (outside / "secret.txt").write_text("s")
    (workspace / "secret.txt").symlink_to(outside / "secret.txt")
    (workspace / "real.txt").write_text("x")
    assert glob(context, "*.txt").content == "real.txt"


def test_results_are_capped_with_a_note(workspace: Path, context: ToolContext) -> None:
    for i in range(12):
        (workspace / f"f{i:02}.txt").write_text("x")
    result = glob(context, "*.txt", GlobTool(max_results=10))
    lines = result.content.split("\n")
    assert lines[:10] == [f"f{i:02}.txt" for i in range(10)]
    assert lines[10:] == ["[results truncated: showing 10 of 12 matches]"]


def test_the_default_cap_is_1000_results(workspace: Path, context: ToolContext) -> None:
    for i in range(1003):
        (workspace / f"f{i:04}.txt").touch()
    lines = glob(context, "*.txt").content.split("\n")
    assert len(lines) == 1001
    assert lines[-1] == "[results truncated: showing 1000 of 1003 matches]"


def test_the_walk_stops_after_its_entry_budget(workspace: Path, context: ToolContext) -> None:
    for i in range(30):
        (workspace / f"f{i:02}.txt").touch()
    result = glob(context, "*.txt", GlobTool(max_entries=5))
    lines = result.content.split("\n")
    assert lines[-1] == "[search stopped after 5 entries]"
    assert len(lines) == 6


def test_folders_themselves_are_not_listed(tree: Path, context: ToolContext) -> None:
    assert glob(context, "src").content == "No files match: src"


def test_limits_must_be_positive() -> None:
    with pytest.raises(ValueError, match="must be positive"):
        GlobTool(max_results=0)
