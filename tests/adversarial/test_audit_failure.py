"""A decision that cannot be audited is never acted on: a full disk, a closed sink, a folder.

``/dev/full`` is a real file whose every write fails with ENOSPC: the disk is full.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.audit import JsonlAuditSink
from toolpolicy.engine.selection import load
from toolpolicy.hooks.entry import run_hook
from toolpolicy.tools.builtin import builtin_registry
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import AlwaysAllow

FAILED = "Error [permission_evaluation_error]: Permission evaluation failed"
full_disk = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")


def _write_through(ws: Path, sink: JsonlAuditSink, profile: str) -> str:
    gate = load(profile=profile, workspace=ws).gate(
        approval=ApprovalService([AlwaysAllow()]),
        audit=[sink],
        registry=builtin_registry().snapshot(),
    )
    call = ToolCall("c", "write_file", {"path": "new.txt", "content": "x"})
    return gate.handle(call, ToolContext(str(ws), "c")).content


@full_disk
@pytest.mark.parametrize("profile", ["P02", "P03"])
def test_an_allowed_write_does_not_happen_when_the_disk_is_full(
    tmp_path: Path, profile: str
) -> None:
    sink = JsonlAuditSink("/dev/full")
    try:
        assert _write_through(tmp_path, sink, profile) == FAILED
    finally:
        sink.close()
    assert not (tmp_path / "new.txt").exists()


def test_an_allowed_write_does_not_happen_after_the_audit_file_is_closed(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    sink = JsonlAuditSink(tmp_path / "audit.jsonl")
    sink.close()
    assert _write_through(ws, sink, "P03") == FAILED
    assert not (ws / "new.txt").exists()
    assert (tmp_path / "audit.jsonl").read_bytes() == b""


@pytest.mark.parametrize("where", ["folder", "full-disk", "under-a-file"])
def test_the_hook_blocks_a_call_it_cannot_audit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    if where == "full-disk" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    monkeypatch.setenv("TOOLPOLICY_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "a-file").write_text("")
    audit = {
        "folder": str(tmp_path),
        "full-disk": "/dev/full",
        "under-a-file": str(tmp_path / "a-file" / "audit.jsonl"),
    }[where]
    event = {
        "session_id": "s",
        "transcript_path": str(tmp_path / "t.jsonl"),
        "cwd": str(tmp_path),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": str(tmp_path / "a-file")},
        "tool_use_id": "toolu_1",
    }
    out, err = io.StringIO(), io.StringIO()
    code = run_hook(
        ["claude-code", "--audit", audit], io.BytesIO(json.dumps(event).encode()), out, err
    )
    assert code == 2
    assert out.getvalue() == ""
    assert err.getvalue().startswith("toolpolicy hook: ")
    assert err.getvalue().count("\n") == 1
