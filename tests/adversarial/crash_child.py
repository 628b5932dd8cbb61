"""A child process for the crash tests; the parent kills it with SIGKILL or runs two at once.

``write WS AUDIT``: a real P03 gate whose responder always answers allowed-once, a
``JsonlAuditSink(fsync=True)`` and the real ``write_file`` handler write ``f{i}.txt`` (call id
``call-{i}``) for ever; ``ready`` is printed once the loop starts.

``append AUDIT TAG COUNT GO``: wait for the file ``GO`` to exist, then append ``COUNT`` large
records (call ids ``TAG-{i}``) to ``AUDIT`` as fast as possible.
"""

from __future__ import annotations

import os
import sys
import time

from toolpolicy.core.protocols import ApprovalRequest, AuditRecord
from toolpolicy.core.vocabulary import ApprovalOutcome
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.audit import JsonlAuditSink, utc_now
from toolpolicy.engine.selection import load
from toolpolicy.tools.builtin import builtin_registry
from toolpolicy.tools.registry import ToolCall, ToolContext

__all__ = ["content_of", "main"]

LINE_BYTES = 96 * 1024


class _Yes:
    name = "always-allow"

    def respond(self, request: ApprovalRequest) -> ApprovalOutcome | None:
        return ApprovalOutcome.ALLOWED_ONCE


def content_of(index: int) -> str:
    """What ``f{index}.txt`` holds once it is written."""
    return f"file {index}\n" * 200


def _write(workspace: str, audit: str) -> None:
    policy = load(workspace=workspace)
    gate = policy.gate(
        approval=ApprovalService([_Yes()]),
        audit=[JsonlAuditSink(audit, fsync=True)],
        registry=builtin_registry().snapshot(),
    )
    print("ready", flush=True)
    index = 0
    while True:
        call_id = f"call-{index}"
        arguments = {"path": f"f{index}.txt", "content": content_of(index)}
        result = gate.handle(
            ToolCall(call_id, "write_file", arguments), ToolContext(workspace, call_id)
        )
        if result.is_error:
            raise SystemExit(f"write {index} failed: {result.content}")
        index += 1


def _append(audit: str, tag: str, count: int, go: str) -> None:
    sink = JsonlAuditSink(audit, fsync=False)
    while not os.path.exists(go):
        time.sleep(0.001)
    for index in range(count):
        sink.record(
            AuditRecord(
                ts=utc_now(),
                session_id=tag,
                call_id=f"{tag}-{index}",
                tool="write_file",
                effect="write",
                behavior="allow",
                source="default",
                reason=tag * LINE_BYTES,
                matched_rules=(),
                preset="workspace-write",
                sandbox="workspace-write",
                approval="ask",
                approval_outcome=None,
                arguments_sha256="0" * 64,
            )
        )
    sink.close()


def main(argv: list[str]) -> None:
    """Dispatch on the mode (see the module docstring)."""
    if argv[0] == "write":
        _write(argv[1], argv[2])
    else:
        _append(argv[1], argv[2], int(argv[3]), argv[4])


if __name__ == "__main__":
    main(sys.argv[1:])
