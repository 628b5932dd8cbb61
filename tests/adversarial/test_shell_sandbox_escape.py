"""Approved shell commands that try to write outside the workspace under the bubblewrap sandbox.

Every ask is approved (the most permissive human); under ``workspace-write`` and ``read-only``
the sandbox still keeps the outside folder, the policy file in use and ``.git`` unchanged.
Skipped where bubblewrap is missing (then the shell refuses with ``sandbox_unavailable``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.selection import load
from toolpolicy.tools.builtin import builtin_registry
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import AlwaysAllow, MemorySink, build_trap, policy_file, snapshot_tree

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is missing")

ESCAPES = [
    "echo PWNED > ../outside/new.txt",
    "echo PWNED >> {outside}/existing.txt",
    "echo PWNED > link_out/new.txt",
    "echo PWNED > chain1/new.txt",
    "echo PWNED > dangling_out",
    "echo PWNED > file_link_out",
    "cp hard_link {outside}/copy.txt",
    "touch {outside}/touched",
    "mkdir {outside}/made",
    "ln -s /etc {outside}/etc_link",
    "rm -f {outside}/existing.txt",
    "mv {outside}/existing.txt a/",
    "cd .. && echo PWNED > outside/new.txt",
    "bash -c 'echo PWNED > ../outside/new.txt'",
    "python3 -c \"open('{outside}/py.txt', 'w').write('PWNED')\"",
    "echo PWNED > {policy}",
    "rm -f {policy}",
    "echo PWNED > .git/config",
    "echo PWNED > /tmp/../{outside}/tmp.txt",
]


HARD_LINK = (
    "BUG (sandbox limit): under workspace-write a hard link in the workspace to an outside "
    "file is written through in place; the bind-mounted workspace shares the inode"
)


@pytest.mark.parametrize("sandbox", ["workspace-write", "read-only"])
@pytest.mark.parametrize("command", ESCAPES)
def test_an_approved_shell_command_cannot_write_outside_the_sandbox(
    tmp_path: Path, sandbox: str, command: str
) -> None:
    _attempt(tmp_path, sandbox, command)


@pytest.mark.parametrize(
    "sandbox",
    [
        pytest.param("workspace-write", marks=pytest.mark.xfail(strict=True, reason=HARD_LINK)),
        "read-only",
    ],
)
def test_an_approved_shell_command_cannot_write_through_a_hard_link_to_outside(
    tmp_path: Path, sandbox: str
) -> None:
    _attempt(tmp_path, sandbox, "echo PWNED > hard_link")


def _attempt(tmp_path: Path, sandbox: str, command: str) -> None:
    """Run ``command`` approved under ``sandbox``; assert nothing protected changed."""
    trap = build_trap(tmp_path)
    (trap.ws / ".git").mkdir()
    (trap.ws / ".git" / "config").write_text("[core]\n")
    policy_path = policy_file(trap.ws, [{"behavior": "ask", "match": {"tools": ["shell"]}}])
    policy = load(workspace=trap.ws, policies=[policy_path], sandbox=sandbox)
    protected = {
        "outside": trap.outside_state(),
        "policy": policy_path.read_bytes(),
        "git": snapshot_tree(trap.ws / ".git"),
    }
    gate = policy.gate(
        approval=ApprovalService([AlwaysAllow()]),
        audit=[MemorySink()],
        registry=builtin_registry().snapshot(),
    )
    line = command.format(outside=trap.outside, policy=policy_path)
    gate.handle(ToolCall("c", "shell", {"command": line}), ToolContext(str(trap.ws), "c"))
    assert trap.outside_state() == protected["outside"]
    assert policy_path.read_bytes() == protected["policy"]
    assert snapshot_tree(trap.ws / ".git") == protected["git"]


def test_an_approved_shell_command_still_writes_inside_the_workspace(tmp_path: Path) -> None:
    # The control: the escapes above fail because of the sandbox, not because nothing runs.
    trap = build_trap(tmp_path)
    gate = load(workspace=trap.ws, sandbox="workspace-write").gate(
        approval=ApprovalService([AlwaysAllow()]),
        audit=[MemorySink()],
        registry=builtin_registry().snapshot(),
    )
    result = gate.handle(
        ToolCall("c", "shell", {"command": "echo inside > made.txt"}),
        ToolContext(str(trap.ws), "c"),
    )
    assert not result.is_error, result
    assert (trap.ws / "made.txt").read_text() == "inside\n"
