"""`toolpolicy hook claude-code` as Claude Code runs it: one process per event.

One section per point of the hook's contract (README, "toolpolicy hook claude-code").
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from toolpolicy.engine.audit_verify import verify_chain

from .conftest import HEAVY, Hook, golden, modules_after_hook

DENY_OUTSIDE = ("deny", "Writing outside the workspace is forbidden")
WRITE_ASKS = ("ask", "File writes require explicit approval from chapter 3 onward")
SHELL_ASKS = ("ask", "Shell execution requires approval")
NEVER_SHELL = ("deny", "Approval policy is never: Shell execution requires approval")
SECRETS = (
    "{name: env, behavior: deny, reason: Secrets stay closed, match: {paths: [.env, secrets/]}}"
)


# -- 1. workspace ---------------------------------------------------------------------------


def test_claude_project_dir_is_the_workspace_whatever_cwd_followed(hook: Hook) -> None:
    (hook.ws / "src").mkdir()
    event = golden("pre_tool_use_write_after_cd", hook.ws, hook.home)["event"]
    assert event["cwd"] == str(hook.ws / "src")  # Claude Code's cwd followed `cd src`
    assert hook.answer(event) == WRITE_ASKS
    hook.project_dir = None
    assert hook.answer(event) == DENY_OUTSIDE  # the event's cwd is the fallback
    assert hook.answer(event, "--workspace", str(hook.ws)) == WRITE_ASKS


def test_path_rules_stay_anchored_at_the_project_when_cwd_is_a_subfolder(hook: Hook) -> None:
    (hook.ws / "src").mkdir()
    policy = hook.policy(
        "{name: top, behavior: deny, reason: Top config, match: {paths: [/config.yaml]}}"
    )
    flags = ("--policy", str(policy))
    cwd = str(hook.ws / "src")
    top = {"file_path": str(hook.ws / "config.yaml")}
    assert hook.decide("Read", top, *flags, cwd=cwd) == ("deny", "Top config")
    assert hook.decide("Read", {"file_path": "config.yaml"}, *flags, cwd=cwd) == "none"


# -- 2. no opinion ---------------------------------------------------------------------------


def test_a_default_allow_prints_nothing_and_is_audited_as_no_answer(hook: Hook) -> None:
    done = hook.run(hook.event("Read", {"file_path": str(hook.ws / "a.txt")}))
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    [record] = hook.records()
    assert (record["behavior"], record["source"], record["answered"]) == (
        "allow",
        "default",
        "none",
    )


def test_an_explicit_allow_rule_answers_allow_and_explicit_allow_restores_the_old_answer(
    hook: Hook,
) -> None:
    policy = hook.policy(
        "{name: docs, behavior: allow, reason: Docs are public, match: {paths: [docs/**]}}"
    )
    flags = ("--policy", str(policy))
    assert hook.decide("Read", {"file_path": str(hook.ws / "docs/a.md")}, *flags) == (
        "allow",
        "Docs are public",
    )
    assert hook.decide("Read", {"file_path": str(hook.ws / "a.md")}, *flags) == "none"
    assert hook.decide("Read", {"file_path": str(hook.ws / "a.md")}, "--explicit-allow") == (
        "allow",
        "No permission rule blocked the request",
    )


def test_reads_outside_the_project_are_left_to_claude_code(hook: Hook) -> None:
    for path in ("/etc/hostname", "~/.ssh/id_rsa", "/etc/shadow"):
        assert hook.decide("Read", {"file_path": path}) == "none"


# -- 3. paths anywhere -----------------------------------------------------------------------


def test_rules_on_absolute_and_home_paths_close_reads_wherever_the_file_is(hook: Hook) -> None:
    secret = hook.outside / "secret.txt"
    secret.write_text("s")
    policy = hook.policy(
        "{name: keys, behavior: deny, reason: Keys stay home, match: {paths: ['~/.ssh/**']}}",
        f"{{name: other, behavior: ask, reason: Ask first, match: {{paths: ['/{secret}']}}}}",
    )
    flags = ("--policy", str(policy))
    assert hook.decide("Read", {"file_path": "~/.ssh/id_rsa"}, *flags) == ("deny", "Keys stay home")
    assert hook.decide("Read", {"file_path": str(hook.home / ".ssh/id_ed25519")}, *flags) == (
        "deny",
        "Keys stay home",
    )
    assert hook.decide("Read", {"file_path": str(secret)}, *flags) == ("ask", "Ask first")
    assert hook.decide("Read", {"file_path": str(hook.outside / "other.txt")}, *flags) == "none"


def test_an_allow_on_an_outside_path_never_opens_a_write_there(hook: Hook) -> None:
    target = hook.outside / "x.txt"
    policy = hook.policy(
        f"{{name: open, behavior: allow, reason: Fine, match: {{paths: ['/{hook.outside}/**']}}}}"
    )
    flags = ("--policy", str(policy))
    assert hook.decide("Read", {"file_path": str(target)}, *flags) == ("allow", "Fine")
    assert hook.decide("Write", {"file_path": str(target), "content": "x"}, *flags) == DENY_OUTSIDE
    assert not target.exists()


# -- 4. spellings ----------------------------------------------------------------------------


def test_every_spelling_of_a_closed_file_is_denied(hook: Hook) -> None:
    (hook.ws / ".env").write_text("K=v")
    (hook.ws / "sub").mkdir()
    (hook.ws / "link").symlink_to(hook.ws / "sub", target_is_directory=True)
    flags = ("--policy", str(hook.policy(SECRETS)))
    for spelling in (
        str(hook.ws / ".env"),
        "/proc/self/cwd/.env",
        f"/proc/self/root{hook.ws}/.env",
        "/proc/thread-self/cwd/sub/../.env",
        str(hook.ws / "sub" / ".." / ".env"),
        str(hook.ws / "link" / ".." / "sub" / ".." / ".env"),
        ".env",
    ):
        assert hook.decide("Read", {"file_path": spelling}, *flags) == (
            "deny",
            "Secrets stay closed",
        ), spelling


def test_another_process_cwd_is_read_from_the_kernel(hook: Hook) -> None:
    (hook.ws / ".env").write_text("K=v")
    flags = ("--policy", str(hook.policy(SECRETS)))
    sleeper = subprocess.Popen(["sleep", "30"], cwd=hook.ws)
    try:
        path = f"/proc/{sleeper.pid}/cwd/.env"
        assert hook.decide("Read", {"file_path": path}, *flags) == ("deny", "Secrets stay closed")
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_descriptor_of_the_agent_cannot_be_resolved_so_it_asks(hook: Hook) -> None:
    reason = (
        "The path names one of the agent's open file descriptors; toolpolicy cannot tell "
        "which file it is"
    )
    for path in ("/dev/fd/3", "/proc/self/fd/0", "/dev/stdin"):
        assert hook.decide("Read", {"file_path": path}) == ("ask", reason)
    assert hook.decide("Write", {"file_path": "/dev/fd/1", "content": "x"}) == DENY_OUTSIDE


# -- 5. scopes -------------------------------------------------------------------------------


@pytest.fixture
def secrets(hook: Hook) -> tuple[str, ...]:
    (hook.ws / ".env").write_text("K=v")
    (hook.ws / "secrets").mkdir()
    (hook.ws / "secrets" / "key.pem").write_text("k")
    (hook.ws / "src").mkdir()
    (hook.ws / "src" / "app.py").write_text("print()")
    return ("--policy", str(hook.policy(SECRETS)))


def test_a_search_that_only_selects_closed_files_is_denied(
    hook: Hook, secrets: tuple[str, ...]
) -> None:
    closed = ("deny", "Secrets stay closed")
    ws = str(hook.ws)
    assert hook.decide("Grep", {"pattern": "K", "path": ws, "glob": ".env"}, *secrets) == closed
    assert hook.decide("Grep", {"pattern": "K", "path": f"{ws}/secrets"}, *secrets) == closed
    assert hook.decide("Glob", {"pattern": "*", "path": f"{ws}/secrets"}, *secrets) == closed
    assert hook.decide("Glob", {"pattern": ".e{nv,nvrc}"}, *secrets) == closed
    assert hook.decide("LS", {"path": f"{ws}/secrets"}, *secrets) == closed


def test_a_search_over_a_scope_that_holds_a_closed_file_asks_naming_the_rule(
    hook: Hook, secrets: tuple[str, ...]
) -> None:
    assert hook.decide("Grep", {"pattern": "K", "path": str(hook.ws)}, *secrets) == (
        "ask",
        f"Grep searches {hook.ws}, which holds .env, closed by rule env: Secrets stay closed",
    )


def test_a_search_that_selects_no_closed_file_is_left_to_claude_code(
    hook: Hook, secrets: tuple[str, ...]
) -> None:
    ws = str(hook.ws)
    assert hook.decide("Grep", {"pattern": "x", "path": ws, "type": "py"}, *secrets) == "none"
    assert hook.decide("Grep", {"pattern": "x", "glob": "*.{py,md}"}, *secrets) == "none"
    assert hook.decide("Glob", {"pattern": "**/*.py", "path": ws}, *secrets) == "none"
    assert hook.decide("LS", {"path": ws}, *secrets) == "none"  # names only


# -- 6. the catalog --------------------------------------------------------------------------

BOOKKEEPING = [
    ("TodoWrite", {"todos": []}),
    ("ExitPlanMode", {"plan": "p"}),
    ("Task", {"description": "d", "prompt": "p", "subagent_type": "general-purpose"}),
    ("Agent", {"description": "d", "prompt": "p"}),
    ("BashOutput", {"bash_id": "1"}),
    ("KillShell", {"shell_id": "1"}),
    ("AskUserQuestion", {"questions": []}),
    ("ToolSearch", {"query": "q"}),
    ("TaskCreate", {"subject": "s", "description": "d"}),
    ("TaskUpdate", {"taskId": "1", "status": "completed"}),
    ("TaskList", {}),
    ("SlashCommand", {"command": "/help"}),
]


@pytest.mark.parametrize("preset", ["workspace-write", "read-only", "danger-full-access"])
def test_bookkeeping_tools_get_no_opinion_under_every_preset(hook: Hook, preset: str) -> None:
    for tool, tool_input in BOOKKEEPING:
        assert hook.decide(tool, tool_input, "--preset", preset) == "none", tool


def test_a_rule_that_names_a_bookkeeping_tool_still_speaks(hook: Hook) -> None:
    policy = hook.policy(
        "{name: no-agents, behavior: deny, reason: No subagents, match: {tools: [Task, Agent]}}"
    )
    assert hook.decide("Agent", {"prompt": "p"}, "--policy", str(policy)) == (
        "deny",
        "No subagents",
    )


def test_unknown_and_mcp_tools_ask_and_web_tools_are_left_to_claude_code(hook: Hook) -> None:
    asks = ("ask", "Tool execution requires approval")
    assert hook.decide("FutureTool", {}) == asks
    assert hook.decide("mcp__github__create_issue", {"title": "t"}) == asks
    assert hook.decide("WebFetch", {"url": "https://example.com", "prompt": "p"}) == "none"
    policy = hook.policy(
        "{name: offline, behavior: deny, reason: Offline, match: {tools: [WebFetch]}}"
    )
    assert hook.decide("WebFetch", {"url": "u", "prompt": "p"}, "--policy", str(policy)) == (
        "deny",
        "Offline",
    )


def test_multiedit_decides_every_path_it_names(hook: Hook) -> None:
    edits = [
        {"old_string": "a", "new_string": "b"},
        {"file_path": str(hook.outside / "x.py"), "old_string": "c", "new_string": "d"},
    ]
    inside = str(hook.ws / "a.py")
    assert hook.decide("MultiEdit", {"file_path": inside, "edits": edits}) == DENY_OUTSIDE
    assert hook.decide("MultiEdit", {"file_path": inside, "edits": edits[:1]}) == WRITE_ASKS


def test_a_command_rule_holds_for_bash_and_powershell(hook: Hook) -> None:
    policy = hook.policy(
        "{name: no-push, behavior: deny, reason: Never push, match: {commands: [git push]}}"
    )
    flags = ("--policy", str(policy))
    assert hook.decide("Bash", {"command": "git add . && git push"}, *flags) == (
        "deny",
        "Never push",
    )
    assert hook.decide("PowerShell", {"command": "git push"}, *flags) == ("deny", "Never push")


# -- 7. permission_mode ----------------------------------------------------------------------


def test_plan_mode_denies_every_write(hook: Hook) -> None:
    plan = ("deny", "Claude Code is in plan mode: no file is written")
    inside = {"file_path": str(hook.ws / "a.py"), "content": "x"}
    assert hook.decide("Write", inside, permission_mode="plan") == plan
    assert hook.decide("Write", inside, "--profile", "P02", permission_mode="plan") == plan
    assert hook.decide("Read", {"file_path": inside["file_path"]}, permission_mode="plan") == "none"


def test_dont_ask_turns_every_ask_into_the_never_deny_and_the_audit_says_so(hook: Hook) -> None:
    assert hook.decide("Bash", {"command": "ls"}, permission_mode="dontAsk") == NEVER_SHELL
    [record] = hook.records()
    assert (record["behavior"], record["source"], record["permission_mode"]) == (
        "deny",
        "approval-policy",
        "dontAsk",
    )


def test_bypass_permissions_keeps_ask_and_deny(hook: Hook) -> None:
    outside = {"file_path": str(hook.outside / "x"), "content": "x"}
    assert hook.decide("Bash", {"command": "ls"}, permission_mode="bypassPermissions") == SHELL_ASKS
    assert hook.decide("Write", outside, permission_mode="bypassPermissions") == DENY_OUTSIDE


def test_accept_edits_leaves_an_edit_inside_to_claude_code_and_keeps_denies(hook: Hook) -> None:
    inside = {"file_path": str(hook.ws / "a.py"), "content": "x"}
    outside = {"file_path": str(hook.outside / "x"), "content": "x"}
    assert hook.decide("Write", inside, permission_mode="acceptEdits") == "none"
    assert hook.decide("Write", outside, permission_mode="acceptEdits") == DENY_OUTSIDE
    assert hook.decide("Bash", {"command": "ls"}, permission_mode="acceptEdits") == SHELL_ASKS


# -- 8. more events --------------------------------------------------------------------------


def test_permission_request_is_answered_by_rules_only(hook: Hook) -> None:
    policy = hook.policy(
        "{name: host, behavior: allow, reason: Fine,"
        " match: {effects: [read], paths: ['//etc/hostname']}}",
        "{name: no-push, behavior: deny, reason: Never push, match: {commands: [git push]}}",
    )
    flags = ("--policy", str(policy))

    def request(tool: str, tool_input: dict[str, object]) -> dict[str, object]:
        event = hook.event(tool, tool_input, hook_event_name="PermissionRequest")
        del event["tool_use_id"]  # Claude Code sends none with this event
        return event

    assert hook.answer(request("Read", {"file_path": "/etc/hostname"}), *flags) == ("allow", "")
    assert hook.answer(request("Bash", {"command": "git push"}), *flags) == ("deny", "Never push")
    assert hook.answer(request("Bash", {"command": "make"}), *flags) == "none"  # Claude Code asks
    write = {"file_path": str(hook.ws / "a.py"), "content": "x"}
    assert hook.answer(request("Write", write), *flags) == "none"


def test_post_tool_use_appends_what_ran_to_the_audit(hook: Hook) -> None:
    (hook.ws / "src").mkdir()
    event = golden("post_tool_use_bash_after_cd", hook.ws, hook.home)["event"]
    done = hook.run(event)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    [record] = hook.records()
    assert (record["behavior"], record["call_id"], record["tool"], record["event"]) == (
        "executed",
        event["tool_use_id"],
        "shell",
        "PostToolUse",
    )


@pytest.mark.parametrize("name", ["notification", "session_start"])
def test_other_events_get_no_opinion_and_never_block(hook: Hook, name: str) -> None:
    done = hook.run(golden(name, hook.ws, hook.home)["event"])
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert not hook.audit.exists()


def test_session_start_warms_the_cache(hook: Hook, tmp_path: Path) -> None:
    hook.cache = tmp_path / "own-cache"
    policy = str(hook.policy(SECRETS))
    hook.run(golden("session_start", hook.ws, hook.home)["event"], "--policy", policy)
    # the validated sources and the compiled policy
    warmed = {p.name: p.stat().st_mtime_ns for p in hook.cache.iterdir()}
    assert len(warmed) == 2
    hook.run(golden("pre_tool_use_read_inside", hook.ws, hook.home)["event"], "--policy", policy)
    after = {p.name: p.stat().st_mtime_ns for p in hook.cache.iterdir()}
    # the entries were read, not rebuilt; the read wrote its answer lane beside them
    assert {name: at for name, at in after.items() if name.endswith(".entry")} == warmed
    assert [name.rpartition(".")[2] for name in set(after) - set(warmed)] == ["lane"]


# -- errors, audit, cache --------------------------------------------------------------------


def test_every_decision_is_audited_with_session_and_tool_use_ids(hook: Hook) -> None:
    hook.decide("Write", {"file_path": str(hook.outside / "x"), "content": "x"})
    hook.decide("Bash", {"command": "ls"})
    records = hook.records()
    assert [(r["session_id"], r["call_id"], r["tool"], r["behavior"]) for r in records] == [
        ("sess-1", "toolu_01", "write_file", "deny"),
        ("sess-1", "toolu_01", "shell", "ask"),
    ]
    assert records[0]["agent_tool"] == "Write"


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (b"", "toolpolicy hook: stdin is not a JSON event"),
        (b"not json", "toolpolicy hook: stdin is not a JSON event"),
        (b"\xff\xfe", "toolpolicy hook: stdin is not a JSON event"),
        # errors inside a document, which the C scanner reports through json.decoder
        (b"{", "toolpolicy hook: stdin is not a JSON event"),
        (b'{"hook_event_name": "PreToolUse",}', "toolpolicy hook: stdin is not a JSON event"),
        (b'{"tool_name": "a\\q"}', "toolpolicy hook: stdin is not a JSON event"),
        (b'{"tool_name": "a\tb"}', "toolpolicy hook: stdin is not a JSON event"),
        (b'{"tool_name": "Bash"} {}', "toolpolicy hook: stdin is not a JSON event"),
        (b"[" * 100_000, "toolpolicy hook: stdin is not a JSON event"),
        (b"[]", "toolpolicy hook: the event is not a JSON object"),
        (b'{"tool_name": "Bash"}', "toolpolicy hook: the event has no hook_event_name"),
        (
            b'{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/nonexistent-dir",'
            b' "tool_name": "Bash", "tool_input": {"command": "ls"}}',
            "toolpolicy hook: cwd is not an existing absolute directory: /nonexistent-dir",
        ),
    ],
)
def test_bad_input_blocks_with_exit_2_and_one_line(hook: Hook, stdin: bytes, message: str) -> None:
    done = hook.run(stdin)
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.decode().splitlines() == [message]


def test_a_project_dir_that_is_not_a_folder_blocks(hook: Hook) -> None:
    hook.project_dir = str(hook.ws / "missing")
    done = hook.run(hook.event("Read", {"file_path": "a"}))
    assert done.returncode == 2
    assert done.stderr.decode() == (
        f"toolpolicy hook: the workspace is not an existing absolute directory: {hook.ws}/missing\n"
    )


def test_a_malformed_tool_input_blocks(hook: Hook) -> None:
    done = hook.run(hook.event("Bash", {"command": 42}))
    assert done.returncode == 2
    assert done.stderr.decode() == "toolpolicy hook: tool_input.command is not a string\n"


def test_an_unwritable_audit_blocks_instead_of_allowing(hook: Hook, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    hook.audit = blocker / "audit.jsonl"  # a path under a regular file
    done = hook.run(hook.event("Read", {"file_path": "a"}))
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().startswith("toolpolicy hook: could not decide:")


def test_an_answer_that_cannot_be_written_blocks_with_one_line(hook: Hook) -> None:
    policy = str(hook.policy(SECRETS))
    read = ("Read", {"file_path": str(hook.ws / ".env")})
    assert hook.decide(*read, "--policy", policy) == ("deny", "Secrets stay closed")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLPOLICY_", "CLAUDE_"))}
    env.update(TOOLPOLICY_CACHE_DIR=str(hook.cache), HOME=str(hook.home))
    command = [sys.executable, "-m", "toolpolicy", "hook", "claude-code", "--policy", policy]
    with open("/dev/full", "wb") as full:  # every write fails: no space left
        done = subprocess.run(
            [*command, "--audit", str(hook.audit)],
            input=json.dumps(hook.event(*read)).encode(),
            stdout=full,
            stderr=subprocess.PIPE,
            env=env,
            cwd=hook.ws,
            timeout=60,
        )
    assert (done.returncode, done.stderr.decode()) == (
        2,
        "toolpolicy hook: could not write the answer: No space left on device\n",
    )


def test_an_invalid_policy_file_blocks(hook: Hook) -> None:
    bad = hook.ws / "bad.yaml"
    bad.write_text("apiVersion: toolpolicy/v1\nkind: Policy\nname: x\nrules: [oops]\n")
    done = hook.run(hook.event("Read", {"file_path": "a"}), "--policy", str(bad))
    assert done.returncode == 2
    assert done.stderr.decode().startswith("toolpolicy hook: could not decide:")


def test_a_changed_policy_file_gives_a_new_decision(hook: Hook, tmp_path: Path) -> None:
    hook.cache = tmp_path / "own-cache"
    policy = hook.ws / "policy.yaml"
    rule = (
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: team\nrules:\n"
        "  - name: env\n    behavior: {b}\n    reason: {r}\n    match: {{paths: [.env]}}\n"
    )
    policy.write_text(rule.format(b="deny", r="Secrets stay closed"))
    read = ("Read", {"file_path": str(hook.ws / ".env")})
    assert hook.decide(*read, "--policy", str(policy)) == ("deny", "Secrets stay closed")
    assert len(list(hook.cache.iterdir())) == 2  # the validated sources, the compiled policy
    policy.write_text(rule.format(b="ask", r="Ask before reading secrets"))
    assert hook.decide(*read, "--policy", str(policy)) == ("ask", "Ask before reading secrets")


def _truncated(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _bad_checksum(data: bytes) -> bytes:
    at = data.index(b"\n") + 1  # the first byte of the digest, after the magic line
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1 :]


def _tampered_body(data: bytes) -> bytes:
    # keep the checksum, change the reason: the checksum no longer matches
    return data.replace(b"Secrets stay closed", b"Secrets stay opened")


@pytest.mark.parametrize(
    "corrupt",
    [lambda _: b"", _truncated, _bad_checksum, _tampered_body],
    ids=["empty", "truncated", "bad-checksum", "tampered-body"],
)
def test_a_corrupted_cache_is_ignored(
    hook: Hook, tmp_path: Path, corrupt: Callable[[bytes], bytes]
) -> None:
    hook.cache = tmp_path / "own-cache"
    policy = hook.ws / "policy.yaml"
    policy.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: team\nrules:\n"
        "  - name: env\n    behavior: deny\n    reason: Secrets stay closed\n"
        "    match: {paths: [.env]}\n"
    )
    read = ("Read", {"file_path": str(hook.ws / ".env")})
    assert hook.decide(*read, "--policy", str(policy))[0] == "deny"
    entries = list(hook.cache.iterdir())
    assert len(entries) == 2
    for entry in entries:
        original = entry.read_bytes()
        assert corrupt(original) != original
        entry.write_bytes(corrupt(original))
    assert hook.decide(*read, "--policy", str(policy)) == ("deny", "Secrets stay closed")


@pytest.mark.parametrize(
    "name", ["pre_tool_use_read_inside", "post_tool_use_read", "pre_tool_use_bash"]
)
def test_the_warm_path_imports_no_heavy_dependency(hook: Hook, name: str) -> None:
    event = json.dumps(golden(name, hook.ws, hook.home)["event"])
    hook.run(event)  # warm the cache
    env = {
        **os.environ,
        "TOOLPOLICY_CACHE_DIR": str(hook.cache),
        "CLAUDE_PROJECT_DIR": str(hook.ws),
    }
    rc, modules = modules_after_hook("claude-code", event, hook.audit, env=env, cwd=hook.ws)
    assert rc == 0
    assert sorted(m for m in modules if m.split(".")[0] in HEAVY) == []


@pytest.mark.parametrize("profile", ["P01", "P02", "P03"])
def test_the_hook_keeps_the_boundary_under_every_profile(hook: Hook, profile: str) -> None:
    # Claude Code runs its own Write: there is no handler of ours to refuse the escape.
    outside = {"file_path": str(hook.outside / "x.txt"), "content": "x"}
    assert hook.decide("Write", outside, "--profile", profile) == DENY_OUTSIDE


def test_a_home_relative_write_is_decided_as_the_home_folder(hook: Hook) -> None:
    assert hook.decide("Write", {"file_path": "~/.bashrc", "content": "x"}) == DENY_OUTSIDE
    assert not (hook.home / ".bashrc").exists()


def test_audit_arguments_records_the_event_input_redacted(hook: Hook) -> None:
    write = {"file_path": str(hook.ws / "a.py"), "content": "API_TOKEN=1"}
    hook.decide("Write", write, "--audit-arguments")
    hook.decide("WebFetch", {"url": "https://x.test", "headers": {"Authorization": "B"}})
    first, second = hook.records()
    assert first["arguments"] == {
        "file_path": str(hook.ws / "a.py"),
        "content": "<sha256:" + hashlib.sha256(b"API_TOKEN=1").hexdigest() + ", 11 chars>",
    }
    assert "arguments" not in second
    assert "API_TOKEN=1" not in hook.audit.read_text()


def test_parallel_hook_processes_keep_one_audit_chain(hook: Hook) -> None:
    event = json.dumps(hook.event("Bash", {"command": "ls"})).encode()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLPOLICY_", "CLAUDE_"))}
    env |= {"TOOLPOLICY_CACHE_DIR": str(hook.cache), "HOME": str(hook.home)}
    env["CLAUDE_PROJECT_DIR"] = str(hook.ws)
    command = [
        sys.executable,
        "-m",
        "toolpolicy",
        "hook",
        "claude-code",
        "--audit",
        str(hook.audit),
    ]
    processes = [
        subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env)
        for _ in range(8)
    ]
    for process in processes:
        assert process.stdin is not None
        process.stdin.write(event)
        process.stdin.close()
    assert [p.wait(timeout=60) for p in processes] == [0] * 8
    report = verify_chain(hook.audit)
    assert (report.records, report.broken) == (8, None)
    assert [r["seq"] for r in hook.records()] == list(range(1, 9))


def test_audit_show_marks_an_ask_that_claude_code_then_ran(hook: Hook) -> None:
    hook.decide("Bash", {"command": "make"})
    ran = hook.event("Bash", {"command": "make"}, hook_event_name="PostToolUse")
    ran["tool_response"] = {"stdout": "", "stderr": "", "interrupted": False}
    assert hook.run(ran).returncode == 0
    done = subprocess.run(
        [sys.executable, "-m", "toolpolicy", "audit", "show", str(hook.audit), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    summary = json.loads(done.stdout)
    assert summary["records"] == 1
    assert [(a["call_id"], a["behavior"], a["executed"]) for a in summary["asks"]] == [
        ("toolu_01", "ask", True)
    ]
