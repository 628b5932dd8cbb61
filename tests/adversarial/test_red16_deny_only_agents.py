"""red16: a shell line's protected writes are denied only sometimes, and the deny-only agents
(Codex, Gemini, Copilot) run every line that is not denied.

SECURITY.md: those three agents honour only a deny ("a toolpolicy ask is not enforced
there"); DESIGN promise 8: "A write outside the workspace is a hard deny ... no rule, preset,
hook or human can relax it", and the protected set (``.git``, the policy files in use) is
denied to every tool. Two ways a plain redirection into them is not denied:

1. **No command or path rule in the policy.** ``engine/evaluate.py`` decides a shell line's
   files only ``if shell.files_ruled or bucket.has_command_rules``. With the built-in profile
   alone (``toolpolicy hook install codex`` with no policy of one's own, or any policy whose
   rules name no command and no path) ``echo x > .git/config``, ``echo x > POLICY`` and
   ``echo x >> ~/.bashrc`` only ask ("Shell execution requires approval"): Claude Code's
   human may approve them, and Codex, Gemini and Copilot run them. Add one unrelated rule
   (an allow for ``ls``) and the same lines are denied.
2. **A line that is not plain.** ``echo x > .git/config $X`` (an unset ``$X`` expands to
   nothing), ``echo x > .git/config; : $(true)`` and ``echo x > .gi[t' ']/config`` are not
   plain, so their literal redirection targets are never decided: they ask, and the deny-only
   agents run them.

What they should get: the deny of the written file, whatever else the policy or the line
holds. Both are fixed: the boundary decides every written file with or without rules, and a
line outside the plain subset has its literal redirections read conservatively
(``compile/redirect_scan.py``, the properties in ``tests/compile/test_redirect_scan.py``).
DESIGN: "A deny or ask is conservative. It hits wherever the denied thing could be";
SECURITY.md: "the hook keeps the workspace boundary under every profile".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .project import Project

BARE = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
"""
POLICY = (
    BARE
    + """\
rules:
  - name: listing
    behavior: allow
    reason: Listing is fine
    match: {commands: [ls]}
"""
)

_GIT = "Writing inside .git is forbidden"
_LINES = ["echo x > .git/config $X", "echo x > .git/config; : $(true)", "echo x > .gi[t' ']/config"]


def _event(agent: str, ws: Path, command: str) -> dict[str, object]:
    if agent == "copilot":
        return {"sessionId": "s", "timestamp": 1, "cwd": str(ws), "toolName": "bash",
                "toolArgs": {"command": command, "description": "x"}}  # fmt: skip
    if agent == "gemini":
        return {"session_id": "s", "transcript_path": str(ws / "t"), "cwd": str(ws),
                "hook_event_name": "BeforeTool", "timestamp": "2026-12-01T08:00:00.000Z",
                "tool_name": "run_shell_command", "tool_input": {"command": command}}  # fmt: skip
    return {"session_id": "s", "turn_id": "t", "transcript_path": str(ws / "t"),
            "cwd": str(ws), "hook_event_name": "PreToolUse", "model": "m",
            "permission_mode": "default", "tool_name": "Bash",
            "tool_input": {"command": command}, "tool_use_id": "c"}  # fmt: skip


def _denied(agent: str, said: str) -> str | None:
    """The deny reason in the hook's answer (``None``: no deny)."""
    if not said.strip():
        return None
    answer = json.loads(said)
    if agent == "gemini":
        return answer["reason"] if answer.get("decision") == "deny" else None
    inner = answer.get("hookSpecificOutput", answer)
    return inner["permissionDecisionReason"] if inner.get("permissionDecision") == "deny" else None


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    project = Project(tmp_path_factory.mktemp("denyonly"), POLICY)
    (project.ws / ".git").mkdir()
    (project.ws / "bare.yaml").write_text(BARE)
    project.env["GEMINI_PROJECT_DIR"] = str(project.ws)
    return project


def _hook(project: Project, agent: str, command: str, policy: Path | None = None) -> str | None:
    event = json.dumps(_event(agent, project.ws, command))
    chosen = policy or project.policy
    done = project.cli("hook", agent, "--policy", str(chosen), stdin=event)
    assert done.returncode == 0, done.stderr
    return _denied(agent, done.stdout)


_AGENTS = ["claude-code", "codex", "gemini", "copilot"]
_PLAIN = [
    ("echo x > .git/config", _GIT),
    ("echo x > {policy}", "Policy files in use cannot be written"),
    ("echo x >> ~/.bashrc", "Writing outside the workspace is forbidden"),
]


@pytest.mark.parametrize(("line", "reason"), _PLAIN)
@pytest.mark.parametrize("agent", _AGENTS)
def test_the_premise_with_a_command_rule_a_plain_protected_write_is_denied(
    project: Project, agent: str, line: str, reason: str
) -> None:
    assert _hook(project, agent, line.format(policy="toolpolicy.yaml")) == reason


@pytest.mark.parametrize(("line", "reason"), _PLAIN)
@pytest.mark.parametrize("agent", _AGENTS)
def test_without_rules_a_plain_protected_write_is_denied(
    project: Project, agent: str, line: str, reason: str
) -> None:
    """The built-in profile alone (``toolpolicy hook install codex``, no policy of one's
    own): the same lines only ask, and the deny-only agents run them."""
    assert (
        _hook(project, agent, line.format(policy="bare.yaml"), project.ws / "bare.yaml") == reason
    )


@pytest.mark.parametrize("line", _LINES)
@pytest.mark.parametrize("agent", ["codex", "gemini", "copilot"])
def test_a_write_into_git_in_a_line_that_is_not_plain_is_denied(
    project: Project, agent: str, line: str
) -> None:
    config = project.ws / ".git" / "config"
    config.write_text("")
    project.bash(line)
    assert config.read_text() == "x\n"  # what the agent runs unless the hook denies
    assert _hook(project, agent, line) == _GIT


@pytest.mark.parametrize(("line", "reason"), _PLAIN)
def test_without_rules_the_engine_denies_a_plain_protected_write(
    project: Project, line: str, reason: str
) -> None:
    """In-process too: P03 alone asks, so a human (or ``toolpolicy run`` under
    ``danger-full-access``) can let ``echo x >> ~/.bashrc`` through; promise 8 says no rule,
    preset, hook or human can relax that deny."""
    from toolpolicy import load

    with_rule = load("P03", policies=[project.policy], workspace=project.ws)
    ruled = {"command": line.format(policy="toolpolicy.yaml")}
    assert with_rule.check("shell", ruled).reason == reason  # the premise
    bare = load("P03", policies=[project.ws / "bare.yaml"], workspace=project.ws)
    assert bare.check("shell", {"command": line.format(policy="bare.yaml")}).reason == reason
