"""Trust the hooks ``hook install codex`` wrote, the way Codex itself records trust.

Codex runs a user hook only once ``[hooks.state."<key>"].trusted_hash`` equals the hash Codex
computes for it. That hash is Codex's to compute, so it is asked, never guessed: ``codex
app-server`` (JSON-RPC over stdio) lists the hooks it sees from the project (``hooks/list``,
each with its ``key``, ``command``, ``sourcePath``, ``currentHash`` and ``trustStatus``), and
the hash of each hook that is ours — written to ``source`` and running exactly ``command`` —
is stored through Codex's own ``config/batchWrite``. Other hooks are never trusted here.
Listing again then shows whether Codex now calls them trusted.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import time
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["CodexTrustError", "trust_codex_hooks"]

_TRUSTED = frozenset({"trusted", "managed"})


class CodexTrustError(Exception):
    """Codex could not be asked, or did not confirm the trust."""


class _AppServer:
    """One ``codex app-server`` session: requests out, the matching responses in."""

    def __init__(self, codex: str, cwd: str, timeout: float) -> None:
        try:
            self._process = subprocess.Popen(
                [codex, "app-server"],
                cwd=cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as exc:
            raise CodexTrustError(f"cannot start {codex} app-server: {exc.strerror}") from None
        self._deadline = time.monotonic() + timeout
        self._buffer = b""
        self._next = 0

    def request(self, method: str, params: Mapping[str, Any]) -> Any:
        self._next += 1
        self._send({"jsonrpc": "2.0", "id": self._next, "method": method, "params": params})
        while True:
            message = self._receive()
            if message.get("id") == self._next and "method" not in message:
                if "error" in message:
                    raise CodexTrustError(f"codex {method}: {message['error']}")
                return message.get("result")

    def notify(self, method: str) -> None:
        self._send({"jsonrpc": "2.0", "method": method})

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        try:
            self._process.wait(5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()

    def _send(self, message: Mapping[str, Any]) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        stdin.write(json.dumps(message).encode() + b"\n")
        stdin.flush()

    def _receive(self) -> dict[str, Any]:
        stdout = self._process.stdout
        assert stdout is not None
        while b"\n" not in self._buffer:
            left = self._deadline - time.monotonic()
            if left <= 0 or not select.select([stdout], [], [], left)[0]:
                raise CodexTrustError("codex app-server did not answer in time")
            chunk = os.read(stdout.fileno(), 65536)
            if not chunk:
                raise CodexTrustError("codex app-server stopped before answering")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            message = json.loads(line)
        except ValueError:
            return {}
        return message if isinstance(message, dict) else {}


def _listed(server: _AppServer, cwd: str) -> list[dict[str, Any]]:
    result = server.request("hooks/list", {"cwds": [cwd]})
    data = result.get("data", []) if isinstance(result, dict) else []
    return [hook for entry in data for hook in entry.get("hooks", []) if isinstance(hook, dict)]


def _ours(hooks: Sequence[dict[str, Any]], source: str, command: str) -> list[dict[str, Any]]:
    real = os.path.realpath(source)
    return [
        hook
        for hook in hooks
        if hook.get("command") == command
        and isinstance(hook.get("sourcePath"), str)
        and os.path.realpath(hook["sourcePath"]) == real
    ]


def trust_codex_hooks(
    codex: str, cwd: str, source: str, command: str, *, timeout: float = 30.0
) -> list[str]:
    """Trust the hooks in ``source`` that run ``command``, as Codex sees them from ``cwd``;
    return their keys. Raises :class:`CodexTrustError` when Codex cannot be asked, lists
    none of them, or does not call them trusted afterwards."""
    server = _AppServer(codex, cwd, timeout)
    try:
        server.request("initialize", {"clientInfo": {"name": "toolpolicy", "version": "1"}})
        server.notify("initialized")
        ours = _ours(_listed(server, cwd), source, command)
        if not ours:
            raise CodexTrustError(f"Codex lists no toolpolicy hook from {source}")
        state = {
            hook["key"]: {"trusted_hash": hook["currentHash"]}
            for hook in ours
            if hook.get("trustStatus") not in _TRUSTED
        }
        if state:
            edit = {"keyPath": "hooks.state", "value": state, "mergeStrategy": "upsert"}
            server.request("config/batchWrite", {"edits": [edit]})
    finally:
        server.close()
    check = _AppServer(codex, cwd, timeout)
    try:
        check.request("initialize", {"clientInfo": {"name": "toolpolicy", "version": "1"}})
        check.notify("initialized")
        after = _ours(_listed(check, cwd), source, command)
    finally:
        check.close()
    untrusted = [hook.get("key", "?") for hook in after if hook.get("trustStatus") not in _TRUSTED]
    if untrusted or not after:
        raise CodexTrustError(f"Codex does not call these hooks trusted: {', '.join(untrusted)}")
    return [str(hook["key"]) for hook in after]
