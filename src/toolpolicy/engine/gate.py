"""The runtime gate: prepare → decide → approve → audit → invoke, for one call at a time.

Whatever happens, the caller gets a ``ToolResult`` for the call: a preparation error, the
handler's result, ``permission_denied`` with the decision's reason, or
``permission_evaluation_error`` when deciding itself failed (a raising sink, a broken
participant) — and in that last case the handler never runs.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence

from ..core.decision import Decision
from ..core.lean_typing import NamedTuple, tuple_new
from ..core.protocols import ApprovalRequest, AuditSink
from ..core.results import ToolResult, tool_error
from ..core.sha256 import prefer_openssl
from ..core.vocabulary import ApprovalOutcome, Behavior
from ..tools.registry import ToolCall, ToolContext, ToolSnapshot
from .approval import ApprovalService, outcome_decision
from .audit_record import decision_record
from .evaluate import DecisionEngine, Evaluation
from .knobs import Knobs
from .open_guard import OpenGuard
from .request import PermissionRequest

__all__ = ["EVALUATION_FAILED", "OPEN_CHECK", "Gate", "GateDecision"]

EVALUATION_FAILED = tool_error("permission_evaluation_error", "Permission evaluation failed")
DENIED_CODE = "permission_denied"
# The source of a refusal made by a file tool at the open (see ``tools/opened.py``).
OPEN_CHECK = "open-check"
# What a file tool answers when it refuses at the open: a rule or the protected set, or a
# path whose text stayed inside but whose symlinks lead out (the engine decides on text).
_REFUSED_AT_OPEN = frozenset({DENIED_CODE, "path_escape"})
# The behaviors ``decide`` looks at on every call, as module names (an enum member is a
# class attribute: each look-up goes through the enum's metaclass).
_ALLOW, _ASK, _DENY = Behavior.ALLOW, Behavior.ASK, Behavior.DENY


class GateDecision(NamedTuple):
    """A final decision with its evaluation and the approval outcome, if one was asked."""

    decision: Decision
    evaluation: Evaluation
    approval_outcome: ApprovalOutcome | None


class Gate:
    """Decides, approves, audits and runs calls for one session."""

    __slots__ = (
        "_approval",
        "_audit",
        "_engine",
        "_guard",
        "_include_arguments",
        "_knobs",
        "_registry",
        "_session_id",
    )

    def __init__(
        self,
        engine: DecisionEngine,
        knobs: Knobs,
        approval: ApprovalService,
        audit: Sequence[AuditSink],
        registry: ToolSnapshot,
        *,
        session_id: str,
        include_arguments: bool = False,
    ) -> None:
        self._engine = engine
        self._knobs = knobs
        self._approval = approval
        self._audit = tuple(audit)
        self._registry = registry
        self._session_id = session_id
        self._include_arguments = include_arguments
        self._guard = OpenGuard(engine.policy, engine.workspace, enforces=engine.enforces_policy)
        # A gate hashes every call's arguments and chains every audit line: OpenSSL's sha256
        # is worth its one-time load here (the hook, which builds no gate, never loads it).
        prefer_openssl()

    @property
    def knobs(self) -> Knobs:
        """The session's knobs (change them between calls; a call reads them once)."""
        return self._knobs

    @property
    def registry(self) -> ToolSnapshot:
        """The tools this gate runs."""
        return self._registry

    @property
    def session_id(self) -> str:
        """The session id stamped on audit records."""
        return self._session_id

    def decide(
        self, request: PermissionRequest, recommendations: Sequence[Decision] = ()
    ) -> GateDecision:
        """The final, audited decision for ``request``; raises if it cannot be recorded."""
        knobs = self._knobs.state
        evaluation = self._engine.evaluate(request, knobs, recommendations)
        decision = evaluation.effective
        outcome: ApprovalOutcome | None = None
        if decision.behavior is _ASK:
            approval_request = ApprovalRequest(
                id=self._approval.next_id(),
                call_id=request.call_id,
                session_id=self._session_id,
                tool=request.tool,
                reason=decision.reason,
                source=decision.source,
                arguments_json=json.dumps(dict(request.arguments), ensure_ascii=False),
            )
            result = self._approval.resolve(approval_request, knobs.approval)
            outcome = result.outcome
            decision = outcome_decision(result, decision)
        if decision.behavior is not _ALLOW and decision.behavior is not _DENY:
            decision = Decision(Behavior.DENY, "Permission evaluation failed", "default")
        final = tuple_new(GateDecision, (decision, evaluation, outcome))
        self._record(request, final)
        return final

    def handle(
        self,
        call: ToolCall,
        context: ToolContext,
        recommendations: Sequence[Decision] = (),
    ) -> ToolResult:
        """The whole pipeline for one call; always returns a result for the call."""
        prepared = self._registry.prepare(call)
        if prepared.error is not None:
            return prepared.error
        try:
            request = PermissionRequest(prepared, context)
            final = self.decide(request, recommendations)
        except Exception:
            return EVALUATION_FAILED
        if not final.decision.is_allowed:
            return final.decision.to_tool_result()
        mode = final.decision.sandbox or self._knobs.state.sandbox
        # The handler enforces at the open what was decided on the path's text: the
        # selection's protected set and its path rules, applied to what it actually opens.
        result = self._registry.invoke(
            prepared,
            context._replace(
                sandbox=mode,
                protected=self._engine.protected,
                guard=self._guard,
                decided=final.evaluation.paths,
            ),
        )
        if result.error_code in _REFUSED_AT_OPEN:
            self._record_refusal(request, final, result)
        return result

    def _record_refusal(
        self, request: PermissionRequest, final: GateDecision, result: ToolResult
    ) -> None:
        """The handler refused at the open what the decision allowed: that refusal is the
        call's final word, so it is audited too. Nothing ran, so a failing sink changes
        nothing the caller gets."""
        reason = result.content.removeprefix(f"Error [{result.error_code}]: ")
        refusal = final._replace(decision=Decision(Behavior.DENY, reason, OPEN_CHECK))
        with contextlib.suppress(Exception):
            self._record(request, refusal)

    def _record(self, request: PermissionRequest, final: GateDecision) -> None:
        # Positional, the definition read once and the decision unpacked: every call.
        definition = request.definition
        decision, evaluation, outcome = final
        record = decision_record(
            self._session_id,
            request.prepared.call.id,
            definition.name,
            definition.effect,
            decision,
            evaluation.knobs,
            evaluation.matched_rules,
            request.arguments,
            self._include_arguments,
            outcome,
        )
        for sink in self._audit:
            sink.record(record)
