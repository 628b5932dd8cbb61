"""Decisions as OpenTelemetry log records: the SDK's in-memory exporter, and the real OTLP/HTTP
exporter of ``toolpolicy run --audit otlp`` against a local collector."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytest.importorskip("opentelemetry.sdk")

from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor

from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.otel_audit import OtelAuditSink
from toolpolicy.engine.selection import load
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import CountingHandlers, MemorySink, Workspace

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "examples" / "seed-calls.jsonl"
CLI = "import sys; from toolpolicy.cli.main import main; sys.exit(main())"


def test_each_decision_is_a_log_record_with_the_audit_fields(
    ws: Workspace, handlers: CountingHandlers
) -> None:
    exporter = InMemoryLogRecordExporter()
    provider = LoggerProvider()
    provider.add_log_record_processor(SimpleLogRecordProcessor(exporter))
    memory = MemorySink()
    with OtelAuditSink(provider) as sink:
        gate = load("P03", workspace=ws.root).gate(
            approval=ApprovalService(),
            audit=[memory, sink],
            registry=handlers.snapshot(),
            include_arguments=True,
        )
        context = ToolContext(str(ws.root), "c")
        gate.handle(ToolCall("c1", "read_file", {"path": "a.txt"}), context)
        gate.handle(ToolCall("c2", "write_file", {"path": "../x", "content": "s"}), context)
    logs = [log.log_record for log in exporter.get_finished_logs()]
    assert len(logs) == 2
    for log, record in zip(logs, memory.records, strict=True):
        expected = {k: v for k, v in record.to_json().items() if v is not None}
        expected["matched_rules"] = tuple(expected["matched_rules"])
        expected["arguments"] = json.dumps(record.arguments, ensure_ascii=False, sort_keys=True)
        assert dict(log.attributes or {}) == expected
    assert logs[0].severity_text == "INFO"
    assert logs[0].body == (
        "[Permission] read_file: allow (default) - No permission rule blocked the request"
    )
    assert logs[1].severity_text == "WARN"
    assert logs[0].attributes is not None and logs[1].attributes is not None
    assert logs[0].attributes["arguments"] == '{"path": "a.txt"}'
    assert logs[1].attributes["reason"] == "Writing outside the workspace is forbidden"
    assert '"content": "<sha256:' in str(logs[1].attributes["arguments"])
    assert logs[1].event_name == "toolpolicy.decision"


class _Collector:
    """A local OTLP/HTTP logs endpoint that keeps every request it decodes."""

    def __init__(self) -> None:
        self.requests: list[ExportLogsServiceRequest] = []
        collector = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                request = ExportLogsServiceRequest()
                request.ParseFromString(body)
                collector.requests.append(request)
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"


@pytest.fixture
def collector() -> Iterator[_Collector]:
    found = _Collector()
    yield found
    found.server.shutdown()


def test_run_with_audit_otlp_ships_every_decision_to_the_collector(
    ws: Workspace, collector: _Collector, tmp_path: Path
) -> None:
    audit = tmp_path / "audit.jsonl"
    env = {**os.environ, "OTEL_EXPORTER_OTLP_ENDPOINT": collector.url}
    done = subprocess.run(
        [sys.executable, "-c", CLI, "run", "--script", str(SEED), "--workspace", str(ws.root),
         "--audit", str(audit), "--audit", "otlp"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    shipped = [
        (
            {
                a.key: a.value.string_value
                for a in log.attributes
                if a.value.HasField("string_value")
            },
            log.severity_text,
        )
        for request in collector.requests
        for resource in request.resource_logs
        for scope in resource.scope_logs
        for log in scope.log_records
    ]
    assert [(a["call_id"], a["behavior"], a["source"], sev) for a, sev in shipped] == [
        ("call_A", "allow", "default", "INFO"),
        ("call_B", "deny", "terminal-approval", "WARN"),
        ("call_C", "deny", "workspace-boundary", "WARN"),
    ]
    assert len(audit.read_text().splitlines()) == 3


def test_deciding_never_imports_opentelemetry(ws: Workspace) -> None:
    code = (
        "import sys, toolpolicy; "
        f"p = toolpolicy.load(workspace={str(ws.root)!r}); "
        "p.check('read_file', {'path': 'a'}); "
        "import toolpolicy.engine.audit, toolpolicy.cli.run; "
        "print(sorted(m for m in sys.modules if m.startswith('opentelemetry')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert (done.returncode, done.stdout) == (0, "[]\n"), done.stderr
