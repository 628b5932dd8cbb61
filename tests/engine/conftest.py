"""Shared parts for engine tests: a real workspace, counting handlers and responders."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from doubles import MemorySink, ScriptedResponder
from toolpolicy.core.results import ToolResult, tool_success
from toolpolicy.core.vocabulary import ApprovalOutcome
from toolpolicy.tools.definitions import builtin_definitions
from toolpolicy.tools.registry import ToolContext, ToolSnapshot


@dataclass
class Workspace:
    root: Path
    outside: Path


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    root = tmp_path / "ws"
    outside = tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    return Workspace(root, outside)


@dataclass
class CountingHandlers:
    """Handlers that record their calls and write files for write_file (real side effect)."""

    calls: list[tuple[str, dict[str, object]]] = field(default_factory=list)

    def handler(self, name: str):  # type: ignore[no-untyped-def]
        def run(arguments: Mapping[str, object], context: ToolContext) -> ToolResult:
            self.calls.append((name, dict(arguments)))
            if name == "write_file":
                target = Path(context.workspace) / str(arguments["path"])
                target.write_text(str(arguments["content"]))
            return tool_success(f"{name} ran")

        return run

    def snapshot(self, names: tuple[str, ...] = ()) -> ToolSnapshot:
        defs = builtin_definitions(
            handlers={
                n: self.handler(n)
                for n in ("shell", "read_file", "write_file", "edit_file", "glob")
            }
        )
        return ToolSnapshot(d for d in defs if not names or d.name in names)


@pytest.fixture
def handlers() -> CountingHandlers:
    return CountingHandlers()


__all__ = ["ALLOW", "REJECT", "CountingHandlers", "MemorySink", "ScriptedResponder", "Workspace"]

ALLOW = ApprovalOutcome.ALLOWED_ONCE
REJECT = ApprovalOutcome.REJECTED
