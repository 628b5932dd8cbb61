"""Fixtures for the tool tests: a real workspace with an empty sibling "outside" directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolpolicy.core.vocabulary import SandboxMode
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
