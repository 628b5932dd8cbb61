"""Recorded calls (plain JSONL, audit files, scripted replies) are replayed against both sides."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolpolicy.core.protocols import AuditRecord
from toolpolicy.diff import Change, RecordedCallsError, read_recorded_calls, run_diff
from toolpolicy.diff.probes import Probe
from toolpolicy.engine.audit import JsonlAuditSink, arguments_sha256
from toolpolicy.engine.selection import load
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import run_cli


def _record(tool: str, arguments: dict[str, object], *, raw: bool) -> AuditRecord:
    return AuditRecord(
        ts="2026-01-01T00:00:00.000000Z",
        session_id="s",
        call_id="c",
        tool=tool,
        effect="write",
        behavior="allow",
        source="default",
        reason="No permission rule blocked the request",
        matched_rules=(),
        preset="workspace-write",
        sandbox="workspace-write",
        approval="ask",
        approval_outcome=None,
        arguments_sha256=arguments_sha256(arguments),
        arguments=arguments if raw else None,
    )


def test_plain_jsonl_calls_are_read_with_their_file_and_line(tmp_path: Path) -> None:
    calls = tmp_path / "calls.jsonl"
    calls.write_text(
        '{"tool": "write_file", "arguments": {"path": "vendor/x.c", "content": "x"}}\n'
        "\n"
        '{"tool": "shell", "arguments": "{\\"command\\": \\"make\\"}"}\n',
        encoding="utf-8",
    )
    found = read_recorded_calls(str(calls))
    assert found.skipped == 0
    assert found.probes == (
        Probe("write_file", {"path": "vendor/x.c", "content": "x"}, f"recorded {calls}:1"),
        Probe("shell", {"command": "make"}, f"recorded {calls}:3"),
    )


def test_an_audit_file_replays_the_lines_with_arguments_and_counts_the_rest(tmp_path: Path) -> None:
    audit = tmp_path / "audit.jsonl"
    with JsonlAuditSink(audit, fsync=False) as sink:
        sink.record(_record("write_file", {"path": "a.txt", "content": "x"}, raw=True))
        sink.record(_record("write_file", {"path": "b.txt", "content": "x"}, raw=False))
        sink.record(_record("read_file", {"path": "c.txt"}, raw=False))
    found = read_recorded_calls(str(audit))
    assert [(p.tool, p.arguments) for p in found.probes] == [
        ("write_file", {"path": "a.txt", "content": "x"})
    ]
    assert found.skipped == 2


def test_a_scripted_session_is_replayed_call_by_call(tmp_path: Path) -> None:
    script = tmp_path / "session.jsonl"
    script.write_text(
        json.dumps(
            {
                "tool_calls": [
                    {"id": "A", "name": "glob", "arguments": {"pattern": "*"}},
                    {"id": "B", "name": "read_file", "arguments": '{"path": "x"}'},
                ]
            }
        )
        + "\n"
        + json.dumps({"content": "done"})
        + "\n",
        encoding="utf-8",
    )
    found = read_recorded_calls(str(script))
    assert [(p.tool, p.arguments) for p in found.probes] == [
        ("glob", {"pattern": "*"}),
        ("read_file", {"path": "x"}),
    ]
    assert found.skipped == 0


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "{not json",
            "not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        ),
        ("[1, 2]", "expected a JSON object"),
        ('{"arguments": {}}', "the tool name must be a non-empty string"),
        ('{"tool": "shell"}', 'expected {"tool", "arguments"}'),
        ('{"tool": "shell", "arguments": 3}', "arguments must be a JSON object or a JSON string"),
        ('{"tool_calls": {"name": "x"}}', "tool_calls must be a list of objects"),
    ],
)
def test_a_bad_line_stops_the_replay_at_file_and_line(
    tmp_path: Path, line: str, message: str
) -> None:
    calls = tmp_path / "calls.jsonl"
    calls.write_text(
        '{"tool": "glob", "arguments": {"pattern": "*"}}\n' + line + "\n", encoding="utf-8"
    )
    with pytest.raises(RecordedCallsError) as caught:
        read_recorded_calls(str(calls))
    assert str(caught.value) == f"{calls}:2: {message}"


def test_arguments_that_are_not_an_object_are_kept_raw_and_rejected_on_both_sides(
    tmp_path: Path,
) -> None:
    calls = tmp_path / "calls.jsonl"
    calls.write_text('{"tool": "shell", "arguments": "[1]"}\n', encoding="utf-8")
    report = run_diff("P02", "P03", calls=str(calls))
    replayed = next(r for r in report.results if r.probe.origin.startswith("recorded"))
    assert replayed.probe.arguments == "[1]"
    assert replayed.left == replayed.right
    assert replayed.left.source == "invalid_arguments"


def test_recorded_calls_are_replayed_against_a_proposed_change(tmp_path: Path, team: Path) -> None:
    calls = tmp_path / "calls.jsonl"
    calls.write_text(
        '{"tool": "edit_file", "arguments": {"path": "third_party/zlib/inflate.c", '
        '"old_string": "a", "new_string": "b"}}\n'
        '{"tool": "write_file", "arguments_sha256": "00"}\n',
        encoding="utf-8",
    )
    report = run_diff("P03", str(team), calls=str(calls))
    assert (report.calls_file, report.replayed, report.skipped) == (str(calls), 1, 1)
    replayed = [r for r in report.differences if r.probe.origin == f"recorded {calls}:1"]
    assert len(replayed) == 1
    assert replayed[0].change is Change.NARROW
    assert replayed[0].right.source == "no-vendored-c"


AUDIT_WITH_ARGUMENTS = Path(__file__).parent / "data" / "audit-arguments.jsonl"


def test_an_audit_recorded_with_arguments_is_replayed_redacted_values_and_all(
    tmp_path: Path, team: Path
) -> None:
    """The audit shape of ``--audit-arguments``: ``content`` and secrets are strings in the
    record; they decide the same, so the call replays; a line without ``arguments`` is not
    replayable and is counted."""
    found = read_recorded_calls(str(AUDIT_WITH_ARGUMENTS))
    assert [(p.tool, p.arguments) for p in found.probes] == [
        (
            "write_file",
            {
                "path": "third_party/zlib/inflate.c",
                "content": "<sha256:3f5a0c2d9e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b"
                "3a21, 1200 chars>",
            },
        ),
        ("shell", {"command": "git status"}),
        (
            "edit_file",
            {
                "path": "src/config.py",
                "old_string": "<sha256:11aa22bb33cc44dd55ee66ff77008899aabbccddeeff001122334455"
                "66778899, 40 chars>",
                "new_string": "<sha256:5d41402abc4b2a76b9719d911017c592aaf4dbb1a1e2c3d4e5f6071829"
                "3a4b5c, 24 chars>",
                "api_token": "<redacted>",
            },
        ),
    ]
    assert found.skipped == 1
    report = run_diff("P03", str(team), calls=str(AUDIT_WITH_ARGUMENTS))
    replayed = [r for r in report.results if r.probe.origin.startswith("recorded ")]
    assert [(r.probe.tool, r.change) for r in replayed] == [
        ("write_file", Change.NARROW),
        ("shell", Change.NONE),
        ("edit_file", Change.NONE),  # an unknown argument: both sides reject it alike
    ]
    assert replayed[0].right.source == "no-vendored-c"
    assert replayed[0].probe.region is None
    assert replayed[2].left.source == "invalid_arguments"


def test_a_real_audit_recorded_with_arguments_replays_through_diff(
    tmp_path: Path, team: Path
) -> None:
    """The gate's own audit lines (``include_arguments``, the CLI's ``--audit-arguments``),
    content redacted to its digest, replay against a proposed policy."""
    ws = tmp_path / "ws"
    ws.mkdir()
    audit = tmp_path / "audit.jsonl"
    calls = [
        ToolCall("c1", "write_file", {"path": "third_party/zlib/inflate.c", "content": "int x;"}),
        ToolCall("c2", "edit_file", {"path": "src/a.py", "old_string": "a", "new_string": "b"}),
    ]
    with JsonlAuditSink(audit, fsync=False) as sink:
        gate = load("P02", workspace=str(ws)).gate(approval=None, audit=[sink])
        gate.handle(ToolCall("c0", "read_file", {"path": "README.md"}), ToolContext(str(ws)))
        recording = load("P02", workspace=str(ws)).gate(
            approval=None, audit=[sink], include_arguments=True
        )
        for call in calls:
            recording.handle(call, ToolContext(str(ws), call.id))
    found = read_recorded_calls(str(audit))
    assert found.skipped == 1
    write = found.probes[0]
    assert write.arguments["path"] == "third_party/zlib/inflate.c"  # type: ignore[index]
    assert str(write.arguments["content"]).startswith("<sha256:")  # type: ignore[index]
    assert "int x;" not in audit.read_text(encoding="utf-8")
    report = run_diff("P03", str(team), calls=str(audit))
    assert (report.replayed, report.skipped) == (2, 1)
    replayed = [r for r in report.results if r.probe.origin.startswith("recorded ")]
    assert [(r.probe.tool, r.change, r.right.source) for r in replayed] == [
        ("write_file", Change.NARROW, "no-vendored-c"),
        ("edit_file", Change.NONE, "confirm-file-write"),
    ]


def test_the_text_report_says_why_audit_lines_were_not_replayed(tmp_path: Path) -> None:
    done = run_cli("diff", "P03", "P03", "--calls", str(AUDIT_WITH_ARGUMENTS), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[2].endswith(
        f"(replayed 3 recorded calls from {AUDIT_WITH_ARGUMENTS}; 1 lines not replayable: "
        "no arguments recorded (record with --audit-arguments))"
    )
