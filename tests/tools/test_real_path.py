"""``real_path`` is ``os.path.realpath``, and so is the physical boundary's reading of an
absolute path that walks with it: on every spelling of a tree with links in, out, up,
dangling and looping, from ``/`` and from the workspace, known real or not."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.tools.real_path import real_path
from toolpolicy.tools.workspace import WorkspaceBoundary

NAMES = ("d", "a", "in", "out", "up", "deep", "dangling", "loop", "missing", ".", "..", "")


@pytest.fixture(scope="module")
def tree(linked_workspace: Path) -> Path:
    """The workspace with links in, out, up and dangling (``conftest.linked_workspace``),
    and one to itself."""
    (linked_workspace / "loop").symlink_to("loop")
    return linked_workspace


@settings(max_examples=400, deadline=None)
@given(names=st.lists(st.sampled_from(NAMES), max_size=7), from_root=st.booleans())
def test_real_path_is_realpath(tree: Path, names: list[str], from_root: bool) -> None:
    path = ("/" if from_root else f"{tree}/") + "/".join(names)
    assert real_path(path) == os.path.realpath(path)
    # below a folder known to be real (the workspace), without looking at it again
    assert real_path(path, os.path.realpath(tree)) == os.path.realpath(path)
    assert real_path(path, "/") == os.path.realpath(path)


@settings(max_examples=400, deadline=None)
@given(names=st.lists(st.sampled_from(NAMES), max_size=7), from_root=st.booleans())
def test_the_boundarys_absolute_target_is_realpath(
    tree: Path, names: list[str], from_root: bool
) -> None:
    path = ("/" if from_root else f"{tree}/") + "/".join(names)
    assert WorkspaceBoundary(tree).absolute_target(path) == os.path.realpath(path)


@pytest.mark.parametrize(
    "tail",
    ["", "d/../a", "missing/../in/a", "missing/x/../../out/x", "a/x/../..", "../ws/in", "deep/.."],
)
def test_real_path_on_chosen_spellings(tree: Path, tail: str) -> None:
    path = f"{tree}/{tail}"
    assert real_path(path) == os.path.realpath(path)
    assert real_path(path, os.path.realpath(tree)) == os.path.realpath(path)
    assert WorkspaceBoundary(tree).absolute_target(path) == os.path.realpath(path)


@pytest.mark.parametrize("path", ["relative/x", "/tmp/caf\u00e9", "/tmp/a\x00b", "/", "//x/../y"])
def test_what_the_walk_does_not_answer_is_realpaths(path: str) -> None:
    try:
        expected = os.path.realpath(path)
    except ValueError:
        with pytest.raises(ValueError):
            real_path(path)
        return
    assert real_path(path) == expected


def test_an_absolute_path_that_cannot_be_resolved_is_read_on_its_text(tree: Path) -> None:
    # a NUL cannot reach the disk: the boundary falls back to the normalized text
    assert WorkspaceBoundary(tree).absolute_target("/x/../a\x00b") == "/a\x00b"
