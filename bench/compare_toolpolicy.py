"""toolpolicy's side of the comparison: the public calls, and the internal ones.

Public: ``policy.check(tool, arguments)`` (a call that fails preparation raises
``CallRejected``: a deny), and the gate as a caller uses it,
``gate.decide(policy.request(tool, arguments))`` with a JSONL audit sink.

Internal (labelled so in the report): ``policy.engine.evaluate(request, knobs)`` on a request
prepared once and knobs folded once, and ``gate.decide`` on a request built once. A call that
fails preparation (an unknown tool) never reaches the engine: for it the timed internal work
is ``ToolSnapshot.prepare``, which is where toolpolicy denies it.
"""

from __future__ import annotations

import functools
import itertools
import os
from collections.abc import Callable, Sequence
from typing import Any

from compare_cases import Case, Workspace

from toolpolicy import Decision
from toolpolicy.core.errors import CallRejected
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.audit import JsonlAuditSink
from toolpolicy.engine.evaluate import Evaluation
from toolpolicy.engine.gate import Gate, GateDecision
from toolpolicy.engine.selection import ToolPolicy, load
from toolpolicy.tools.registry import PreparedCall, ToolCall

__all__ = [
    "COMMAND_POLICY",
    "FRESH_POOL",
    "PATH_POLICY",
    "ToolPolicySubject",
    "fresh_arguments",
    "label",
    "write_command_policy",
    "write_path_policy",
]

COMMAND_POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: bench-commands
extends: P03
rules:
  - name: no-recursive-delete
    behavior: deny
    reason: Recursive deletes are refused
    match: {tools: [shell], commands: ["rm -rf"]}
"""
"""A command rule, so that a shell decision has to split the command line."""

PATH_POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: bench-paths
extends: P03
rules:
  - name: secrets-stay-closed
    behavior: deny
    reason: Secrets are off limits
    match: {tools: [read_file], paths: ["secrets/**"]}
"""
"""One path rule on reads, so that a read is no longer decided by the tool name alone."""

Call = Callable[[], object]

FRESH_POOL = 3 * 4096
"""How many distinct calls a fresh row takes in turn: more than any memo of toolpolicy keeps
(``check``'s and the engine's keep at most 4096 calls each and are emptied when full), so a
call has always left every memo before it comes round again."""


def write_command_policy(folder: str) -> str:
    """Write :data:`COMMAND_POLICY` into ``folder``; returns its path."""
    path = os.path.join(folder, "bench-commands.yaml")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(COMMAND_POLICY)
    return path


def fresh_arguments(case: Case, k: int) -> dict[str, object]:
    """``case``'s arguments for its ``k``-th call: the same shape with a text no earlier call
    had (``src/a.py`` -> ``src/a7.py``, ``ls src`` -> ``ls src7``), so that no memo of
    earlier decisions can answer it."""
    out = dict(case.arguments)
    for name in ("path", "pattern", "url"):
        value = out.get(name)
        if isinstance(value, str):
            head, dot, extension = value.rpartition(".")
            out[name] = f"{head}{k}.{extension}" if dot else f"{value}{k}"
    command = out.get("command")
    if isinstance(command, str):
        out["command"] = command.replace(" src", f" src{k}", 1)
    return out


def write_path_policy(folder: str) -> str:
    """Write :data:`PATH_POLICY` into ``folder``; returns its path."""
    path = os.path.join(folder, "bench-paths.yaml")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(PATH_POLICY)
    return path


def label(result: object) -> str:
    """The behaviour a timed toolpolicy call produced: allow, ask or deny."""
    if isinstance(result, Evaluation):
        return result.effective.behavior.label
    if isinstance(result, GateDecision):
        return result.decision.behavior.label
    if isinstance(result, PreparedCall) and result.error is not None:
        return "deny"
    if isinstance(result, Decision):
        return result.behavior.label
    if isinstance(result, str):
        return result
    raise TypeError(f"not a toolpolicy result: {result!r}")


class ToolPolicySubject:
    """A loaded P03 selection (optionally with layered policy files) over a workspace."""

    def __init__(self, ws: Workspace, policies: Sequence[str] = ()) -> None:
        self.ws = ws
        self.policy: ToolPolicy = load("P03", policies=list(policies), workspace=ws.root)
        self.knobs = self.policy.knobs

    @staticmethod
    def expected(case: Case) -> str:
        """The decision toolpolicy gives ``case``: it decides on the path's text, so a write
        that escapes only through a symlink gets a write's own decision (P03: ask), and the
        file tool refuses it at the open (``path_escape``)."""
        return "ask" if case.through_link else case.expected

    def bind(self, case: Case) -> Call:
        """The pure decision for ``case`` (or the preparation that rejects it)."""
        return self.bind_call(case.tool, dict(case.arguments))

    def bind_call(self, tool: str, arguments: dict[str, object]) -> Call:
        """The pure decision for one call, prepared once."""
        try:
            request = self.policy.request(tool, arguments)
        except CallRejected:
            return functools.partial(self.policy.tools.prepare, ToolCall("bench", tool, arguments))
        return functools.partial(self.policy.engine.evaluate, request, self.knobs)

    def bind_check(self, case: Case) -> Call:
        """The public ``policy.check(tool, arguments)`` for ``case``."""
        return self.bind_check_call(case.tool, dict(case.arguments))

    def bind_fresh_check(self, case: Case) -> Call:
        """The public ``policy.check`` for ``case``, each call with other arguments
        (:func:`fresh_arguments`), so each call is decided anew.

        The calls are made before timing, :data:`FRESH_POOL` of them taken in turn: making
        one costs about as much as toolpolicy deciding a plain read, and a peer's row times
        the call alone too.
        """
        policy, tool = self.policy, case.tool
        calls = itertools.cycle([fresh_arguments(case, k) for k in range(FRESH_POOL)])

        def check() -> object:
            try:
                return policy.check(tool, next(calls))
            except CallRejected:
                return "deny"

        return check

    def bind_check_call(self, tool: str, arguments: dict[str, object]) -> Call:
        """The public ``policy.check(tool, arguments)``: preparation, knob fold, decision;
        a call that fails preparation raises ``CallRejected``, which counts as a deny."""
        policy = self.policy

        def check() -> object:
            try:
                return policy.check(tool, arguments)
            except CallRejected:
                return "deny"

        return check

    def gate(self, *, fsync: bool) -> tuple[Gate, JsonlAuditSink]:
        """A gate auditing to a fresh JSONL file in the scratch directory."""
        name = "audit-fsync.jsonl" if fsync else "audit.jsonl"
        sink = JsonlAuditSink(os.path.join(self.ws.scratch, name), fsync=fsync)
        return self.policy.gate(approval=ApprovalService(), audit=[sink]), sink

    def bind_gate(self, gate: Gate, case: Case) -> Call:
        """``gate.decide`` on a request built once: decision + audit record written."""
        request = self.policy.request(case.tool, dict(case.arguments))
        decide: Callable[[Any], GateDecision] = gate.decide
        return functools.partial(decide, request)

    def bind_public_gate(self, gate: Gate, case: Case) -> Call:
        """The public gate call: ``gate.decide(policy.request(tool, arguments))``, the
        request built on every call, then the decision and its JSONL audit line."""
        request, decide, tool = self.policy.request, gate.decide, case.tool
        arguments = dict(case.arguments)

        def call() -> GateDecision:
            return decide(request(tool, arguments))

        return call
