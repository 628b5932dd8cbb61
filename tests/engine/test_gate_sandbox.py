"""The gate runs the real shell in the sandbox its decision carries, policy files read-only."""

from __future__ import annotations

import shutil

import pytest

from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.selection import load
from toolpolicy.tools.builtin import builtin_registry
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import ALLOW, MemorySink, ScriptedResponder, Workspace

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap not installed")

POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
rules:
  - name: no-pushes
    behavior: deny
    reason: Never push from an agent
    match: {commands: [git push]}
"""


def test_the_policy_file_in_use_stays_read_only_for_an_approved_shell_call(ws: Workspace) -> None:
    policy_file = ws.root / "team.yaml"
    policy_file.write_text(POLICY)
    policy = load(workspace=ws.root, policies=[policy_file])
    gate = policy.gate(
        approval=ApprovalService([ScriptedResponder([ALLOW, ALLOW])]),
        audit=[MemorySink()],
        registry=builtin_registry().snapshot(),
    )
    tamper = gate.handle(
        # Not plain (a parameter expansion), and the target's name is never written whole, so
        # no rule and no protected-set check sees it: the sandbox must hold.
        ToolCall("c1", "shell", {"command": "f=team; echo '- oops' >> \"$f.yaml\""}),
        ToolContext(str(ws.root), "c1"),
    )
    work = gate.handle(
        ToolCall("c2", "shell", {"command": "echo ok > out.txt && cat out.txt"}),
        ToolContext(str(ws.root), "c2"),
    )
    assert tamper.error_code == "shell_failed"
    assert policy_file.read_text() == POLICY
    assert work.content.strip() == "ok"
    assert (ws.root / "out.txt").read_text() == "ok\n"


def test_a_denied_compound_command_never_reaches_the_shell(ws: Workspace) -> None:
    policy_file = ws.root / "team.yaml"
    policy_file.write_text(POLICY)
    responder = ScriptedResponder([ALLOW])
    policy = load(workspace=ws.root, policies=[policy_file])
    gate = policy.gate(
        approval=ApprovalService([responder]),
        audit=[MemorySink()],
        registry=builtin_registry().snapshot(),
    )
    result = gate.handle(
        ToolCall("c", "shell", {"command": "touch ran.txt && git push origin main"}),
        ToolContext(str(ws.root), "c"),
    )
    assert result.content == "Error [permission_denied]: Never push from an agent"
    assert responder.requests == []
    assert not (ws.root / "ran.txt").exists()
