"""read_file: UTF-8 text only, bounded, through the same boundary as writes."""

from __future__ import annotations

import os
from pathlib import Path

from toolpolicy.core.results import ToolResult
from toolpolicy.tools.read_file import MAX_READ_BYTES, read_file
from toolpolicy.tools.registry import ToolContext


def read(context: ToolContext, path: str) -> ToolResult:
    return read_file({"path": path}, context)


def test_a_text_file_is_returned_verbatim(workspace: Path, context: ToolContext) -> None:
    (workspace / "a.txt").write_bytes("line 1\r\nlïne 2\n".encode())
    assert read(context, "a.txt") == ToolResult("line 1\r\nlïne 2\n", is_error=False)


def test_an_empty_file_reads_as_empty_text(workspace: Path, context: ToolContext) -> None:
    (workspace / "empty").write_text("")
    assert read(context, "empty") == ToolResult("", is_error=False)


def test_a_missing_file_is_file_not_found(workspace: Path, context: ToolContext) -> None:
    assert read(context, "nope.txt").content == "Error [file_not_found]: File not found: nope.txt"
    assert read(context, "no/dir/x").content == "Error [file_not_found]: File not found: no/dir/x"


def test_a_directory_is_not_a_file(workspace: Path, context: ToolContext) -> None:
    (workspace / "src").mkdir()
    assert read(context, "src").content == "Error [not_a_file]: Not a file: src"


def test_a_fifo_is_not_a_file_and_does_not_block(workspace: Path, context: ToolContext) -> None:
    os.mkfifo(workspace / "pipe")
    assert read(context, "pipe").content == "Error [not_a_file]: Not a file: pipe"


def test_a_file_over_the_cap_is_file_too_large(workspace: Path, context: ToolContext) -> None:
    (workspace / "big.txt").write_bytes(b"a" * (MAX_READ_BYTES + 1))
    assert read(context, "big.txt").content == (
        "Error [file_too_large]: File is larger than 1048576 bytes: big.txt"
    )


def test_a_file_exactly_at_the_cap_is_read(workspace: Path, context: ToolContext) -> None:
    (workspace / "edge.txt").write_bytes(b"a" * MAX_READ_BYTES)
    assert len(read(context, "edge.txt").content) == MAX_READ_BYTES


def test_binary_and_non_utf8_files_are_refused(workspace: Path, context: ToolContext) -> None:
    (workspace / "zero.bin").write_bytes(b"abc\x00def")
    (workspace / "latin1.txt").write_bytes("café".encode("latin-1"))
    assert (
        read(context, "zero.bin").content == "Error [binary_file]: Not a UTF-8 text file: zero.bin"
    )
    assert read(context, "latin1.txt").error_code == "binary_file"


def test_reading_through_a_symlink_to_outside_is_path_escape(
    workspace: Path, outside: Path, context: ToolContext
) -> None:
    (outside / "secret.txt").write_text("secret")
    (workspace / "link").symlink_to(outside)
    result = read(context, "link/secret.txt")
    assert result.content == "Error [path_escape]: Path escapes the workspace: link/secret.txt"
    assert "secret" not in result.content.split(":", 1)[0]


def test_reading_an_absolute_path_is_path_escape(context: ToolContext) -> None:
    assert read(context, "/etc/hostname").content == (
        "Error [path_escape]: Absolute paths are not allowed: /etc/hostname"
    )


def test_reading_through_an_inside_symlink_works(workspace: Path, context: ToolContext) -> None:
    (workspace / "real.txt").write_text("real")
    (workspace / "alias.txt").symlink_to("real.txt")
    assert read(context, "alias.txt").content == "real"


def test_a_parent_that_is_a_file_is_an_invalid_path(workspace: Path, context: ToolContext) -> None:
    (workspace / "f").write_text("x")
    assert read(context, "f/g").content == "Error [invalid_path]: A parent is not a directory: f/g"
