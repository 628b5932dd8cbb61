"""write_file: creates parents inside the workspace, replaces atomically, never follows links."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from toolpolicy.core.results import ToolResult
from toolpolicy.tools.registry import ToolContext
from toolpolicy.tools.write_file import write_file


def write(context: ToolContext, path: str, content: str = "hello\n") -> ToolResult:
    return write_file({"path": path, "content": content}, context)


def test_a_new_file_and_its_parent_folders_are_created(
    workspace: Path, context: ToolContext
) -> None:
    result = write(context, "src/pkg/mod.py", "print('hi')\n")
    assert result == ToolResult("Created src/pkg/mod.py (12 bytes)", is_error=False)
    assert (workspace / "src" / "pkg" / "mod.py").read_text() == "print('hi')\n"


def test_an_existing_file_is_replaced_and_keeps_its_mode(
    workspace: Path, context: ToolContext
) -> None:
    target = workspace / "run.sh"
    target.write_text("old")
    target.chmod(0o751)
    result = write(context, "run.sh", "new content")
    assert result.content == "Wrote run.sh (11 bytes)"
    assert target.read_text() == "new content"
    assert stat.S_IMODE(target.stat().st_mode) == 0o751


def test_no_temporary_file_is_left_behind(workspace: Path, context: ToolContext) -> None:
    write(context, "a.txt")
    write(context, "a.txt", "again")
    assert sorted(os.listdir(workspace)) == ["a.txt"]


def test_unicode_content_is_written_as_utf8(workspace: Path, context: ToolContext) -> None:
    result = write(context, "u.txt", "héllo ✓")
    assert result.content == "Created u.txt (10 bytes)"
    assert (workspace / "u.txt").read_bytes() == "héllo ✓".encode()


def test_content_with_a_lone_surrogate_is_refused(workspace: Path, context: ToolContext) -> None:
    result = write(context, "s.txt", "\ud800")
    assert result.content == "Error [invalid_arguments]: content is not valid Unicode text"
    assert not (workspace / "s.txt").exists()


def test_writing_through_a_symlinked_directory_to_outside_is_refused(
    workspace: Path, outside: Path, context: ToolContext
) -> None:
    (workspace / "link").symlink_to(outside)
    result = write(context, "link/evil.txt")
    assert result.content == "Error [path_escape]: Path escapes the workspace: link/evil.txt"
    assert result.error_code == "path_escape"
    assert list(outside.iterdir()) == []


def test_writing_through_a_symlinked_file_to_outside_is_refused(
    workspace: Path, outside: Path, context: ToolContext
) -> None:
    victim = outside / "victim.txt"
    victim.write_text("original")
    (workspace / "link.txt").symlink_to(victim)
    result = write(context, "link.txt")
    assert result.error_code == "path_escape"
    assert victim.read_text() == "original"
    assert (workspace / "link.txt").is_symlink()


def test_a_dangling_symlink_to_outside_is_refused(
    workspace: Path, outside: Path, context: ToolContext
) -> None:
    (workspace / "dangling").symlink_to(outside / "new.txt")
    result = write(context, "dangling")
    assert result.content == "Error [path_escape]: Path escapes the workspace: dangling"
    assert list(outside.iterdir()) == []


def test_a_symlink_loop_is_refused(workspace: Path, context: ToolContext) -> None:
    (workspace / "loop").symlink_to("loop")
    result = write(context, "loop/x.txt")
    assert result.content == "Error [invalid_path]: Symlink loop: loop/x.txt"


def test_a_symlink_inside_the_workspace_writes_its_target(
    workspace: Path, context: ToolContext
) -> None:
    (workspace / "real").mkdir()
    (workspace / "alias").symlink_to("real")
    result = write(context, "alias/f.txt", "x")
    assert result.content == "Created real/f.txt (1 bytes)"
    assert (workspace / "real" / "f.txt").read_text() == "x"


def test_a_dangling_symlink_inside_creates_its_target(
    workspace: Path, context: ToolContext
) -> None:
    (workspace / "pointer").symlink_to("made/by/link.txt")
    assert write(context, "pointer", "x").content == "Created made/by/link.txt (1 bytes)"
    assert (workspace / "made" / "by" / "link.txt").read_text() == "x"
    assert (workspace / "pointer").is_symlink()


def test_a_directory_is_not_a_file(workspace: Path, context: ToolContext) -> None:
    (workspace / "dir").mkdir()
    assert write(context, "dir").content == "Error [not_a_file]: Not a file: dir"
    assert write(context, ".").content == "Error [not_a_file]: Not a file: ."


def test_a_regular_file_used_as_a_folder_is_an_invalid_path(
    workspace: Path, context: ToolContext
) -> None:
    (workspace / "file.txt").write_text("keep")
    result = write(context, "file.txt/child.txt")
    assert result.content == "Error [invalid_path]: A parent is not a directory: file.txt/child.txt"
    assert (workspace / "file.txt").read_text() == "keep"


def test_a_fifo_is_not_replaced(workspace: Path, context: ToolContext) -> None:
    os.mkfifo(workspace / "pipe")
    assert write(context, "pipe").content == "Error [not_a_file]: Not a file: pipe"
    assert stat.S_ISFIFO((workspace / "pipe").lstat().st_mode)


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/etc/passwd", "path_escape"),
        ("../outside/x.txt", "path_escape"),
        ("C:\\x", "path_escape"),
        ("\\\\srv\\share\\x", "path_escape"),
        ("NUL.txt", "invalid_path"),
        ("bad|name", "invalid_path"),
        ("", "invalid_path"),
    ],
)
def test_refused_paths_write_nothing_anywhere(
    workspace: Path, outside: Path, context: ToolContext, path: str, code: str
) -> None:
    result = write(context, path)
    assert result.error_code == code
    assert list(workspace.iterdir()) == []
    assert list(outside.iterdir()) == []
