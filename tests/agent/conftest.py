"""Shared parts for agent tests: real workspaces, real policies, a real pty, the real CLI."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, TextIO

import pytest

from toolpolicy.engine.selection import ToolPolicy, load

SEED_SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "seed-calls.jsonl"
PROMPT = b"Allow this call? [y/N, a = always this exact call] "
# Guards against a hung child, never an assertion about speed.
HANG_GUARD_SECONDS = 60.0


@dataclass
class Workspace:
    root: Path
    outside: Path  # where ``../outside.txt`` from the workspace lands


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    root = tmp_path / "ws"
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "src" / "pkg" / "mod.py").write_text("x = 1\n")
    (root / "README.md").write_text("hello\n")
    return Workspace(root, tmp_path / "outside.txt")


@pytest.fixture
def p03(ws: Workspace) -> ToolPolicy:
    return load("P03", workspace=ws.root)


def write_script(path: Path, replies: Sequence[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in replies))
    return path


def call(call_id: str, name: str, arguments: dict[str, Any] | str) -> dict[str, Any]:
    """One scripted tool call."""
    return {"id": call_id, "name": name, "arguments": arguments}


@dataclass
class Pty:
    """A real pseudo-terminal: ``slave`` is a tty for the approver, ``master`` types into it."""

    master: int
    slave: int

    def type(self, text: bytes) -> None:
        os.write(self.master, text)

    def slave_reader(self) -> TextIO:
        return os.fdopen(os.dup(self.slave), "r", encoding="utf-8", closefd=True)


@pytest.fixture
def pty_pair() -> Iterator[Pty]:
    master, slave = os.openpty()
    try:
        yield Pty(master, slave)
    finally:
        os.close(master)
        os.close(slave)


def cli_command(*args: str) -> list[str]:
    """The CLI in a fresh interpreter (same as the console script)."""
    return [
        sys.executable,
        "-c",
        "import sys; from toolpolicy.cli.main import main; sys.exit(main())",
        *args,
    ]


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> Any:
    """Run the CLI with no terminal on stdin; returns the CompletedProcess."""
    return subprocess.run(
        cli_command(*args),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=HANG_GUARD_SECONDS,
        check=False,
    )


@dataclass
class PtyRun:
    """A CLI process whose stdin is the slave side of a real pty."""

    process: subprocess.Popen[bytes]
    master: int
    stderr: bytearray

    def read_stderr_until(self, marker: bytes) -> None:
        """Collect stderr until ``marker`` appears (the process is waiting there)."""
        assert self.process.stderr is not None
        fd = self.process.stderr.fileno()
        deadline = time.monotonic() + HANG_GUARD_SECONDS
        while marker not in self.stderr:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {marker!r} on stderr; got {bytes(self.stderr)!r}")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise AssertionError(f"stderr closed before {marker!r}: {bytes(self.stderr)!r}")
                self.stderr.extend(chunk)

    def finish(self) -> tuple[int, str, str]:
        """Wait for the exit; returns (code, stdout, stderr)."""
        out, err = self.process.communicate(timeout=HANG_GUARD_SECONDS)
        self.stderr.extend(err)
        return self.process.returncode, out.decode(), self.stderr.decode()


def start_on_pty(*args: str) -> PtyRun:
    master, slave = os.openpty()
    process = subprocess.Popen(
        cli_command(*args), stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    os.close(slave)
    return PtyRun(process, master, bytearray())


@pytest.fixture
def pty_runs() -> Iterator[list[PtyRun]]:
    """Processes started on a pty are killed and their masters closed at teardown."""
    runs: list[PtyRun] = []
    yield runs
    for run in runs:
        if run.process.poll() is None:
            run.process.kill()
            run.process.wait()
        for stream in (run.process.stdout, run.process.stderr):
            if stream is not None:
                stream.close()
        os.close(run.master)


@dataclass
class Canned:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class ChatServer:
    """Answers each POST with the next canned response and records what it got."""

    def __init__(self) -> None:
        self.responses: list[Canned] = []
        self.received: list[Received] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                server.received.append(Received(self.path, dict(self.headers), body))
                canned = server.responses.pop(0)
                self.send_response(canned.status)
                for name, value in canned.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(canned.body)))
                self.end_headers()
                self.wfile.write(canned.body)

            def log_message(self, format: str, *args: Any) -> None:
                return

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def reply(self, status: int, body: object, **headers: str) -> None:
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.responses.append(Canned(status, raw, headers))


@pytest.fixture
def server() -> Iterator[ChatServer]:
    chat = ChatServer()
    chat.thread.start()
    try:
        yield chat
    finally:
        chat.httpd.shutdown()
        chat.httpd.server_close()


def completion(message: dict[str, Any], finish_reason: str = "stop") -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
    }


def audit_lines(path: Path) -> list[dict[str, Any]]:
    """Every line of a JSONL audit file, parsed (fails on a partial line)."""
    text = path.read_text()
    assert text == "" or text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]
