"""The hash-chained audit: every kind of tampering is named, parallel appenders keep one chain."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy.core.protocols import AuditRecord
from toolpolicy.engine.audit import JsonlAuditSink
from toolpolicy.engine.audit_verify import verify_chain

CLI = "import sys; from toolpolicy.cli.main import main; sys.exit(main())"


def _record(n: int, reason: str = "why") -> AuditRecord:
    return AuditRecord(
        ts=f"2026-11-30T12:00:{n:02d}.000000Z",
        session_id="s",
        call_id=f"c{n}",
        tool="read_file",
        effect="read",
        behavior="allow",
        source="default",
        reason=reason,
        matched_rules=(),
        preset="workspace-write",
        sandbox="workspace-write",
        approval="ask",
        approval_outcome=None,
        arguments_sha256="0" * 64,
    )


def _audit(path: Path, count: int) -> Path:
    with JsonlAuditSink(path, fsync=False) as sink:
        for n in range(1, count + 1):
            sink.record(_record(n))
    return path


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CLI, *args], capture_output=True, text=True, timeout=60, check=False
    )


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines()


def _write(path: Path, lines: list[bytes]) -> None:
    path.write_bytes(b"".join(line + b"\n" for line in lines))


def test_each_line_names_the_sha256_of_the_line_before(tmp_path: Path) -> None:
    lines = _lines(_audit(tmp_path / "a.jsonl", 3))
    parsed = [json.loads(line) for line in lines]
    assert [p["seq"] for p in parsed] == [1, 2, 3]
    assert parsed[0]["prev"] is None
    assert parsed[1]["prev"] == hashlib.sha256(lines[0]).hexdigest()
    assert parsed[2]["prev"] == hashlib.sha256(lines[1]).hexdigest()
    assert list(parsed[0])[:3] == ["seq", "prev", "ts"]


def test_a_second_sink_continues_the_chain_of_the_first(tmp_path: Path) -> None:
    path = _audit(tmp_path / "a.jsonl", 2)
    _audit(path, 2)
    assert [json.loads(line)["seq"] for line in _lines(path)] == [1, 2, 3, 4]
    assert verify_chain(path).intact


def test_verify_prints_the_count_and_the_head(tmp_path: Path) -> None:
    path = _audit(tmp_path / "a.jsonl", 4)
    head = hashlib.sha256(_lines(path)[-1]).hexdigest()
    done = _cli("audit", "verify", str(path))
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        f"4 records, chain intact, head {head}\n",
        "",
    )


def _tampered(path: Path, kind: str) -> None:
    lines = _lines(path)
    if kind == "edited":
        lines[1] = lines[1].replace(b'"allow"', b'"deny"')
    elif kind == "deleted":
        del lines[2]
    elif kind == "reordered":
        lines[2], lines[3] = lines[3], lines[2]
    elif kind == "inserted":
        # A forger who knows the format: the next seq and the right prev.
        forged = json.loads(lines[1])
        forged.update(seq=3, prev=hashlib.sha256(lines[1]).hexdigest(), call_id="forged")
        lines.insert(2, json.dumps(forged, separators=(",", ":")).encode())
    _write(path, lines)


@pytest.mark.parametrize(
    ("kind", "line", "message"),
    [
        ("edited", 3, "its prev does not match line 2: line 2 was edited"),
        ("deleted", 3, "1 record(s) deleted after line 2 (seq 3)"),
        ("reordered", 3, "seq 4 comes where seq 3 belongs"),
        ("inserted", 4, "seq 3 repeats an earlier line's: a line was inserted before it"),
    ],
)
def test_verify_names_the_first_broken_line_and_what_happened(
    tmp_path: Path, kind: str, line: int, message: str
) -> None:
    path = _audit(tmp_path / "a.jsonl", 6)
    _tampered(path, kind)
    done = _cli("audit", "verify", str(path))
    assert done.returncode == 1
    assert done.stdout == f"{path}:{line}: chain broken ({kind}): {message}\n"
    as_json = json.loads(_cli("audit", "verify", str(path), "--format", "json").stdout)
    assert as_json["intact"] is False
    assert as_json["broken"] == {"line": line, "kind": kind, "message": message}


def test_a_cut_tail_is_caught_only_with_the_head_kept_elsewhere(tmp_path: Path) -> None:
    path = _audit(tmp_path / "a.jsonl", 5)
    head = verify_chain(path).head
    assert head is not None
    _audit(path, 2)  # appended after the head was kept: still fine
    assert _cli("audit", "verify", str(path), "--head", head).returncode == 0
    _write(path, _lines(path)[:4])
    assert _cli("audit", "verify", str(path)).returncode == 0  # the file alone cannot tell
    done = _cli("audit", "verify", str(path), "--head", head)
    assert done.returncode == 1
    assert done.stdout == (
        f"{path}:4: chain broken (truncated): the expected head {head} is not in the chain: "
        "lines were cut off the end or the file was rewritten\n"
    )


def test_a_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    done = _cli("audit", "verify", str(tmp_path / "none.jsonl"))
    assert done.returncode == 2
    assert "does not exist" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_torn_tail_is_closed_by_the_next_append_and_reported(tmp_path: Path) -> None:
    path = _audit(tmp_path / "a.jsonl", 2)
    with path.open("ab") as stream:
        stream.write(b'{"seq":3,"prev":"cut mid-li')
    _audit(path, 1)
    data = path.read_bytes()
    assert data.endswith(b"\n")
    assert all(line.startswith(b"{") for line in data.splitlines())
    report = verify_chain(path)
    assert report.broken is not None
    assert (report.broken.line, report.broken.kind) == (3, "edited")


WRITER = """
import sys
from toolpolicy.core.protocols import AuditRecord
from toolpolicy.engine.audit import JsonlAuditSink
path, who, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
with JsonlAuditSink(path, fsync=False) as sink:
    for n in range(count):
        sink.record(AuditRecord("t", who, f"{who}-{n}", "shell", "execute", "ask", "s",
            "x" * 3000, (), "p", "workspace-write", "ask", None, "0" * 64))
"""


def test_parallel_processes_appending_keep_one_chain_of_whole_lines(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), f"w{i}", "150"])
        for i in range(4)
    ]
    assert [w.wait(timeout=120) for w in writers] == [0, 0, 0, 0]
    lines = _lines(path)
    assert len(lines) == 600
    assert {json.loads(line)["call_id"] for line in lines} == {
        f"w{i}-{n}" for i in range(4) for n in range(150)
    }
    report = verify_chain(path)
    assert (report.records, report.broken) == (600, None)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    kind=st.sampled_from(["edit", "delete", "swap", "duplicate"]),
    index=st.integers(min_value=0, max_value=6),
    offset=st.integers(min_value=0, max_value=400),
)
def test_no_change_to_a_line_before_the_last_goes_unnoticed(
    tmp_path_factory: pytest.TempPathFactory, kind: str, index: int, offset: int
) -> None:
    path = _audit(tmp_path_factory.mktemp("chain") / "a.jsonl", 8)
    head = verify_chain(path).head
    lines = _lines(path)
    if kind == "edit":
        line = lines[index]
        at = offset % len(line)
        lines[index] = line[:at] + bytes([line[at] ^ 0x01]) + line[at + 1 :]
    elif kind == "delete":
        del lines[index]
    elif kind == "swap":
        lines[index], lines[index + 1] = lines[index + 1], lines[index]
    else:
        lines.insert(index, lines[index])
    _write(path, lines)
    assert not verify_chain(path, head).intact
