"""`toolpolicy hook claude-code` as Claude Code runs it: one process per event."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

DENY_OUTSIDE = "Writing outside the workspace is forbidden"


class Hook:
    def __init__(self, tmp: Path) -> None:
        self.ws = tmp / "project"
        self.ws.mkdir()
        self.outside = tmp / "elsewhere"
        self.outside.mkdir()
        self.cache = tmp / "cache"
        self.audit = tmp / "audit.jsonl"

    def event(self, tool: str, tool_input: dict[str, object], **extra: object) -> dict[str, object]:
        return {
            "session_id": "sess-1",
            "transcript_path": str(self.ws / "t.jsonl"),
            "cwd": str(self.ws),
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": "toolu_01",
            **extra,
        }

    def run(self, stdin: str | bytes, *flags: str) -> subprocess.CompletedProcess[bytes]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLPOLICY_")}
        env["TOOLPOLICY_CACHE_DIR"] = str(self.cache)
        data = stdin.encode() if isinstance(stdin, str) else stdin
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "toolpolicy",
                "hook",
                "claude-code",
                "--audit",
                str(self.audit),
                *flags,
            ],
            input=data,
            capture_output=True,
            timeout=60,
            cwd=self.ws,
            env=env,
        )

    def decide(self, tool: str, tool_input: dict[str, object], *flags: str) -> tuple[str, str]:
        done = self.run(json.dumps(self.event(tool, tool_input)), *flags)
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout)["hookSpecificOutput"]
        assert out["hookEventName"] == "PreToolUse"
        return out["permissionDecision"], out["permissionDecisionReason"]


@pytest.fixture
def hook(tmp_path: Path) -> Hook:
    return Hook(tmp_path)


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        (
            "workspace-write",
            {
                "Bash": ("ask", "Shell execution requires approval"),
                "Read": ("allow", "No permission rule blocked the request"),
                "Glob": ("allow", "No permission rule blocked the request"),
                "Write": ("ask", "File writes require explicit approval from chapter 3 onward"),
                "Edit": ("ask", "File writes require explicit approval from chapter 3 onward"),
                "WriteOutside": ("deny", DENY_OUTSIDE),
                "EditOutside": ("deny", DENY_OUTSIDE),
                "mcp__github__create_issue": ("ask", "Tool execution requires approval"),
            },
        ),
        (
            "danger-full-access",
            {
                "Bash": ("deny", "Approval policy is never: Shell execution requires approval"),
                "Read": ("allow", "No permission rule blocked the request"),
                "Glob": ("allow", "No permission rule blocked the request"),
                "Write": (
                    "deny",
                    "Approval policy is never: File writes require explicit "
                    "approval from chapter 3 onward",
                ),
                "Edit": (
                    "deny",
                    "Approval policy is never: File writes require explicit "
                    "approval from chapter 3 onward",
                ),
                "WriteOutside": ("deny", DENY_OUTSIDE),
                "EditOutside": ("deny", DENY_OUTSIDE),
                "mcp__github__create_issue": (
                    "deny",
                    "Approval policy is never: Tool execution requires approval",
                ),
            },
        ),
        (
            "read-only",
            {
                "Bash": ("ask", "Shell execution requires approval"),
                "Read": ("allow", "No permission rule blocked the request"),
                "Glob": ("allow", "No permission rule blocked the request"),
                "Write": ("deny", "The read-only sandbox does not allow writes"),
                "Edit": ("deny", "The read-only sandbox does not allow writes"),
                "WriteOutside": ("deny", DENY_OUTSIDE),
                "EditOutside": ("deny", DENY_OUTSIDE),
                "mcp__github__create_issue": ("ask", "Tool execution requires approval"),
            },
        ),
    ],
)
def test_each_tool_inside_and_outside_under_each_default_preset(
    hook: Hook, preset: str, expected: dict[str, tuple[str, str]]
) -> None:
    inside = str(hook.ws / "src" / "main.py")
    outside = str(hook.outside / "x.py")
    calls = {
        "Bash": ("Bash", {"command": "npm test", "description": "run tests"}),
        "Read": ("Read", {"file_path": inside}),
        "Glob": ("Glob", {"pattern": "**/*.py"}),
        "Write": ("Write", {"file_path": inside, "content": "x"}),
        "Edit": ("Edit", {"file_path": inside, "old_string": "a", "new_string": "b"}),
        "WriteOutside": ("Write", {"file_path": outside, "content": "x"}),
        "EditOutside": ("Edit", {"file_path": outside, "old_string": "a", "new_string": "b"}),
        "mcp__github__create_issue": ("mcp__github__create_issue", {"title": "t"}),
    }
    got = {
        k: hook.decide(tool, tool_input, "--preset", preset)
        for k, (tool, tool_input) in calls.items()
    }
    assert got == expected
    assert not (hook.outside / "x.py").exists()


def test_a_read_outside_the_workspace_stays_outside_and_is_not_a_write(hook: Hook) -> None:
    assert hook.decide("Read", {"file_path": "/etc/hostname"})[0] == "allow"


def test_a_dotdot_path_that_climbs_out_is_denied(hook: Hook) -> None:
    path = str(hook.ws) + "/../elsewhere/x.txt"
    assert hook.decide("Write", {"file_path": path, "content": "x"}) == ("deny", DENY_OUTSIDE)


def test_a_symlink_out_of_the_workspace_is_denied(hook: Hook) -> None:
    (hook.ws / "link").symlink_to(hook.outside, target_is_directory=True)
    path = str(hook.ws / "link" / "x.txt")
    assert hook.decide("Write", {"file_path": path, "content": "x"}) == ("deny", DENY_OUTSIDE)


def test_a_user_policy_rule_decides_an_mcp_tool_by_name(hook: Hook) -> None:
    policy = hook.ws / "policy.yaml"
    policy.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: team\nextends: P03\nrules:\n"
        "  - name: issues-are-fine\n    behavior: allow\n    reason: Filing issues is fine\n"
        "    match: {tools: [mcp__github__create_issue]}\n"
        "  - name: no-pushes\n    behavior: deny\n    reason: Never push from an agent\n"
        "    match: {commands: [git push]}\n"
    )
    flags = ("--policy", str(policy))
    assert hook.decide("mcp__github__create_issue", {}, *flags) == (
        "allow",
        "Filing issues is fine",
    )
    assert hook.decide("mcp__other__x", {}, *flags)[0] == "ask"
    assert hook.decide("Bash", {"command": "git add . && git push origin main"}, *flags) == (
        "deny",
        "Never push from an agent",
    )


def test_every_decision_is_audited_with_session_and_tool_use_ids(hook: Hook) -> None:
    hook.decide("Write", {"file_path": str(hook.outside / "x"), "content": "x"})
    hook.decide("Bash", {"command": "ls"})
    records = [json.loads(line) for line in hook.audit.read_text().splitlines()]
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
        (b"[]", "toolpolicy hook: the event is not a JSON object"),
        (
            b'{"hook_event_name": "PostToolUse"}',
            "toolpolicy hook: expected a PreToolUse event, got 'PostToolUse'",
        ),
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


def test_a_malformed_tool_input_blocks(hook: Hook) -> None:
    done = hook.run(json.dumps(hook.event("Bash", {"command": 42})))
    assert done.returncode == 2
    assert done.stderr.decode() == "toolpolicy hook: tool_input.command is not a string\n"


def test_an_unwritable_audit_blocks_instead_of_allowing(hook: Hook, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    env_audit = str(blocker / "audit.jsonl")  # a path under a regular file
    done = subprocess.run(
        [sys.executable, "-m", "toolpolicy", "hook", "claude-code", "--audit", env_audit],
        input=json.dumps(hook.event("Read", {"file_path": "a"})).encode(),
        capture_output=True,
        timeout=60,
        env={**os.environ, "TOOLPOLICY_CACHE_DIR": str(hook.cache)},
    )
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().startswith("toolpolicy hook: could not decide:")


def test_an_invalid_policy_file_blocks(hook: Hook) -> None:
    bad = hook.ws / "bad.yaml"
    bad.write_text("apiVersion: toolpolicy/v1\nkind: Policy\nname: x\nrules: [oops]\n")
    done = hook.run(json.dumps(hook.event("Read", {"file_path": "a"})), "--policy", str(bad))
    assert done.returncode == 2
    assert done.stderr.decode().startswith("toolpolicy hook: could not decide:")


def test_a_changed_policy_file_gives_a_new_decision(hook: Hook) -> None:
    policy = hook.ws / "policy.yaml"
    rule = (
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: team\nrules:\n"
        "  - name: env\n    behavior: {b}\n    reason: {r}\n    match: {{paths: [.env]}}\n"
    )
    policy.write_text(rule.format(b="deny", r="Secrets stay closed"))
    read = ("Read", {"file_path": str(hook.ws / ".env")})
    assert hook.decide(*read, "--policy", str(policy)) == ("deny", "Secrets stay closed")
    assert len(list(hook.cache.iterdir())) == 1
    policy.write_text(rule.format(b="ask", r="Ask before reading secrets"))
    assert hook.decide(*read, "--policy", str(policy)) == ("ask", "Ask before reading secrets")


@pytest.mark.parametrize(
    "corruption",
    [b"", b"{not json", b'{"checksum": "0", "body": {}}', None],
    ids=["empty", "truncated", "bad-checksum", "tampered-body"],
)
def test_a_corrupted_cache_is_ignored(hook: Hook, corruption: bytes | None) -> None:
    policy = hook.ws / "policy.yaml"
    policy.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: team\nrules:\n"
        "  - name: env\n    behavior: deny\n    reason: Secrets stay closed\n"
        "    match: {paths: [.env]}\n"
    )
    read = ("Read", {"file_path": str(hook.ws / ".env")})
    assert hook.decide(*read, "--policy", str(policy))[0] == "deny"
    (entry,) = hook.cache.iterdir()
    if corruption is None:
        # keep the checksum, flip the rule to allow: the checksum no longer matches
        entry.write_bytes(entry.read_bytes().replace(b'"behavior":"deny"', b'"behavior":"allow"'))
    else:
        entry.write_bytes(corruption)
    assert hook.decide(*read, "--policy", str(policy)) == ("deny", "Secrets stay closed")


def test_the_warm_path_imports_no_heavy_dependency(hook: Hook) -> None:
    hook.decide("Read", {"file_path": "a"})  # warm the cache
    env = {**os.environ, "TOOLPOLICY_CACHE_DIR": str(hook.cache)}
    event = json.dumps(hook.event("Read", {"file_path": "a"}))
    code = (
        "import sys, io, json;"
        "from toolpolicy.cli.main import main;"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO({event!r}.encode()));"
        f"rc = main(['hook', 'claude-code', '--audit', {str(hook.audit)!r}]);"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('yaml', 'pydantic', 'jsonschema', 'click'));"
        "print(json.dumps({'rc': rc, 'heavy': heavy}), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=hook.ws,
    )
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report == {"rc": 0, "heavy": []}


@pytest.mark.parametrize("profile", ["P01", "P02", "P03"])
def test_the_hook_keeps_the_boundary_under_every_profile(hook: Hook, profile: str) -> None:
    # Claude Code runs its own Write: there is no handler of ours to refuse the escape.
    outside = str(hook.outside / "x.txt")
    done = hook.run(
        json.dumps(hook.event("Write", {"file_path": outside, "content": "x"})),
        "--profile",
        profile,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"


def test_a_home_relative_path_is_decided_as_the_home_folder(hook: Hook) -> None:
    assert hook.decide("Write", {"file_path": "~/.bashrc", "content": "x"}) == (
        "deny",
        DENY_OUTSIDE,
    )
