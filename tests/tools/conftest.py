"""Fixtures for the tool tests: a real workspace with an empty sibling "outside" directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from toolpolicy.core.vocabulary import SandboxMode
from toolpolicy.tools import beneath
from toolpolicy.tools.registry import ToolContext


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty workspace directory."""
    path = tmp_path / "ws"
    path.mkdir()
    return path


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory next to the workspace that must stay empty."""
    path = tmp_path / "outside"
    path.mkdir()
    return path


@pytest.fixture
def context(workspace: Path) -> ToolContext:
    """A workspace-write context for the workspace."""
    return ToolContext(
        workspace=str(workspace), call_id="call-1", sandbox=SandboxMode.WORKSPACE_WRITE
    )


@pytest.fixture(params=["openat2", "walk"])
def resolution(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run the test with each way the file tools resolve a path: the kernel's ``openat2``
    (where this kernel has it) and the ``O_NOFOLLOW`` walk every other platform uses."""
    if request.param == "openat2" and not beneath.OPENAT2_AVAILABLE:
        pytest.skip("this kernel has no openat2")
    monkeypatch.setattr(beneath, "OPENAT2_AVAILABLE", request.param == "openat2")
    yield request.param
