"""edit_file: exact, unambiguous replacement, written atomically."""

from __future__ import annotations

from pathlib import Path

from toolpolicy.core.results import ToolResult
from toolpolicy.tools.edit_file import edit_file
from toolpolicy.tools.registry import ToolContext


def edit(context: ToolContext, path: str, old: str, new: str, **extra: object) -> ToolResult:
    return edit_file({"path": path, "old_string": old, "new_string": new, **extra}, context)


def test_a_unique_occurrence_is_replaced(workspace: Path, context: ToolContext) -> None:
    (workspace / "a.py").write_text("x = 1\ny = 2\n")
    assert edit(context, "a.py", "y = 2", "y = 3") == ToolResult(
        "Edited a.py (1 replacement)", is_error=False
    )
    assert (workspace / "a.py").read_text() == "x = 1\ny = 3\n"


def test_no_occurrence_is_edit_no_match_and_changes_nothing(
    workspace: Path, context: ToolContext
) -> None:
    (workspace / "a.py").write_text("x = 1\n")
    result = edit(context, "a.py", "z", "w")
    assert result.content == "Error [edit_no_match]: old_string was not found in a.py"
    assert (workspace / "a.py").read_text() == "x = 1\n"


def test_several_occurrences_are_edit_ambiguous_and_change_nothing(
    workspace: Path, context: ToolContext
) -> None:
    (workspace / "a.py").write_text("a a a")
    result = edit(context, "a.py", "a", "b")
    assert result.content == (
        "Error [edit_ambiguous]: old_string occurs 3 times in a.py; "
        "add surrounding context or set replace_all"
    )
    assert (workspace / "a.py").read_text() == "a a a"


def test_replace_all_replaces_every_occurrence(workspace: Path, context: ToolContext) -> None:
    (workspace / "a.py").write_text("a a a")
    assert edit(context, "a.py", "a", "b", replace_all=True).content == (
        "Edited a.py (3 replacements)"
    )
    assert (workspace / "a.py").read_text() == "b b b"


def test_an_empty_old_string_is_invalid_arguments(workspace: Path, context: ToolContext) -> None:
    (workspace / "a.py").write_text("abc")
    result = edit(context, "a.py", "", "x")
    assert result.content == "Error [invalid_arguments]: old_string must not be empty"
    assert (workspace / "a.py").read_text() == "abc"


def test_a_missing_file_is_file_not_found(context: ToolContext) -> None:
    assert edit(context, "gone.py", "a", "b").content == (
        "Error [file_not_found]: File not found: gone.py"
    )


def test_a_binary_file_is_not_edited(workspace: Path, context: ToolContext) -> None:
    (workspace / "b.bin").write_bytes(b"a\x00b")
    assert edit(context, "b.bin", "a", "c").error_code == "binary_file"
    assert (workspace / "b.bin").read_bytes() == b"a\x00b"


def test_editing_through_a_symlink_to_outside_is_refused(
    workspace: Path, outside: Path, context: ToolContext
) -> None:
    (outside / "t.txt").write_text("keep me")
    (workspace / "t.txt").symlink_to(outside / "t.txt")
    result = edit(context, "t.txt", "keep", "lose")
    assert result.content == "Error [path_escape]: Path escapes the workspace: t.txt"
    assert (outside / "t.txt").read_text() == "keep me"


def test_editing_a_directory_is_not_a_file(workspace: Path, context: ToolContext) -> None:
    (workspace / "d").mkdir()
    assert edit(context, "d", "a", "b").content == "Error [not_a_file]: Not a file: d"
