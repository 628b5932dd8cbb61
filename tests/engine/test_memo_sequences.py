"""Whatever came before, a remembered decision is the decision a fresh selection makes.

A selection keeps memos of its decisions (``check``'s memo of call texts, the file tools'
lanes, the engine's memo of evaluations that cannot depend on the arguments and its memo of
evaluations made on the text alone). A memo keyed on less than a decision reads answers one
call with another's decision: once a harmless line (``ls``) had been decided under P03,
``rm -rf .git`` got its ask instead of the protected set's deny, for the rest of the
process — the gate of ``toolpolicy run``, a library caller, a lint run of examples.

Here random sequences of calls (shell lines that name the protected set or not, with globs,
redirections and escalations; reads and writes inside, into the protected set and out) are
decided by one long-lived selection (a lexical boundary: ``check`` and the gate) and one
long-lived physical engine (the hook and the diff), and every answer is compared with a
fresh selection's answer to that call alone.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from toolpolicy.core.decision import Decision
from toolpolicy.core.errors import CallRejected
from toolpolicy.core.vocabulary import Behavior
from toolpolicy.engine.evaluate import DecisionEngine
from toolpolicy.engine.selection import ToolPolicy, load
from toolpolicy.tools.protected import GIT_REASON
from toolpolicy.tools.workspace import WorkspaceBoundary

RULES = """\
apiVersion: toolpolicy/v1
kind: Policy
name: sequences
extends: P03
rules:
  - name: no-secrets
    behavior: deny
    reason: Secrets stay closed
    match: {tools: [read_file, write_file], paths: ["secret*"]}
  - name: listing
    behavior: allow
    reason: Listing is fine
    match: {tools: [shell], commands: ["ls", "cat", "cp"]}
"""

SELECTIONS = {
    "P03": {},
    "P03 read-only": {"preset": "read-only"},
    "P02": {"profile": "P02"},
    "rules": {"rules": True},
}

_ESCALATION = {"sandbox_permissions": "danger-full-access", "justification": "probe"}
SHELL_LINES = (
    "ls",
    "echo hi",
    "git status",
    "git config core.fsmonitor 'touch /tmp/pwn'",
    "rm -rf .git",
    "cp x .git/config",
    "touch .claude/settings.json",
    "cat src/a.py",
    "cat secret.txt",
    "echo x > out.txt",
    "echo x > .git/config",
    "cp x .gi?/config",
    "cp x .gi{t,}/config",
    "ls *.py",
)
CALLS: tuple[tuple[str, dict[str, object]], ...] = (
    *(("shell", {"command": line}) for line in SHELL_LINES),
    *(("shell", {"command": line, **_ESCALATION}) for line in SHELL_LINES[:6]),
    *(("read_file", {"path": p}) for p in ("src/a.py", ".git/config", "secret.txt", "../x")),
    *(
        ("write_file", {"path": p, "content": ""})
        for p in ("src/a.py", ".git/config", ".claude/settings.json", "secret.txt", "../x")
    ),
    ("glob", {"pattern": "*.py"}),
)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sequences")
    ws = root / "ws"
    (ws / "src").mkdir(parents=True)
    (ws / ".git").mkdir()
    (ws / ".git" / "config").write_text("")
    (ws / "src" / "a.py").write_text("a")
    (ws / "x").write_text("x")
    (root / "rules.yaml").write_text(RULES)
    return ws


def _selection(workspace: Path, name: str) -> ToolPolicy:
    knobs = dict(SELECTIONS[name])
    policies = [workspace.parent / "rules.yaml"] if knobs.pop("rules", False) else []
    profile = str(knobs.pop("profile", "P03"))
    return load(profile, policies=policies, workspace=workspace, **knobs)


def _physical(policy: ToolPolicy) -> DecisionEngine:
    """The selection's rules behind a boundary that resolves paths on disk, reading every
    shell line (the hook's engine)."""
    engine = policy.engine
    return DecisionEngine(
        engine.policy,
        WorkspaceBoundary(engine.workspace),
        enforces=True,
        protected=engine.protected,
        every_line=True,
    )


def _answer(policy: ToolPolicy, call: int) -> Decision | str:
    tool, arguments = CALLS[call]
    try:
        return policy.check(tool, arguments)
    except CallRejected as rejected:
        return f"rejected: {rejected}"


def _decided(policy: ToolPolicy, engine: DecisionEngine, call: int) -> Decision | str:
    """``engine``'s decision of a call prepared by ``policy`` (or why it is rejected)."""
    try:
        request = policy.request(*CALLS[call])
    except CallRejected as rejected:
        return f"rejected: {rejected}"
    return engine.evaluate(request, policy.knobs).effective


@functools.cache
def _fresh(workspace: Path, name: str, call: int) -> tuple[Decision | str, Decision | str]:
    """A fresh selection's ``check`` of one call, and a fresh physical engine's decision."""
    policy = _selection(workspace, name)
    return _answer(policy, call), _decided(policy, _physical(policy), call)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    name=st.sampled_from(sorted(SELECTIONS)),
    calls=st.lists(st.integers(0, len(CALLS) - 1), min_size=2, max_size=12),
)
@example(name="P03", calls=[0, SHELL_LINES.index("rm -rf .git")])
@example(name="P03", calls=[3, SHELL_LINES.index("cp x .git/config")])
def test_a_long_lived_selection_answers_every_call_as_a_fresh_one(
    workspace: Path, name: str, calls: list[int]
) -> None:
    policy = _selection(workspace, name)
    physical = _physical(policy)
    for call in calls:
        fresh_check, fresh_physical = _fresh(workspace, name, call)
        assert _answer(policy, call) == fresh_check, CALLS[call]
        assert _decided(policy, physical, call) == fresh_physical, CALLS[call]


def test_a_harmless_line_decided_first_leaves_the_protected_set_denied(workspace: Path) -> None:
    policy = _selection(workspace, "P03")
    harmless = policy.check("shell", {"command": "ls"})
    assert (harmless.behavior, harmless.reason) == (
        Behavior.ASK,
        "Shell execution requires approval",
    )
    for line in ("rm -rf .git", "cp x .git/config", "cp x .gi?/config", "ls", "rm -rf .git"):
        decided = policy.check("shell", {"command": line})
        expected = Behavior.ASK if line == "ls" else Behavior.DENY
        assert decided.behavior is expected, line
        if expected is Behavior.DENY:
            assert (decided.reason, decided.source) == (GIT_REASON, "workspace-boundary")
