"""Fixtures every test folder may use."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import toolpolicy
from toolpolicy.language.resources import data_dir
from toolpolicy.tools import beneath


@pytest.fixture(params=["openat2", "walk"])
def resolution(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run the test with each way the file tools resolve a path: the kernel's ``openat2``
    (where this kernel has it) and the ``O_NOFOLLOW`` walk every other platform uses."""
    if request.param == "openat2" and not beneath.OPENAT2_AVAILABLE:
        pytest.skip("this kernel has no openat2")
    monkeypatch.setattr(beneath, "OPENAT2_AVAILABLE", request.param == "openat2")
    yield request.param


@pytest.fixture
def package_copy(tmp_path: Path) -> Path:
    """A copy of the installed package, as a wheel lays it out, in a folder to put on
    ``PYTHONPATH``: for tests that change toolpolicy's own code or version."""
    copy = tmp_path / "site"
    shutil.copytree(
        Path(toolpolicy.__file__).parent,
        copy / "toolpolicy",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    for name in ("policy", "profiles"):  # as a wheel ships them
        shutil.copytree(data_dir(name), copy / "toolpolicy" / "_data" / name)
    return copy


@pytest.fixture(scope="module")
def linked_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace with a file, folders, links in (one and two levels down), out, up,
    dangling; a file outside."""
    base = tmp_path_factory.mktemp("linked")
    ws = base / "ws"
    (ws / "d" / "e").mkdir(parents=True)
    (ws / "a").write_text("a")
    (ws / "d" / "a").write_text("a")
    (base / "outside").mkdir()
    (base / "outside" / "x").write_text("x")
    (ws / "in").symlink_to("d")
    (ws / "deep").symlink_to("d/e")
    (ws / "out").symlink_to(base / "outside")
    (ws / "up").symlink_to("..")
    (ws / "dangling").symlink_to("nowhere")
    return ws
