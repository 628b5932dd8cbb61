"""A symlink swapped in between the boundary check and the write never redirects the write."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolpolicy.tools.read_file import read_file
from toolpolicy.tools.registry import ToolContext
from toolpolicy.tools.safefs import FileToolError, open_parent, replace_at
from toolpolicy.tools.workspace import WorkspaceBoundary
from toolpolicy.tools.write_file import write_file

WRITES = 1500


@pytest.fixture
def fast_switching() -> Iterator[None]:
    """Let the flipping thread run between almost any two bytecodes of the writer."""
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(previous)


@pytest.mark.usefixtures("fast_switching")
def test_a_symlink_flipping_between_inside_and_outside_never_lets_a_write_out(
    workspace: Path, outside: Path, context: ToolContext, resolution: str
) -> None:
    inside = workspace / "inside_dir"
    inside.mkdir()
    link = workspace / "link"
    link.symlink_to(inside)
    stop = threading.Event()

    def flip() -> None:
        staged = workspace / "link.staged"
        targets = (outside, inside)
        turn = 0
        while not stop.is_set():
            os.symlink(targets[turn % 2], staged)
            os.replace(staged, link)
            turn += 1

    flipper = threading.Thread(target=flip)
    flipper.start()
    try:
        results = [
            write_file({"path": f"link/f{i}.txt", "content": "x"}, context) for i in range(WRITES)
        ]
    finally:
        stop.set()
        flipper.join()

    assert list(outside.iterdir()) == []
    assert {r.error_code for r in results} <= {None, "path_escape"}
    written = sorted(p.name for p in inside.iterdir())
    assert len(written) == sum(1 for r in results if not r.is_error)
    assert sorted(os.listdir(workspace)) == ["inside_dir", "link"]


def test_a_folder_replaced_by_a_symlink_after_the_check_makes_the_write_fail(
    workspace: Path, outside: Path, resolution: str
) -> None:
    folder = workspace / "inside_dir"
    folder.mkdir()

    def swap(opened: str) -> None:
        # Runs right after the path was resolved and checked, before anything is opened.
        assert opened == "inside_dir/f.txt"
        folder.rename(folder.with_name("moved_away"))
        folder.symlink_to(outside)

    with (
        pytest.raises(FileToolError) as caught,
        open_parent(
            WorkspaceBoundary(workspace), "inside_dir/f.txt", create=True, check=swap
        ) as parent,
    ):
        replace_at(parent, b"x")
    assert (caught.value.code, caught.value.message) == (
        "path_escape",
        "Path changed while it was opened: inside_dir/f.txt",
    )
    assert list(outside.iterdir()) == []


def test_an_absolute_link_that_stays_inside_is_followed_both_ways(
    workspace: Path, outside: Path, context: ToolContext, resolution: str
) -> None:
    (workspace / "d").mkdir()
    (workspace / "d" / "f.txt").write_text("inside")
    (workspace / "abs").symlink_to(workspace / "d")
    (workspace / "abs_out").symlink_to(outside)
    assert read_file({"path": "abs/f.txt"}, context).content == "inside"
    escaped = write_file({"path": "abs_out/x.txt", "content": "x"}, context)
    assert escaped.error_code == "path_escape"
    assert list(outside.iterdir()) == []
