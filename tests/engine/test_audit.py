"""Audit sinks: JSONL lines and the terminal line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from toolpolicy.core.errors import AuditError
from toolpolicy.core.protocols import AuditRecord
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.audit import JsonlAuditSink, TerminalAuditSink, arguments_sha256
from toolpolicy.engine.selection import load
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import ALLOW, CountingHandlers, ScriptedResponder, Workspace

FIELDS = {
    "ts",
    "session_id",
    "call_id",
    "tool",
    "effect",
    "behavior",
    "source",
    "reason",
    "matched_rules",
    "preset",
    "sandbox",
    "approval",
    "approval_outcome",
    "arguments_sha256",
}


def _record(**overrides: object) -> AuditRecord:
    base: dict[str, object] = dict(
        ts="t",
        session_id="s",
        call_id="c",
        tool="write_file",
        effect="write",
        behavior="allow",
        source="terminal-approval",
        reason="User approved this tool call",
        matched_rules=(),
        preset="workspace-write",
        sandbox="workspace-write",
        approval="ask",
        approval_outcome="allowed-once",
        arguments_sha256="0" * 64,
    )
    base.update(overrides)
    return AuditRecord(**base)  # type: ignore[arg-type]


def test_terminal_sink_writes_the_seed_line() -> None:
    stream = io.StringIO()
    TerminalAuditSink(stream).record(_record())
    assert stream.getvalue() == (
        "[Permission] write_file: allow (terminal-approval) - User approved this tool call\n"
    )


def test_jsonl_records_every_field_one_line_each(
    ws: Workspace, handlers: CountingHandlers, tmp_path: Path
) -> None:
    audit = tmp_path / "audit.jsonl"
    policy = load(workspace=ws.root)
    with JsonlAuditSink(audit) as sink:
        gate = policy.gate(
            approval=ApprovalService([ScriptedResponder([ALLOW])]),
            audit=[sink],
            registry=handlers.snapshot(),
            session_id="session-7",
        )
        args = {"path": "n.txt", "content": "héllo"}
        gate.handle(ToolCall("call-9", "write_file", args), ToolContext(str(ws.root), "call-9"))
        gate.handle(ToolCall("call-10", "glob", {"pattern": "*"}), ToolContext(str(ws.root), "x"))
    lines = audit.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert set(first) >= FIELDS
    assert "arguments" not in first
    assert (first["session_id"], first["call_id"], first["behavior"]) == (
        "session-7",
        "call-9",
        "allow",
    )
    assert first["arguments_sha256"] == arguments_sha256(args)
    assert first["matched_rules"][0].startswith("confirm-file-write (")
    assert first["matched_rules"][0].endswith("p03.yaml:13)")


def test_arguments_are_recorded_only_when_asked_for(
    ws: Workspace, handlers: CountingHandlers, tmp_path: Path
) -> None:
    audit = tmp_path / "audit.jsonl"
    with JsonlAuditSink(audit, fsync=False) as sink:
        gate = load("P02", workspace=ws.root).gate(
            approval=None, audit=[sink], registry=handlers.snapshot(), include_arguments=True
        )
        gate.handle(ToolCall("c", "read_file", {"path": "x"}), ToolContext(str(ws.root), "c"))
    assert json.loads(audit.read_text())["arguments"] == {"path": "x"}


def test_a_closed_sink_raises_instead_of_dropping(tmp_path: Path) -> None:
    sink = JsonlAuditSink(tmp_path / "a.jsonl")
    sink.close()
    with pytest.raises(AuditError):
        sink.record(_record())


def test_an_unwritable_audit_path_is_an_audit_error(tmp_path: Path) -> None:
    with pytest.raises(AuditError, match="cannot open audit file"):
        JsonlAuditSink(tmp_path / "missing-dir" / "a.jsonl")
