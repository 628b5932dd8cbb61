"""red15 (low): a session grant answers a later ask that is not the one the human answered.

``allowed-session`` is keyed by (session, tool, arguments). The decision of a shell line that
names files is deliberately never remembered by its text, because the disk may change between
two identical calls (``test_a_read_decided_before_a_symlink_appears_is_decided_again_after``).
The human's answer is remembered by that text all the same: the human grants ``cat
notes/hostname`` for the session when ``notes`` is a folder of the workspace and the ask is
"Shell execution requires approval"; ``notes`` becomes a link out of the workspace (a
checkout, a build step); the same line now asks "Reading outside the workspace requires
approval", and the grant answers that ask unseen. The real gate, real bubblewrap and bash
print ``/etc/hostname``.

What it should get: a grant covers the ask it answered (the same decision source and
reason), and any other ask goes to the human again (DESIGN promise 3: "ask runs the handler
only after an explicit allowed-once answer").
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from doubles import MemorySink, ScriptedResponder
from toolpolicy import load
from toolpolicy.core.vocabulary import ApprovalOutcome
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.tools.builtin import builtin_registry
from toolpolicy.tools.registry import ToolCall, ToolContext

POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
rules:
  - name: everyday
    behavior: allow
    reason: Everyday commands
    match: {commands: [echo]}
"""


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap not installed")
@pytest.mark.xfail(strict=True, reason="red15: a session grant answers a changed ask")
def test_a_grant_does_not_answer_the_ask_a_symlink_made(tmp_path: Path) -> None:
    ws = tmp_path / "project"
    (ws / "notes").mkdir(parents=True)
    (ws / "notes" / "hostname").write_text("inside-7c2e\n")
    outside = Path("/etc/hostname").read_text()  # the sandbox binds / read-only, not /tmp
    policy = ws / "toolpolicy.yaml"
    policy.write_text(POLICY)
    human = ScriptedResponder([ApprovalOutcome.ALLOWED_SESSION, ApprovalOutcome.REJECTED])
    sink = MemorySink()
    gate = load("P03", policies=[policy], workspace=ws).gate(
        approval=ApprovalService([human]),
        audit=[sink],
        registry=builtin_registry().snapshot(),
        session_id="s1",
    )
    call = {"command": "cat notes/hostname"}
    first = gate.handle(ToolCall("c1", "shell", call), ToolContext(str(ws), "c1"))
    assert first.content.strip() == "inside-7c2e"
    shutil.rmtree(ws / "notes")
    (ws / "notes").symlink_to("/etc", target_is_directory=True)
    second = gate.handle(ToolCall("c2", "shell", call), ToolContext(str(ws), "c2"))
    assert [r.reason for r in human.requests] == [
        "Shell execution requires approval",
        "Reading outside the workspace requires approval",
    ]
    assert outside not in second.content
