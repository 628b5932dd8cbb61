"""Crash safety of the JSONL audit: SIGKILL at random moments, and concurrent appenders.

After a kill, every audit line parses and every file that exists has its allow record (same
call id, same arguments hash) in the audit: the record is on disk before the side effect.
Two processes appending large records to one file never interleave within a line.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy.engine.audit import arguments_sha256

from .crash_child import LINE_BYTES, content_of

KILL_POINTS = 25
CHILD = Path(__file__).with_name("crash_child.py")


def _audit_lines(audit: Path) -> list[dict[str, object]]:
    """The whole lines of ``audit``. A SIGKILL between the pages of one ``write`` may leave
    the last line cut (the kernel checks for a fatal signal before each page it copies): that
    torn tail is what the next append closes and ``audit verify`` reports, and the call it
    was recording never ran, so it is dropped here; every other line must be whole JSON."""
    data = audit.read_bytes() if audit.exists() else b""
    lines = data.split(b"\n")
    return [json.loads(line) for line in lines[:-1]]


@settings(
    max_examples=KILL_POINTS,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(delay=st.floats(min_value=0.0, max_value=0.4))
def test_after_sigkill_at_any_moment_every_written_file_has_its_allow_record_before_it(
    tmp_path_factory: object, delay: float
) -> None:
    base = tmp_path_factory.mktemp("crash")  # type: ignore[attr-defined]
    ws, audit = base / "ws", base / "audit.jsonl"
    ws.mkdir()
    child = subprocess.Popen(
        [sys.executable, str(CHILD), "write", str(ws), str(audit)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == b"ready\n"
        time.sleep(delay)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.kill()
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL, child.stderr.read() if child.stderr else b""
    records = {str(r["call_id"]): r for r in _audit_lines(audit)}
    written = sorted(p.name for p in ws.iterdir() if not p.name.startswith(".toolpolicy-"))
    for name in written:
        index = int(name.removeprefix("f").removesuffix(".txt"))
        record = records.get(f"call-{index}")
        assert record is not None, f"{name} exists without an audit record"
        assert record["behavior"] == "allow"
        assert record["approval_outcome"] == "allowed-once"
        expected = {"path": name, "content": content_of(index)}
        assert record["arguments_sha256"] == arguments_sha256(expected)
        # Atomic replace: a file that exists is whole.
        assert (ws / name).read_text() == content_of(index)
    # Leftovers of a write cut short are only ever the writer's own temporary files.
    assert all(p.name.endswith(".tmp") for p in ws.iterdir() if p.name.startswith("."))


def test_two_processes_appending_to_one_audit_never_interleave_within_a_line(
    tmp_path: Path,
) -> None:
    audit, go = tmp_path / "audit.jsonl", tmp_path / "go"
    count = 300
    children = [
        subprocess.Popen(
            [sys.executable, str(CHILD), "append", str(audit), tag, str(count), str(go)],
            stderr=subprocess.PIPE,
        )
        for tag in ("A", "B")
    ]
    time.sleep(0.5)  # both are waiting for the go file: they start together
    go.touch()
    for child in children:
        assert child.wait(timeout=120) == 0, child.stderr.read() if child.stderr else b""
    lines = _audit_lines(audit)
    assert len(lines) == 2 * count
    for line in lines:
        tag = str(line["session_id"])
        assert line["reason"] == tag * LINE_BYTES
        assert str(line["call_id"]).startswith(f"{tag}-")
    tags = [line["session_id"] for line in lines]
    # The writers really overlapped (A..B..A), otherwise this test would prove nothing.
    assert sum(a != b for a, b in pairwise(tags)) >= 2
    for tag in ("A", "B"):
        ids = [line["call_id"] for line in lines if line["session_id"] == tag]
        assert ids == [f"{tag}-{i}" for i in range(count)]
