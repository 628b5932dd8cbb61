"""``toolpolicy run`` as a real subprocess: real files, a real pty for approval, real signals."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from toolpolicy.agent.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolMessage,
    UserMessage,
    validate_tool_pairing,
)
from toolpolicy.tools.registry import ToolCall

from .conftest import (
    HANG_GUARD_SECONDS,
    PROMPT,
    SEED_SCRIPT,
    ChatServer,
    PtyRun,
    Workspace,
    audit_lines,
    call,
    completion,
    run_cli,
    start_on_pty,
    write_script,
)

ALLOWED = "[Permission] write_file: allow (terminal-approval) - User approved this tool call\n"
DENIED = "[Permission] write_file: deny (terminal-approval) - User denied this tool call\n"
CANCELLED = (
    "[Permission] write_file: deny (terminal-approval) - Approval was cancelled before an answer\n"
)
GLOB_ALLOWED = "[Permission] glob: allow (default) - No permission rule blocked the request\n"
OUTSIDE_DENIED = (
    "[Permission] write_file: deny (workspace-boundary) - "
    "Writing outside the workspace is forbidden\n"
)
FINAL = json.loads(SEED_SCRIPT.read_text().splitlines()[-1])["content"]


def seed_on_pty(ws: Workspace, audit: Path, runs: list[PtyRun]) -> PtyRun:
    run = start_on_pty(
        "run", "--script", str(SEED_SCRIPT), "--workspace", str(ws.root), "--audit", str(audit)
    )
    runs.append(run)
    run.read_stderr_until(PROMPT)
    return run


def test_the_readme_command_works_without_a_terminal(ws: Workspace) -> None:
    """pip install . && toolpolicy run --script examples/seed-calls.jsonl --workspace DIR."""
    exe = shutil.which("toolpolicy")
    assert exe is not None
    done = subprocess.run(
        [exe, "run", "--script", "examples/seed-calls.jsonl", "--workspace", str(ws.root)],
        cwd=SEED_SCRIPT.parents[1],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_SECONDS,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout == FINAL + "\n"
    assert done.stderr == (
        GLOB_ALLOWED + "[Permission] write_file: deny (terminal-approval) - "
        "No approver was available to allow this tool call\n" + OUTSIDE_DENIED
    )
    assert not (ws.root / "chapter3-note.txt").exists()
    assert not ws.outside.exists()


@pytest.mark.parametrize(
    ("answer", "written", "line"),
    [
        (b"y\n", True, ALLOWED),
        (b"yes\n", True, ALLOWED),
        (b"  YES \n", True, ALLOWED),
        (b"\n", False, DENIED),
        (b"n\n", False, DENIED),
        (b"sure\n", False, DENIED),
        (b"\x04", False, CANCELLED),
    ],
    ids=["y", "yes", "YES", "empty", "n", "other", "ctrl-d"],
)
def test_the_write_inside_runs_only_after_y_or_yes_on_a_real_terminal(
    ws: Workspace, tmp_path: Path, pty_runs: list[PtyRun], answer: bytes, written: bool, line: str
) -> None:
    audit = tmp_path / "audit.jsonl"
    run = seed_on_pty(ws, audit, pty_runs)
    os.write(run.master, answer)
    code, out, err = run.finish()
    assert code == 0
    assert out == FINAL + "\n"
    note = ws.root / "chapter3-note.txt"
    if written:
        assert note.read_text() == "Chapter 3: the permission check runs before any side effect.\n"
    else:
        assert not note.exists()
    prompt = (
        "Tool call requires approval: write_file\n"
        "Reason: File writes require explicit approval from chapter 3 onward\n"
        'Arguments: {"path": "chapter3-note.txt", "content": '
        '"Chapter 3: the permission check runs before any side effect.\\n"}\n'
        "Allow this call? [y/N, a = always this exact call] "
    )
    newline_after_eof = "\n" if answer == b"\x04" else ""
    assert err == GLOB_ALLOWED + prompt + newline_after_eof + line + OUTSIDE_DENIED
    # Call C: one prompt in the whole run (B's), nothing created outside.
    assert err.count("Allow this call?") == 1
    assert not ws.outside.exists()
    records = audit_lines(audit)
    assert [(r["call_id"], r["behavior"], r["source"]) for r in records] == [
        ("call_A", "allow", "default"),
        ("call_B", "allow" if written else "deny", "terminal-approval"),
        ("call_C", "deny", "workspace-boundary"),
    ]


def test_ctrl_c_at_the_prompt_exits_130_with_the_audit_intact(
    ws: Workspace, tmp_path: Path, pty_runs: list[PtyRun]
) -> None:
    audit = tmp_path / "audit.jsonl"
    run = seed_on_pty(ws, audit, pty_runs)
    run.process.send_signal(signal.SIGINT)
    code, out, err = run.finish()
    assert code == 130
    assert out == ""
    assert err.endswith(CANCELLED + "toolpolicy: interrupted\n")
    assert "Traceback" not in err
    records = audit_lines(audit)
    assert [(r["call_id"], r["behavior"], r["approval_outcome"]) for r in records] == [
        ("call_A", "allow", None),
        ("call_B", "deny", "cancelled"),
    ]
    assert not (ws.root / "chapter3-note.txt").exists()
    assert not ws.outside.exists()


def test_the_transcript_is_the_whole_paired_history(ws: Workspace, tmp_path: Path) -> None:
    transcript = tmp_path / "t.json"
    done = run_cli(
        "run",
        "--script",
        str(SEED_SCRIPT),
        "--workspace",
        str(ws.root),
        "--prompt",
        "replay",
        "--transcript",
        str(transcript),
    )
    assert done.returncode == 0
    messages = json.loads(transcript.read_text())
    assert [m["role"] for m in messages] == ["system", "user"] + ["assistant", "tool"] * 3 + [
        "assistant"
    ]
    assert messages[1] == {"role": "user", "content": "replay"}
    assert [m["tool_call_id"] for m in messages if m["role"] == "tool"] == [
        "call_A",
        "call_B",
        "call_C",
    ]
    assert messages[-1] == {"role": "assistant", "content": FINAL}
    validate_tool_pairing(_from_chat(messages))


def test_the_turn_limit_is_a_run_error_with_one_line(ws: Workspace, tmp_path: Path) -> None:
    script = write_script(
        tmp_path / "loop.jsonl",
        [{"tool_calls": [call(f"c{i}", "glob", {"pattern": "*"})]} for i in range(3)],
    )
    transcript = tmp_path / "t.json"
    done = run_cli(
        "run",
        "--script",
        str(script),
        "--workspace",
        str(ws.root),
        "--max-turns",
        "2",
        "--transcript",
        str(transcript),
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.splitlines()[-1] == (
        "toolpolicy: no final answer after 2 turns (--max-turns 2)"
    )
    assert done.stderr.count("\n") == 3
    validate_tool_pairing(_from_chat(json.loads(transcript.read_text())))


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ({"content": "cut", "finish_reason": "length"}, "the model reply was cut off"),
        ({"finish_reason": "content_filter"}, "the model reply was withheld by a content filter"),
        ({}, "the model reply has neither text nor tool calls"),
    ],
)
def test_an_incomplete_reply_is_a_run_error(
    ws: Workspace, tmp_path: Path, reply: dict[str, str], message: str
) -> None:
    script = write_script(tmp_path / "s.jsonl", [reply])
    done = run_cli("run", "--script", str(script), "--workspace", str(ws.root))
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith(f"toolpolicy: {message}")
    assert done.stderr.count("\n") == 1


def test_a_script_that_runs_out_is_a_run_error(ws: Workspace, tmp_path: Path) -> None:
    script = write_script(
        tmp_path / "s.jsonl", [{"tool_calls": [call("a", "glob", {"pattern": "*"})]}]
    )
    done = run_cli("run", "--script", str(script), "--workspace", str(ws.root))
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        f"toolpolicy: the script {script} has no reply left (all 1 were used)"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "Error: give exactly one of --script FILE or --model NAME"),
        (
            ["--script", "x", "--model", "m"],
            "Error: give exactly one of --script FILE or --model NAME",
        ),
        (["--model", "m"], "Error: --model needs --prompt TEXT"),
        (["--script", "x", "--base-url", "http://h"], "Error: --base-url goes with --model"),
        (["--script", "x", "--max-turns", "0"], "Error: Invalid value for '--max-turns'"),
    ],
)
def test_usage_errors_exit_2(ws: Workspace, args: list[str], message: str) -> None:
    done = run_cli("run", *args, "--workspace", str(ws.root))
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stdout == ""


def test_a_bad_script_line_is_a_configuration_error_before_any_call(
    ws: Workspace, tmp_path: Path
) -> None:
    script = tmp_path / "bad.jsonl"
    script.write_text(
        json.dumps({"tool_calls": [call("b", "write_file", {"path": "n", "content": "x"})]})
        + "\n{oops\n"
    )
    done = run_cli("run", "--script", str(script), "--workspace", str(ws.root))
    assert done.returncode == 2
    assert done.stderr == (
        f"toolpolicy: {script}:2: not valid JSON: Expecting property name enclosed in double "
        "quotes (column 2)\n"
    )
    assert not (ws.root / "n").exists()


def test_an_unknown_profile_is_a_configuration_error(ws: Workspace) -> None:
    done = run_cli(
        "run", "--script", str(SEED_SCRIPT), "--workspace", str(ws.root), "--profile", "P99"
    )
    assert done.returncode == 2
    assert done.stderr.startswith("toolpolicy: unknown profile: P99")
    assert done.stderr.count("\n") == 1


def test_an_unwritable_audit_file_is_a_configuration_error(ws: Workspace, tmp_path: Path) -> None:
    audit = tmp_path / "no" / "such" / "dir" / "audit.jsonl"
    done = run_cli(
        "run", "--script", str(SEED_SCRIPT), "--workspace", str(ws.root), "--audit", str(audit)
    )
    assert done.returncode == 2
    assert done.stderr == f"toolpolicy: --audit {audit}: No such file or directory\n"
    assert not (ws.root / "chapter3-note.txt").exists()


def test_approval_never_denies_the_write_without_a_prompt(
    ws: Workspace, tmp_path: Path, pty_runs: list[PtyRun]
) -> None:
    audit = tmp_path / "audit.jsonl"
    run = start_on_pty(
        "run",
        "--script",
        str(SEED_SCRIPT),
        "--workspace",
        str(ws.root),
        "--approval",
        "never",
        "--audit",
        str(audit),
    )
    pty_runs.append(run)
    code, out, err = run.finish()
    assert code == 0
    assert out == FINAL + "\n"
    assert "Allow this call?" not in err
    assert not (ws.root / "chapter3-note.txt").exists()
    assert [r["behavior"] for r in audit_lines(audit)] == ["allow", "deny", "deny"]


def _from_chat(messages: list[dict[str, object]]) -> list[Message]:
    """Read a transcript back into messages, to check it with validate_tool_pairing."""
    out: list[Message] = []
    for m in messages:
        role, content = m["role"], m.get("content")
        if role == "system":
            out.append(SystemMessage(str(content)))
        elif role == "user":
            out.append(UserMessage(str(content)))
        elif role == "tool":
            out.append(ToolMessage(str(m["tool_call_id"]), str(content)))
        else:
            calls = m.get("tool_calls") or []
            assert isinstance(calls, list)
            out.append(
                AssistantMessage(
                    None if content is None else str(content),
                    tuple(
                        ToolCall(c["id"], c["function"]["name"], c["function"]["arguments"])
                        for c in calls
                    ),
                )
            )
    return out


def test_a_model_run_goes_through_the_same_gate(
    ws: Workspace, tmp_path: Path, server: ChatServer
) -> None:
    server.reply(
        200,
        completion(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_C",
                        "type": "function",
                        "function": {
                            "name": "write_file",
                            "arguments": '{"path": "../outside.txt", "content": "x"}',
                        },
                    }
                ],
            },
            "tool_calls",
        ),
    )
    server.reply(200, completion({"role": "assistant", "content": "refused, as it should be"}))
    audit = tmp_path / "audit.jsonl"
    env = {**os.environ, "OPENAI_API_KEY": "sk-local", "OPENAI_BASE_URL": "http://127.0.0.1:9/x"}
    done = run_cli(
        "run",
        "--model",
        "local-model",
        "--base-url",
        server.url,
        "--prompt",
        "write outside",
        "--workspace",
        str(ws.root),
        "--audit",
        str(audit),
        env=env,
    )
    assert done.returncode == 0
    assert done.stdout == "refused, as it should be\n"
    assert done.stderr == OUTSIDE_DENIED
    assert not ws.outside.exists()
    first, second = server.received
    assert first.headers["Authorization"] == "Bearer sk-local"
    assert first.body["messages"][1] == {"role": "user", "content": "write outside"}
    assert second.body["messages"][-1] == {
        "role": "tool",
        "tool_call_id": "call_C",
        "content": "Error [permission_denied]: Writing outside the workspace is forbidden",
    }
    assert [r["call_id"] for r in audit_lines(audit)] == ["call_C"]


def test_a_refused_key_is_a_run_error_with_one_line(ws: Workspace, server: ChatServer) -> None:
    server.reply(401, {"error": {"message": "Incorrect API key provided"}})
    env = {**os.environ, "OPENAI_API_KEY": "sk-wrong"}
    done = run_cli(
        "run",
        "--model",
        "m",
        "--base-url",
        server.url,
        "--prompt",
        "hi",
        "--workspace",
        str(ws.root),
        env=env,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        "toolpolicy: the model server refused the credentials (HTTP 401); check OPENAI_API_KEY: "
        "Incorrect API key provided\n"
    )


def test_a_at_the_prompt_allows_the_same_call_for_the_rest_of_the_run(
    ws: Workspace, tmp_path: Path, pty_runs: list[PtyRun]
) -> None:
    same = {"path": "note.txt", "content": "hi"}
    script = write_script(
        tmp_path / "s.jsonl",
        [
            {"tool_calls": [call("c1", "write_file", same)]},
            {"tool_calls": [call("c2", "write_file", same)]},
            {"tool_calls": [call("c3", "write_file", {**same, "content": "other"})]},
            {"content": "done"},
        ],
    )
    audit = tmp_path / "audit.jsonl"
    run = start_on_pty(
        "run", "--script", str(script), "--workspace", str(ws.root), "--audit", str(audit)
    )
    pty_runs.append(run)
    run.read_stderr_until(PROMPT)
    os.write(run.master, b"a\n")
    # The third call has other arguments: it is asked again, and refused.
    run.read_stderr_until(b"Arguments: " + json.dumps({**same, "content": "other"}).encode())
    os.write(run.master, b"n\n")
    code, out, err = run.finish()
    assert code == 0
    assert out == "done\n"
    assert err.count("Allow this call?") == 2
    assert (ws.root / "note.txt").read_text() == "hi"
    records = audit_lines(audit)
    assert [(r["call_id"], r["behavior"], r["source"], r["approval_outcome"]) for r in records] == [
        ("c1", "allow", "terminal-approval", "allowed-session"),
        ("c2", "allow", "session-grant", "allowed-session"),
        ("c3", "deny", "terminal-approval", "rejected"),
    ]


def test_audit_arguments_records_replayable_redacted_arguments(
    ws: Workspace, tmp_path: Path
) -> None:
    script = write_script(
        tmp_path / "s.jsonl",
        [
            {"tool_calls": [call("c1", "write_file", {"path": "a.txt", "content": "token=1"})]},
            {"tool_calls": [call("c2", "read_file", {"path": "README.md"})]},
            {"content": "done"},
        ],
    )
    audit = tmp_path / "audit.jsonl"
    done = run_cli(
        "run",
        "--script",
        str(script),
        "--workspace",
        str(ws.root),
        "--audit",
        str(audit),
        "--audit-arguments",
    )
    assert done.returncode == 0, done.stderr
    records = audit_lines(audit)
    assert [r["arguments"] for r in records] == [
        {
            "path": "a.txt",
            "content": "<sha256:" + hashlib.sha256(b"token=1").hexdigest() + ", 7 chars>",
        },
        {"path": "README.md"},
    ]
    assert "token=1" not in audit.read_text()


def test_without_audit_arguments_no_arguments_are_recorded(ws: Workspace, tmp_path: Path) -> None:
    audit = tmp_path / "audit.jsonl"
    done = run_cli(
        "run", "--script", str(SEED_SCRIPT), "--workspace", str(ws.root), "--audit", str(audit)
    )
    assert done.returncode == 0
    assert all("arguments" not in r for r in audit_lines(audit))


def test_run_warns_once_at_start_when_bubblewrap_is_missing(ws: Workspace) -> None:
    env = {**os.environ, "PATH": os.path.dirname(sys.executable)}
    assert shutil.which("bwrap", path=env["PATH"]) is None
    done = run_cli("run", "--script", str(SEED_SCRIPT), "--workspace", str(ws.root), env=env)
    assert done.returncode == 0
    warning = (
        "toolpolicy: warning: bubblewrap (bwrap) is not on PATH: every shell call in the "
        "workspace-write sandbox will fail with sandbox_unavailable (file tools are not "
        "affected); install it, e.g. apt-get install bubblewrap\n"
    )
    assert done.stderr.startswith(warning)
    assert done.stderr.count("warning") == 1


def test_run_does_not_warn_when_bubblewrap_is_there_or_not_needed(ws: Workspace) -> None:
    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed")
    quiet = run_cli("run", "--script", str(SEED_SCRIPT), "--workspace", str(ws.root))
    env = {**os.environ, "PATH": os.path.dirname(sys.executable)}
    unconfined = run_cli(
        "run",
        "--script",
        str(SEED_SCRIPT),
        "--workspace",
        str(ws.root),
        "--sandbox",
        "danger-full-access",
        env=env,
    )
    assert "bubblewrap" not in quiet.stderr
    assert "bubblewrap" not in unconfined.stderr
