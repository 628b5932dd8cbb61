"""Every golden event of Codex, Gemini and Copilot (``tests/data/<agent>/``) gets its answer.

The files are the agents' own shapes — captured from Codex CLI 0.171.0 and Gemini CLI 0.61.0
or written from their references, each ``NAME.source.md`` says which — read unchanged, with
``$WORK`` replaced by a real project folder. The policy denies ``git push`` and ``.env``.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DATA, AgentHook, agent_golden

NO_PUSH = (
    "{name: no-push, behavior: deny, reason: No pushes from agents, match: {commands: [git push]}}"
)
SECRETS = "{name: env, behavior: deny, reason: Secrets stay closed, match: {paths: [.env]}}"
OUTSIDE = "Writing outside the workspace is forbidden"


def _codex(reason: str) -> dict[str, Any]:
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }


def _codex_request(message: str) -> dict[str, Any]:
    decision = {"behavior": "deny", "message": message}
    return {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}


def _copilot(reason: str) -> dict[str, Any]:
    return {"permissionDecision": "deny", "permissionDecisionReason": reason}


EXPECTED: dict[tuple[str, str], dict[str, Any] | None] = {
    ("codex", "permissionrequest_apply_patch"): _codex_request(OUTSIDE),
    ("codex", "permissionrequest_shell"): _codex_request("No pushes from agents"),
    ("codex", "pretooluse_apply_patch"): _codex(OUTSIDE),
    ("codex", "pretooluse_apply_patch_via_shell_fallback_model"): _codex(OUTSIDE),
    ("codex", "pretooluse_shell_exec_command"): _codex("No pushes from agents"),
    ("codex", "pretooluse_shell_on_request_mode"): _codex("No pushes from agents"),
    ("gemini", "beforetool_mcp_tool"): None,  # a default ask: left to Gemini
    ("gemini", "beforetool_read_file"): {"decision": "deny", "reason": "Secrets stay closed"},
    ("gemini", "beforetool_replace"): None,
    ("gemini", "beforetool_run_shell_command"): {
        "decision": "deny",
        "reason": "No pushes from agents",
    },
    ("gemini", "beforetool_write_file"): None,
    ("gemini", "beforetool_write_todos"): None,  # bookkeeping
    ("copilot", "pretooluse_bash_toolargs_object"): _copilot("No pushes from agents"),
    ("copilot", "pretooluse_bash_toolargs_string"): _copilot("No pushes from agents"),
    ("copilot", "pretooluse_claude_format"): _copilot("No pushes from agents"),
    ("copilot", "pretooluse_create"): _copilot(OUTSIDE),
    ("copilot", "pretooluse_update_todo"): None,  # bookkeeping
}
FILES = sorted(
    (p.parent.name, p.stem)
    for a in ("codex", "gemini", "copilot")
    for p in (DATA / a).glob("*.json")
)


def test_every_golden_event_has_an_answer_and_a_source() -> None:
    assert sorted(EXPECTED) == FILES
    for agent, name in FILES:
        assert (DATA / agent / f"{name}.source.md").is_file()


@pytest.mark.parametrize(("agent", "name"), FILES, ids=lambda v: str(v))
def test_a_golden_event_gets_its_answer(agent_hook: AgentHook, agent: str, name: str) -> None:
    policy = agent_hook.policy(NO_PUSH, SECRETS)
    agent_hook.env["GEMINI_PROJECT_DIR"] = str(agent_hook.ws)
    event = agent_golden(agent, name, agent_hook.ws)
    assert agent_hook.output(agent, event, "--policy", str(policy)) == EXPECTED[(agent, name)]
    (record,) = agent_hook.records()
    assert record["agent"] == agent
