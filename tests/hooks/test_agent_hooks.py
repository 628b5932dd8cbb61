"""Codex CLI, Gemini CLI and Copilot CLI hooks: one real hook process per event.

Each agent honours a different answer (``/work/notes/agent-protocols.md``): Codex only a
Claude-style deny on PreToolUse (an ask or allow runs the tool), Gemini only a top-level
``{"decision": "deny"}`` (an ask hangs it headless), Copilot the flat ``permissionDecision``
deny. So every adapter prints denies and nothing else, and the audit says what was decided.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from toolpolicy.hooks.adapter import Kind
from toolpolicy.hooks.adapters import ADAPTERS

from .conftest import HEAVY, AgentHook, modules_after_hook

NO_PUSH = (
    "{name: no-push, behavior: deny, reason: No pushes from agents, match: {commands: [git push]}}"
)
SECRETS = "{name: env, behavior: deny, reason: Secrets stay closed, match: {paths: [.env]}}"
OUTSIDE = "Writing outside the workspace is forbidden"
SETTINGS = "Agent settings that register toolpolicy cannot be written"
GIT = "Writing inside .git is forbidden"
AGENTS = ("codex", "gemini", "copilot")


def codex_deny(reason: str) -> dict[str, Any]:
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }


def codex_event(hook: AgentHook, tool: str, command: str, **extra: object) -> dict[str, object]:
    return {
        "session_id": "s-1",
        "turn_id": "t-1",
        "transcript_path": None,
        "cwd": str(hook.ws),
        "hook_event_name": "PreToolUse",
        "model": "gpt-5.5",
        "permission_mode": "bypassPermissions",
        "tool_name": tool,
        "tool_input": {"command": command},
        "tool_use_id": "call_1",
        **extra,
    }


def gemini_event(hook: AgentHook, tool: str, tool_input: dict[str, object]) -> dict[str, object]:
    return {
        "session_id": "g-1",
        "transcript_path": "",
        "cwd": str(hook.ws),
        "hook_event_name": "BeforeTool",
        "timestamp": "2026-11-30T23:01:56.178Z",
        "tool_name": tool,
        "tool_input": tool_input,
    }


def copilot_event(hook: AgentHook, tool: str, args: dict[str, object]) -> dict[str, object]:
    return {"timestamp": 1704614600000, "cwd": str(hook.ws), "toolName": tool, "toolArgs": args}


def patch(*headers: str) -> str:
    body = "".join(f"*** {h}\n+x\n" for h in headers)
    return f"*** Begin Patch\n{body}*** End Patch\n"


def heredoc(text: str, prefix: str = "") -> str:
    return f"{prefix}apply_patch <<'EOF'\n{text}EOF"


# -- Codex ------------------------------------------------------------------------------------


@pytest.mark.parametrize("via", ["apply_patch", "bash-heredoc"])
def test_a_codex_patch_adding_a_file_outside_is_denied(agent_hook: AgentHook, via: str) -> None:
    text = patch("Add File: ../outside.txt")
    event = (
        codex_event(agent_hook, "apply_patch", text)
        if via == "apply_patch"
        else codex_event(agent_hook, "Bash", heredoc(text))
    )
    assert agent_hook.output("codex", event) == codex_deny(OUTSIDE)
    assert not (agent_hook.ws.parent / "outside.txt").exists()
    (record,) = agent_hook.records()
    assert (record["behavior"], record["answered"], record["agent_tool"]) == (
        "deny",
        "deny",
        "apply_patch" if via == "apply_patch" else "Bash",
    )


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        (("Update File: a.txt", "Move to: ../moved.txt"), OUTSIDE),
        (("Delete File: ../gone.txt",), OUTSIDE),
        (("Update File: .git/config",), GIT),
        (("Add File: inside.txt", "Add File: .codex/config.toml"), SETTINGS),
        (("Add File: /etc/cron.d/job",), OUTSIDE),
    ],
)
def test_every_header_of_a_codex_patch_is_decided_and_the_strongest_wins(
    agent_hook: AgentHook, headers: tuple[str, ...], reason: str
) -> None:
    text = patch(*headers)
    for event in (
        codex_event(agent_hook, "apply_patch", text),
        codex_event(agent_hook, "Bash", heredoc(text)),
    ):
        assert agent_hook.output("codex", event) == codex_deny(reason)


def test_a_heredoc_patch_after_cd_is_decided_from_that_folder_too(agent_hook: AgentHook) -> None:
    (agent_hook.ws / "sub").mkdir()
    inside = codex_event(agent_hook, "Bash", heredoc(patch("Add File: ok.txt"), "cd sub && "))
    climbs = codex_event(agent_hook, "Bash", heredoc(patch("Add File: ../x.txt"), "cd .. && "))
    assert agent_hook.output("codex", inside) is None
    assert agent_hook.output("codex", climbs) == codex_deny(OUTSIDE)


def test_a_codex_patch_inside_under_a_path_rule_follows_the_rule(agent_hook: AgentHook) -> None:
    policy = agent_hook.policy(
        "{name: gen, behavior: deny, reason: Generated code, match: {paths: [gen/**]}}"
    )
    text = patch("Add File: src/ok.py", "Update File: gen/api.py")
    event = codex_event(agent_hook, "apply_patch", text)
    assert agent_hook.output("codex", event, "--policy", str(policy)) == codex_deny(
        "Generated code"
    )
    assert (
        agent_hook.output(
            "codex", codex_event(agent_hook, "apply_patch", patch("Add File: src/ok.py"))
        )
        is None
    )


@pytest.mark.parametrize(
    "text",
    ["*** Begin Patch\n*** End Patch\n", "*** Begin Patch\n*** Add File:   \n+x\n*** End Patch\n"],
)
def test_a_codex_patch_that_names_no_file_blocks(agent_hook: AgentHook, text: str) -> None:
    done = agent_hook.run("codex", codex_event(agent_hook, "apply_patch", text))
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.startswith(b"toolpolicy hook: ") and done.stderr.count(b"\n") == 1


def test_codex_pre_tool_use_prints_no_ask_and_no_allow(agent_hook: AgentHook) -> None:
    policy = agent_hook.policy(
        "{name: tests, behavior: allow, reason: Tests are fine, match: {commands: [pytest]}}",
        "{name: rm, behavior: ask, reason: Ask before rm, match: {commands: [rm]}}",
    )
    for command in ("pytest -q", "rm -rf build", "git push origin main"):
        event = codex_event(agent_hook, "Bash", command)
        assert agent_hook.output("codex", event, "--policy", str(policy)) is None
    decided = [(r["behavior"], r["answered"]) for r in agent_hook.records()]
    assert decided == [("allow", "none"), ("ask", "none"), ("ask", "none")]


def test_codex_permission_request_is_answered_from_rules_only(agent_hook: AgentHook) -> None:
    policy = agent_hook.policy(
        NO_PUSH,
        "{name: tests, behavior: allow, reason: Tests are fine, match: {commands: [pytest]}}",
    )
    flags = ("--policy", str(policy))

    def request(command: str) -> dict[str, Any] | None:
        event = codex_event(agent_hook, "Bash", command, hook_event_name="PermissionRequest")
        del event["tool_use_id"]
        return agent_hook.output("codex", event, *flags)

    def verdict(behavior: str, message: str | None = None) -> dict[str, Any]:
        decision = {"behavior": behavior, **({"message": message} if message else {})}
        return {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}

    assert request("git push origin main") == verdict("deny", "No pushes from agents")
    assert request("pytest -q") == verdict("allow")
    assert request("make build") is None  # a default ask: the human is asked


@pytest.mark.parametrize("name", ["PostToolUse", "SessionStart", "Stop", "UserPromptSubmit"])
def test_other_codex_events_get_no_opinion(agent_hook: AgentHook, name: str) -> None:
    event = {"session_id": "s", "cwd": str(agent_hook.ws), "hook_event_name": name}
    assert agent_hook.output("codex", event) is None


def test_an_mcp_tool_of_codex_is_decided_by_name(agent_hook: AgentHook) -> None:
    policy = agent_hook.policy(
        "{name: gh, behavior: deny, reason: No issues from agents,"
        " match: {tools: [mcp__github__create_issue]}}"
    )
    event = codex_event(agent_hook, "mcp__github__create_issue", "")
    event["tool_input"] = {"title": "Bug"}
    assert agent_hook.output("codex", event, "--policy", str(policy)) == codex_deny(
        "No issues from agents"
    )


# -- Gemini -----------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["../outside.txt", "ABSOLUTE"])
def test_a_gemini_write_outside_the_project_is_denied(agent_hook: AgentHook, where: str) -> None:
    path = str(agent_hook.ws.parent / "outside.txt") if where == "ABSOLUTE" else where
    agent_hook.env["GEMINI_PROJECT_DIR"] = str(agent_hook.ws)
    for tool in ("write_file", "replace"):
        event = gemini_event(agent_hook, tool, {"file_path": path, "content": "x"})
        assert agent_hook.output("gemini", event) == {"decision": "deny", "reason": OUTSIDE}
    assert not (agent_hook.ws.parent / "outside.txt").exists()


def test_gemini_resolves_relative_paths_against_its_project_dir(agent_hook: AgentHook) -> None:
    (agent_hook.ws / "sub").mkdir()
    policy = agent_hook.policy(
        "{name: env, behavior: deny, reason: Secrets stay closed, match: {paths: [/.env]}}"
    )
    flags = ("--policy", str(policy), "--workspace", str(agent_hook.ws))
    event = gemini_event(agent_hook, "read_file", {"file_path": ".env"})
    event["cwd"] = str(agent_hook.ws / "sub")
    agent_hook.env["GEMINI_PROJECT_DIR"] = str(agent_hook.ws)
    deny = {"decision": "deny", "reason": "Secrets stay closed"}
    assert agent_hook.output("gemini", event, *flags) == deny
    del agent_hook.env["GEMINI_PROJECT_DIR"]  # without it: the event's cwd, so sub/.env
    assert agent_hook.output("gemini", event, *flags) is None


def test_a_gemini_shell_in_another_folder_is_decided_there(agent_hook: AgentHook) -> None:
    policy = agent_hook.policy(
        "{name: tmp, behavior: deny, reason: Not in tmp, match: {commands: ['cd /tmp']}}"
    )
    event = gemini_event(agent_hook, "run_shell_command", {"command": "ls", "dir_path": "/tmp"})
    assert agent_hook.output("gemini", event, "--policy", str(policy)) == {
        "decision": "deny",
        "reason": "Not in tmp",
    }


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("glob", {"pattern": ".env"}),
        ("grep_search", {"pattern": "KEY", "include_pattern": ".env"}),
        ("read_many_files", {"include": [".env"]}),
        ("list_directory", {"dir_path": "secrets"}),
    ],
)
def test_gemini_searches_that_only_select_closed_files_are_denied(
    agent_hook: AgentHook, tool: str, tool_input: dict[str, object]
) -> None:
    (agent_hook.ws / ".env").write_text("KEY=1\n")
    (agent_hook.ws / "secrets").mkdir()
    (agent_hook.ws / "secrets" / "a").write_text("x")
    policy = agent_hook.policy(
        "{name: env, behavior: deny, reason: Secrets stay closed,"
        " match: {paths: [.env, secrets/**]}}"
    )
    event = gemini_event(agent_hook, tool, tool_input)
    assert agent_hook.output("gemini", event, "--policy", str(policy)) == {
        "decision": "deny",
        "reason": "Secrets stay closed",
    }


def test_gemini_never_gets_an_ask_or_an_allow(agent_hook: AgentHook) -> None:
    policy = agent_hook.policy(
        "{name: tests, behavior: allow, reason: Tests are fine, match: {commands: [pytest]}}",
        "{name: rm, behavior: ask, reason: Ask before rm, match: {commands: [rm]}}",
    )
    for command in ("pytest -q", "rm -rf build", "git push origin main"):
        event = gemini_event(agent_hook, "run_shell_command", {"command": command})
        assert agent_hook.output("gemini", event, "--policy", str(policy)) is None
    event = gemini_event(agent_hook, "mcp_github_create_issue", {"title": "Bug"})
    assert agent_hook.output("gemini", event) is None
    decided = [(r["behavior"], r["answered"]) for r in agent_hook.records()]
    assert decided == [("allow", "none"), ("ask", "none"), ("ask", "none"), ("ask", "none")]


@pytest.mark.parametrize(
    "event",
    [
        {"hook_event_name": "AfterTool", "tool_name": "write_file", "tool_input": "garbled"},
        {"hook_event_name": "BeforeModel"},
        {"hook_event_name": "SessionStart", "cwd": "/does/not/exist"},
        {"hook_event_name": "BeforeToolSelection", "cwd": 3},
    ],
)
def test_other_gemini_events_never_block(agent_hook: AgentHook, event: dict[str, object]) -> None:
    assert agent_hook.output("gemini", event) is None


# -- Copilot ----------------------------------------------------------------------------------


def test_copilot_tool_args_as_a_string_or_an_object_decide_the_same(agent_hook: AgentHook) -> None:
    policy = agent_hook.policy(NO_PUSH)
    args = {"command": "git push origin main", "description": "Push"}
    deny = {"permissionDecision": "deny", "permissionDecisionReason": "No pushes from agents"}
    for form in (args, json.dumps(args)):
        event = copilot_event(agent_hook, "bash", {})
        event["toolArgs"] = form
        assert agent_hook.output("copilot", event, "--policy", str(policy)) == deny


@pytest.mark.parametrize("tool", ["create", "edit", "str_replace_editor"])
def test_a_copilot_write_outside_is_denied(agent_hook: AgentHook, tool: str) -> None:
    event = copilot_event(agent_hook, tool, {"path": "../outside.txt", "file_text": "x"})
    assert agent_hook.output("copilot", event) == {
        "permissionDecision": "deny",
        "permissionDecisionReason": OUTSIDE,
    }


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (
            {"cwd": "CWD", "toolName": "bash", "toolArgs": "git push"},
            "toolArgs is a string that is not JSON",
        ),
        ({"cwd": "CWD", "toolName": "bash", "toolArgs": "[1]"}, "toolArgs is not a JSON object"),
        ({"cwd": "CWD", "toolArgs": {}}, "the event has no toolName"),
        (
            {"cwd": "CWD", "toolName": "create", "toolArgs": {"text": "x"}},
            "tool_input.path is not a string",
        ),
    ],
)
def test_copilot_bad_input_blocks(
    agent_hook: AgentHook, stdin: dict[str, object], message: str
) -> None:
    event = json.loads(json.dumps(stdin).replace("CWD", str(agent_hook.ws)))
    done = agent_hook.run("copilot", event)
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode() == f"toolpolicy hook: {message}\n"


# -- every agent ------------------------------------------------------------------------------


def push_event(hook: AgentHook, agent: str) -> dict[str, object]:
    if agent == "codex":
        return codex_event(hook, "Bash", "git push origin main")
    if agent == "gemini":
        return gemini_event(hook, "run_shell_command", {"command": "git push origin main"})
    return copilot_event(hook, "bash", {"command": "git push origin main"})


DENIES = {
    "codex": codex_deny("No pushes from agents"),
    "gemini": {"decision": "deny", "reason": "No pushes from agents"},
    "copilot": {"permissionDecision": "deny", "permissionDecisionReason": "No pushes from agents"},
}


@pytest.mark.parametrize("agent", AGENTS)
def test_git_push_under_a_deny_is_denied_for_every_agent(agent_hook: AgentHook, agent: str) -> None:
    policy = agent_hook.policy(NO_PUSH)
    event = push_event(agent_hook, agent)
    assert agent_hook.output(agent, event, "--policy", str(policy)) == DENIES[agent]
    assert agent_hook.output(agent, event) is None  # P03 alone: an ask, left to the agent
    first, second = agent_hook.records()
    assert (first["behavior"], first["source"], first["agent"]) == ("deny", "no-push", agent)
    assert (second["behavior"], second["answered"]) == ("ask", "none")


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize(
    "stdin",
    [
        b"",
        b"not json",
        b"[]",
        b'{"hook_event_name": "EVENT"}',
        b'{"hook_event_name": "EVENT", '
        b'"session_id": "s", "cwd": "relative", "tool_name": "x", "tool_input": {}}',
    ],
)
def test_bad_input_blocks_with_exit_2_and_one_line(
    agent_hook: AgentHook, agent: str, stdin: bytes
) -> None:
    event = {"codex": b"PreToolUse", "gemini": b"BeforeTool", "copilot": b"PreToolUse"}[agent]
    done = agent_hook.run(agent, stdin.replace(b"EVENT", event))
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.startswith(b"toolpolicy hook: ") and done.stderr.count(b"\n") == 1


@pytest.mark.parametrize(
    ("agent", "tool", "args"),
    [
        ("gemini", "write_todos", {"todos": []}),
        ("gemini", "ask_user", {"question": "?"}),
        ("gemini", "tracker_create_task", {"title": "x"}),
        ("copilot", "update_todo", {"todos": "- [ ] x"}),
        ("copilot", "task", {"prompt": "x"}),
        ("copilot", "TodoWrite", {"todos": []}),
    ],
)
@pytest.mark.parametrize("preset", ["read-only", "workspace-write", "danger-full-access"])
def test_bookkeeping_tools_get_no_opinion(
    agent_hook: AgentHook, agent: str, tool: str, args: dict[str, object], preset: str
) -> None:
    event = (
        gemini_event(agent_hook, tool, args)
        if agent == "gemini"
        else copilot_event(agent_hook, tool, args)
    )
    if tool == "TodoWrite":
        event = {
            "hook_event_name": "PreToolUse",
            "cwd": str(agent_hook.ws),
            "tool_name": tool,
            "tool_input": args,
        }
    assert agent_hook.output(agent, event, "--preset", preset) is None
    (record,) = agent_hook.records()
    assert (record["behavior"], record["source"]) == ("passthrough", "catalog")


@pytest.mark.parametrize("agent", AGENTS)
def test_hook_help_says_what_the_adapter_cannot_enforce(agent: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "toolpolicy", "hook", agent, "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "Cannot enforce: an ask" in text
    assert "Exit 2" in text


@pytest.mark.parametrize("agent", AGENTS)
def test_the_warm_path_imports_no_heavy_dependency(agent_hook: AgentHook, agent: str) -> None:
    event = json.dumps(push_event(agent_hook, agent))
    agent_hook.run(agent, event)  # warm the cache
    env = {**os.environ, "TOOLPOLICY_CACHE_DIR": str(agent_hook.cache)}
    rc, modules = modules_after_hook(agent, event, agent_hook.audit, env=env, cwd=agent_hook.ws)
    assert rc == 0
    assert sorted(m for m in modules if m.split(".")[0] in HEAVY) == []


@pytest.mark.parametrize("agent", sorted(ADAPTERS))
def test_every_catalog_entry_names_the_fields_its_kind_reads(agent: str) -> None:
    for name, entry in ADAPTERS[agent].catalog.items():
        if entry.kind in (Kind.READ, Kind.WRITE, Kind.EDIT):
            assert entry.paths, name
        if entry.kind in (Kind.SHELL, Kind.PATCH):
            assert entry.command, name
        if entry.kind is Kind.BOOKKEEPING:
            assert not entry.paths and entry.command is None, name


@pytest.mark.parametrize(
    ("agent", "expected"),
    [
        ("gemini", "names the agent tool 'run_shell_command', which toolpolicy decides as 'shell'"),
        ("codex", "names unknown tool 'run_shell_command'"),
        ("copilot", "names unknown tool 'run_shell_command'"),
    ],
)
def test_lint_knows_each_agents_catalog(tmp_path: Path, agent: str, expected: str) -> None:
    policy = tmp_path / "team.yaml"
    policy.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: team\nextends: P03\nrules:\n"
        "  - {name: sh, behavior: deny, reason: x, match: {tools: [run_shell_command]}}\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolpolicy",
            "lint",
            "--agent",
            agent,
            "--format",
            "text",
            str(policy),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert f"rule 'sh' {expected}" in done.stdout
