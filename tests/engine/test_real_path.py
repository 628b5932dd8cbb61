"""``engine.real_path``: the very string ``os.path.realpath`` gives, on a real tree with
folders, files, links in and out, dangling links, link loops and missing components."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.engine.real_path import real_path

NAMES = ("d", "f", "in", "out", "up", "dangling", "loop", "abs", "missing", ".", "..", "")


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``root/ws`` with a folder, a file and every kind of link; ``root/outside`` beside it."""
    root = tmp_path_factory.mktemp("real")
    ws = root / "ws"
    (ws / "d" / "d").mkdir(parents=True)
    (ws / "d" / "f").write_text("x")
    (ws / "f").write_text("x")
    (root / "outside" / "d").mkdir(parents=True)
    for folder in (ws, ws / "d", root / "outside"):
        (folder / "in").symlink_to("d")
        (folder / "out").symlink_to(root / "outside")
        (folder / "up").symlink_to("..")
        (folder / "dangling").symlink_to("nowhere/at/all")
        (folder / "loop").symlink_to("loop")
        (folder / "abs").symlink_to(ws / "d" / "f")
    return ws


@settings(max_examples=400, deadline=None)
@given(names=st.lists(st.sampled_from(NAMES), max_size=7), from_root=st.booleans())
def test_real_path_is_realpath(tree: Path, names: list[str], from_root: bool) -> None:
    path = ("/" if from_root else f"{tree}/") + "/".join(names)
    assert real_path(path) == os.path.realpath(path)


@pytest.mark.parametrize(
    "tail",
    ["", "d/d/../f", "missing/../in/f", "missing/x/../../out/d", "f/x/../..", "../ws/in"],
)
def test_real_path_on_chosen_spellings(tree: Path, tail: str) -> None:
    path = f"{tree}/{tail}"
    assert real_path(path) == os.path.realpath(path)


@pytest.mark.parametrize("path", ["relative/x", "/tmp/caf\u00e9", "/tmp/a\x00b", "/", "//x/../y"])
def test_what_the_walk_does_not_answer_is_realpaths(path: str) -> None:
    try:
        expected: str | type[ValueError] = os.path.realpath(path)
    except ValueError:
        expected = ValueError
    if expected is ValueError:
        with pytest.raises(ValueError):
            real_path(path)
    else:
        assert real_path(path) == expected
