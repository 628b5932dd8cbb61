"""``openat2`` through ctypes: the kernel refuses every way out of the directory."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from toolpolicy.tools import beneath

pytestmark = pytest.mark.skipif(not beneath.OPENAT2_AVAILABLE, reason="no openat2 here")

FOLLOW = beneath.RESOLVE_BENEATH | beneath.RESOLVE_NO_MAGICLINKS


@pytest.fixture
def root(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "d").mkdir(parents=True)
    (ws / "d" / "f.txt").write_text("x")
    (ws / "inside").symlink_to("d/f.txt")
    (ws / "out").symlink_to(tmp_path)
    (ws / "abs").symlink_to(ws / "d")
    (ws / "magic").symlink_to("/proc/self/cwd")
    return ws


def _open(root: Path, path: str, resolve: int = FOLLOW) -> str:
    dir_fd = os.open(root, os.O_PATH | os.O_DIRECTORY)
    try:
        fd = beneath.openat2(dir_fd, path, os.O_PATH, resolve)
    finally:
        os.close(dir_fd)
    try:
        return beneath.fd_path(fd)
    finally:
        os.close(fd)


def test_a_link_inside_is_followed_and_the_fd_tells_the_real_path(root: Path) -> None:
    assert _open(root, "inside") == str(root / "d" / "f.txt")


@pytest.mark.parametrize("path", ["out/x", "../ws/d", "/etc", "abs/f.txt", "d/../../x"])
def test_every_way_out_is_exdev(root: Path, path: str) -> None:
    with pytest.raises(OSError) as caught:
        _open(root, path)
    assert caught.value.errno == errno.EXDEV


def test_magic_links_are_refused(root: Path) -> None:
    with pytest.raises(OSError) as caught:
        _open(root, "magic/x")
    assert caught.value.errno in (errno.EXDEV, errno.ELOOP)


def test_no_symlinks_refuses_even_a_link_inside(root: Path) -> None:
    with pytest.raises(OSError) as caught:
        _open(root, "inside", FOLLOW | beneath.RESOLVE_NO_SYMLINKS)
    assert caught.value.errno == errno.ELOOP
