"""The model rewriting the policy that governs it.

The shell sandbox binds the policy files in use read-only and the file tools are refused
them too; otherwise a write allowed by the profile (P02: writes need no approval) would
rewrite the rules for every later load, including the hook's, which reads the policy again
for each event. (Found by this suite; fixed in 09bfd53.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.selection import load
from toolpolicy.tools.builtin import builtin_registry
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import MemorySink, policy_file

RULES: list[dict[str, object]] = [{"behavior": "deny", "match": {"commands": ["git push"]}}]


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("write_file", {"content": "{}"}),
        ("edit_file", {"old_string": "deny", "new_string": "allow"}),
    ],
)
def test_the_file_tools_never_rewrite_a_policy_file_in_use(
    tmp_path: Path, tool: str, arguments: dict[str, object]
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    path = policy_file(ws, RULES, extends="P02")
    before = path.read_bytes()
    gate = load(profile="P02", workspace=ws, policies=[path]).gate(
        approval=ApprovalService([]), audit=[MemorySink()], registry=builtin_registry().snapshot()
    )
    call = ToolCall("c", tool, {"path": path.name, **arguments})
    result = gate.handle(call, ToolContext(str(ws), "c"))
    assert result.error_code == "permission_denied", result
    assert path.read_bytes() == before
