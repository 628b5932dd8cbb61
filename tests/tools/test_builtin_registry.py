"""builtin_registry(): the definitions with real handlers, through prepare and invoke."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from toolpolicy.core.results import ToolResult
from toolpolicy.core.vocabulary import SandboxMode
from toolpolicy.tools.builtin import builtin_handlers, builtin_registry
from toolpolicy.tools.definitions import BUILTIN_TOOL_NAMES, builtin_definitions
from toolpolicy.tools.registry import ToolCall, ToolContext, ToolRegistry


def invoke(registry: ToolRegistry, context: ToolContext, name: str, arguments: str) -> ToolResult:
    return registry.invoke(registry.prepare(ToolCall("call-1", name, arguments)), context)


def test_every_builtin_tool_has_a_handler() -> None:
    registry = builtin_registry()
    assert registry.snapshot().names == BUILTIN_TOOL_NAMES
    for name in BUILTIN_TOOL_NAMES:
        definition = registry.get(name)
        assert definition is not None and definition.handler is not None


def test_a_write_then_read_round_trips_through_the_registry(
    workspace: Path, context: ToolContext
) -> None:
    registry = builtin_registry()
    written = invoke(registry, context, "write_file", '{"path": "n/a.txt", "content": "hi"}')
    assert written.content == "Created n/a.txt (2 bytes)"
    assert invoke(registry, context, "read_file", '{"path": "n/a.txt"}').content == "hi"
    edited = invoke(
        registry,
        context,
        "edit_file",
        '{"path": "n/a.txt", "old_string": "hi", "new_string": "yo"}',
    )
    assert edited.content == "Edited n/a.txt (1 replacement)"
    assert invoke(registry, context, "glob", '{"pattern": "**/*.txt"}').content == "n/a.txt"


def test_a_path_escape_reaches_the_model_as_a_stable_code(
    outside: Path, context: ToolContext
) -> None:
    result = invoke(
        builtin_registry(), context, "write_file", '{"path": "../outside/x", "content": ""}'
    )
    assert result == ToolResult(
        "Error [path_escape]: Path escapes the workspace: ../outside/x",
        is_error=True,
        error_code="path_escape",
    )
    assert list(outside.iterdir()) == []


def test_a_handler_exception_becomes_tool_execution_error(tmp_path: Path) -> None:
    # A workspace that does not exist is an unknown fault for glob: it must not leak a trace.
    context = ToolContext(workspace=str(tmp_path / "missing"))
    result = invoke(builtin_registry(), context, "glob", '{"pattern": "*"}')
    assert result == ToolResult(
        "Error [tool_execution_error]: Tool execution failed: glob",
        is_error=True,
        error_code="tool_execution_error",
    )


def test_an_unreadable_workspace_root_is_tool_execution_error_for_writes(tmp_path: Path) -> None:
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x")
    context = ToolContext(workspace=str(not_a_dir))
    result = invoke(builtin_registry(), context, "write_file", '{"path": "a", "content": ""}')
    assert result.content == "Error [tool_execution_error]: Tool execution failed: write_file"


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed")
def test_the_shell_follows_the_context_sandbox(workspace: Path) -> None:
    registry = builtin_registry()
    read_only = ToolContext(workspace=str(workspace), sandbox=SandboxMode.READ_ONLY)
    result = invoke(registry, read_only, "shell", '{"command": "touch x"}')
    assert result.error_code == "shell_failed"
    assert not (workspace / "x").exists()


def test_sandbox_unavailable_when_path_has_bash_but_no_bwrap(
    tmp_path: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "bash").symlink_to(shutil.which("bash") or "/bin/bash")
    monkeypatch.setenv("PATH", str(bin_dir))
    context = ToolContext(workspace=str(workspace), sandbox=SandboxMode.WORKSPACE_WRITE)
    result = invoke(builtin_registry(), context, "shell", '{"command": "touch ran"}')
    assert result.content == "Error [sandbox_unavailable]: bubblewrap (bwrap) was not found on PATH"
    assert not (workspace / "ran").exists()


def test_handlers_can_be_attached_to_the_definitions_directly() -> None:
    definitions = builtin_definitions(handlers=builtin_handlers())
    assert all(d.handler is not None for d in definitions)
