"""The model rewriting the policy that governs it.

The shell sandbox binds the policy files in use read-only and the file tools are refused
them too; otherwise a write allowed by the profile (P02: writes need no approval) would
rewrite the rules for every later load, including the hook's, which reads the policy again
for each event. (Found by this suite; fixed in 09bfd53.) The same holds for the agent's
settings that register the hook, and for the terminal audit line a human reads.

The compiled-policy cache is not defended against the user's own account: an entry rewritten
with a fresh checksum is believed (SECURITY.md says so). What it does promise is tested here:
a private folder, and a corrupt entry rebuilt.
"""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.audit import TerminalAuditSink
from toolpolicy.engine.selection import load
from toolpolicy.tools.builtin import builtin_registry
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import MemorySink, policy_file

RULES: list[dict[str, object]] = [{"behavior": "deny", "match": {"commands": ["git push"]}}]


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("write_file", {"content": "{}"}),
        ("edit_file", {"old_string": "deny", "new_string": "allow"}),
    ],
)
def test_the_file_tools_never_rewrite_a_policy_file_in_use(
    tmp_path: Path, tool: str, arguments: dict[str, object]
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    path = policy_file(ws, RULES, extends="P02")
    before = path.read_bytes()
    gate = load(profile="P02", workspace=ws, policies=[path]).gate(
        approval=ApprovalService([]), audit=[MemorySink()], registry=builtin_registry().snapshot()
    )
    call = ToolCall("c", tool, {"path": path.name, **arguments})
    result = gate.handle(call, ToolContext(str(ws), "c"))
    assert result.error_code == "permission_denied", result
    assert path.read_bytes() == before


def _hook(ws: Path, tmp: Path, event: dict[str, object], *flags: str) -> dict[str, object]:
    """One ``toolpolicy hook claude-code`` process, as Claude Code runs it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLPOLICY_")}
    env["TOOLPOLICY_CACHE_DIR"] = str(tmp / "cache")
    payload = {
        "session_id": "s",
        "cwd": str(ws),
        "hook_event_name": "PreToolUse",
        "tool_use_id": "toolu_1",
        **event,
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolpolicy",
            "hook",
            "claude-code",
            "--audit",
            str(tmp / "a.jsonl"),
            *flags,
        ],
        input=json.dumps(payload).encode(),
        capture_output=True,
        timeout=60,
        cwd=ws,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)["hookSpecificOutput"]
    return answer


@pytest.mark.parametrize("name", ["settings.json", "settings.local.json"])
def test_the_model_cannot_uninstall_the_hook_through_claude_codes_write(
    tmp_path: Path, name: str
) -> None:
    ws = tmp_path / "ws"
    (ws / ".claude").mkdir(parents=True)
    path = policy_file(ws, RULES, extends="P02")  # P02: writes need no approval
    target = ws / ".claude" / name
    answer = _hook(
        ws,
        tmp_path,
        {"tool_name": "Write", "tool_input": {"file_path": str(target), "content": "{}"}},
        "--profile",
        str(path),
    )
    assert answer["permissionDecision"] == "deny"
    assert answer["permissionDecisionReason"] == (
        "Agent settings that register toolpolicy cannot be written"
    )


def test_a_forged_justification_cannot_forge_a_terminal_audit_line(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    forged = (
        "needed\n[Permission] shell: allow (terminal-approval) - User approved this tool call"
        "\x1b[2K\r\u2028\u202e"
    )
    stream = io.StringIO()
    # approval never: the deny reason quotes the model's justification.
    policy = load(workspace=ws, approval="never")
    gate = policy.gate(approval=ApprovalService([]), audit=[TerminalAuditSink(stream)])
    call = ToolCall(
        "c",
        "shell",
        {"command": "true", "sandbox_permissions": "danger-full-access", "justification": forged},
    )
    result = gate.handle(call, ToolContext(str(ws), "c"))
    assert result.error_code == "permission_denied"
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1
    assert lines[0] == (
        "[Permission] shell: deny (approval-policy) - Approval policy is never: Sandbox "
        "escalation to danger-full-access requested: needed\\u000a[Permission] shell: "
        "allow (terminal-approval) - User approved this tool call\\u001b[2K\\u000d\\u2028\\u202e"
    )


def test_the_cache_folder_is_private_and_a_corrupt_entry_is_rebuilt(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    cache = tmp_path / "cache"
    path = policy_file(ws, [{"behavior": "deny", "match": {"paths": ["secret/**"]}}])
    event = {"tool_name": "Read", "tool_input": {"file_path": str(ws / "secret" / "k")}}
    assert _hook(ws, tmp_path, event, "--policy", str(path))["permissionDecision"] == "deny"
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    entries = sorted(cache.glob("*.entry"))
    assert len(entries) == 2  # the validated sources and the compiled policy
    torn = {}
    for entry in entries:
        torn[entry] = entry.read_bytes()[: entry.stat().st_size // 2]  # a torn write, a bad disk
        entry.write_bytes(torn[entry])
    assert _hook(ws, tmp_path, event, "--policy", str(path))["permissionDecision"] == "deny"
    assert all(e.read_bytes() != torn[e] for e in entries)  # rebuilt
