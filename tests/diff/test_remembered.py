"""A side's engine remembers what the rules say about each call's arguments and each file a
shell line names, read as a redirection's target or as an argument alike (the diff decides
thousands of lines naming the same files, each plain and with each escalation): every
evaluation must equal a fresh engine's, whatever came before."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy.diff.scratch import scratch_workspace
from toolpolicy.diff.sides import parse_side
from toolpolicy.engine.cache import load_sources
from toolpolicy.engine.selection import ToolPolicy, assemble

POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: remembered
extends: P03
rules:
  - name: no-secret
    behavior: deny
    reason: Secrets stay put
    match:
      tools: [read_file, write_file]
      paths: ["secret", "link/**"]
  - name: ask-notes
    behavior: ask
    reason: Notes are reviewed
    match:
      tools: [write_file]
      paths: ["notes/**"]
  - name: cat-ok
    behavior: allow
    reason: Reading is fine
    match:
      commands: ["cat"]
  - name: no-rm
    behavior: deny
    reason: No removal
    match:
      commands: ["rm -rf"]
"""

WORDS = ("cat", "rm", "-rf", "w", "secret", "notes/a", "link/x", "/etc/x", "../up", "*.py")
TARGETS = ("notes/a", "secret", ".git/config", "link/out", "/tmp/x", "ok.txt")
ESCALATIONS = (None, "workspace-write", "danger-full-access")

commands = st.builds(
    lambda words, operator, target: " ".join(words) + (f" {operator} {target}" if target else ""),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
    st.sampled_from(("<", ">")),
    st.sampled_from(("", *TARGETS)),
)
shell_lines = st.lists(commands, min_size=1, max_size=3).map(" ; ".join)
calls = st.one_of(
    st.tuples(st.just("shell"), shell_lines, st.sampled_from(ESCALATIONS)),
    st.tuples(st.sampled_from(("read_file", "write_file")), st.sampled_from(TARGETS), st.none()),
)


def _arguments(tool: str, text: str, escalation: str | None) -> dict[str, object]:
    if tool == "write_file":
        return {"path": text, "content": "x"}
    if tool == "read_file":
        return {"path": text}
    out: dict[str, object] = {"command": text}
    if escalation is not None:
        out.update(sandbox_permissions=escalation, justification="probe")
    return out


def _said(policy: ToolPolicy, tool: str, arguments: dict[str, object]) -> tuple[object, ...]:
    evaluation = policy.evaluate(tool, arguments)
    return (*evaluation, evaluation.effective)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sequence=st.lists(calls, min_size=1, max_size=12))
def test_a_sides_engine_decides_every_call_as_a_fresh_engine_does(
    sequence: list[tuple[str, str, str | None]],
) -> None:
    with scratch_workspace() as ws:
        policy_file = os.path.join(os.path.dirname(ws.root), "remembered.yaml")
        Path(policy_file).write_text(POLICY, encoding="utf-8")
        side = parse_side(policy_file)
        remembering = side.load(ws.root)
        # The same selection, never told to remember: it decides every call afresh.
        fresh = assemble(
            load_sources(policy_file), preset=side.preset, workspace=ws.root, resolve_links=True
        )
        for tool, text, escalation in [*sequence, *sequence]:
            arguments = _arguments(tool, text, escalation)
            assert _said(remembering, tool, arguments) == _said(fresh, tool, arguments)


def test_the_same_line_plain_and_escalated_keeps_each_requests_own_sandbox_say() -> None:
    with scratch_workspace() as ws:
        remembering = parse_side("P03").load(ws.root)
        plain = remembering.evaluate("shell", {"command": "cat secret > notes/a"})
        wide = remembering.evaluate(
            "shell",
            _arguments("shell", "cat secret > notes/a", "danger-full-access"),
        )
        assert plain.escalation is None
        assert wide.escalation is not None
        assert [c.participant for c in wide.candidates].count("sandbox-escalation") == 1
        assert [c.participant for c in plain.candidates].count("sandbox-escalation") == 0
