"""The decision before any human answers: participants, merge, defaults, the never policy.

``DecisionEngine.evaluate`` is the hot path. It touches only the rules indexed for the
call's tool (and path segment), imports nothing but core, compile output and the standard
library, and keeps every candidate for ``explain`` and the audit record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..compile.commands import CommandLine, split_command_line
from ..compile.paths import normalize_relative_path
from ..compile.policy import CompiledPolicy
from ..compile.rules import CallFacts
from ..core.decision import Decision
from ..core.protocols import PathBoundary
from ..core.vocabulary import ApprovalPolicy, Behavior, Effect, SandboxMode
from .knobs import KnobState
from .participants import (
    boundary_candidate,
    escalation_candidate,
    rule_candidates,
    sandbox_candidate,
)
from .request import PermissionRequest

__all__ = ["Candidate", "DecisionEngine", "Evaluation", "default_decision"]

_PASSTHROUGH = Decision(
    Behavior.PASSTHROUGH, "No permission participant made a decision", "default"
)
_DEFAULTS = {
    (Effect.EXECUTE, Behavior.ASK): Decision(
        Behavior.ASK, "Shell execution requires approval", "shell-default"
    ),
    (Effect.EXECUTE, Behavior.ALLOW): Decision(
        Behavior.ALLOW, "No permission rule blocked the request", "default"
    ),
    (Effect.EXECUTE, Behavior.DENY): Decision(
        Behavior.DENY, "Execution is denied by the profile default", "shell-default"
    ),
}
for _effect in (Effect.READ, Effect.WRITE):
    _DEFAULTS[(_effect, Behavior.ALLOW)] = Decision(
        Behavior.ALLOW, "No permission rule blocked the request", "default"
    )
    _DEFAULTS[(_effect, Behavior.ASK)] = Decision(
        Behavior.ASK, f"The profile default asks before every {_effect.value}", "default"
    )
    _DEFAULTS[(_effect, Behavior.DENY)] = Decision(
        Behavior.DENY, f"The profile default denies every {_effect.value}", "default"
    )

BOUNDARY = "workspace-boundary"
SANDBOX = "sandbox"
ESCALATION = "sandbox-escalation"
RULES = "rules"
RECOMMENDATIONS = "recommendations"


_TOOL_EXECUTION = Decision(Behavior.ASK, "Tool execution requires approval", "shell-default")


def default_decision(tool: str, effect: Effect, behavior: Behavior) -> Decision:
    """The decision a profile default gives when every participant passed.

    The execute default keeps the seed's wording for the shell; another executing tool (an
    agent's MCP tool, say) is told it is a tool, not a shell, that needs approval.
    """
    if effect is Effect.EXECUTE and behavior is Behavior.ASK and tool != "shell":
        return _TOOL_EXECUTION
    return _DEFAULTS[(effect, behavior)]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One participant's say: a decision, or ``None`` for no opinion; ``rule`` for rules."""

    participant: str
    decision: Decision | None
    rule: str | None = None


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Everything about one decision before any human answers.

    ``merged`` is the strongest candidate (or passthrough); ``resolved`` applies the profile
    default to a passthrough; ``effective`` applies the ``never`` approval policy and carries
    the sandbox mode — it is what ``toolpolicy check`` prints.
    """

    candidates: tuple[Candidate, ...]
    merged: Decision
    resolved: Decision
    effective: Decision
    knobs: KnobState
    escalation: SandboxMode | None
    matched_rules: tuple[str, ...]


class DecisionEngine:
    """A compiled policy bound to a workspace boundary."""

    __slots__ = ("_boundary", "_enforces", "_policy")

    def __init__(self, policy: CompiledPolicy, boundary: PathBoundary, *, enforces: bool) -> None:
        self._policy = policy
        self._boundary = boundary
        self._enforces = enforces

    @property
    def policy(self) -> CompiledPolicy:
        """The compiled policy."""
        return self._policy

    @property
    def enforces_policy(self) -> bool:
        """True when the boundary and rule participants are installed."""
        return self._enforces

    def evaluate(
        self,
        request: PermissionRequest,
        knobs: KnobState,
        recommendations: Sequence[Decision] = (),
    ) -> Evaluation:
        """Decide ``request`` under ``knobs`` without asking anyone."""
        candidates: list[Candidate] = []
        matched: list[str] = []
        strongest = _PASSTHROUGH
        if self._enforces:
            found = boundary_candidate(request, self._boundary)
            candidates.append(Candidate(BOUNDARY, found))
            if found is not None:
                strongest = found
        escalation_decision, escalation = escalation_candidate(request, knobs.sandbox)
        sandboxed = sandbox_candidate(request, knobs.sandbox, escalation is not None)
        candidates.append(Candidate(SANDBOX, sandboxed))
        if sandboxed is not None and sandboxed.behavior > strongest.behavior:
            strongest = sandboxed
        if escalation_decision is not None:
            candidates.append(Candidate(ESCALATION, escalation_decision))
            if escalation_decision.behavior > strongest.behavior:
                strongest = escalation_decision
        if self._enforces:
            bucket = self._policy.index.bucket(request.definition.name)
            facts = self._facts(request, bucket.has_path_rules)
            hits = rule_candidates(bucket.candidates(facts), facts)
            if not hits:
                candidates.append(Candidate(RULES, None))
            for rule, decision in hits:
                candidates.append(Candidate(RULES, decision, rule.name))
                matched.append(rule.label)
                if decision.behavior > strongest.behavior:
                    strongest = decision
        for recommendation in recommendations:
            candidates.append(Candidate(RECOMMENDATIONS, recommendation))
            if recommendation.behavior > strongest.behavior:
                strongest = recommendation
        effect = request.definition.effect
        resolved = strongest
        if strongest.behavior is Behavior.PASSTHROUGH:
            resolved = default_decision(
                request.definition.name, effect, self._policy.profile.defaults[effect]
            )
        mode = knobs.sandbox
        effective_mode = escalation if escalation is not None else mode
        if resolved.behavior is Behavior.ASK and knobs.approval is ApprovalPolicy.NEVER:
            effective = Decision(
                Behavior.DENY,
                f"Approval policy is never: {resolved.reason}",
                "approval-policy",
                mode,
            )
        else:
            effective = Decision(
                resolved.behavior,
                resolved.reason,
                resolved.source,
                effective_mode if resolved.behavior is not Behavior.DENY else mode,
            )
        return Evaluation(
            candidates=tuple(candidates),
            merged=strongest,
            resolved=resolved,
            effective=effective,
            knobs=knobs,
            escalation=escalation,
            matched_rules=tuple(matched),
        )

    def _facts(self, request: PermissionRequest, needs_target: bool) -> CallFacts:
        raw_path = request.path
        path = None if raw_path is None else normalize_relative_path(raw_path)
        target = path
        if path is not None and needs_target:
            try:
                target = self._boundary.target_relative(raw_path or "")
            except Exception:
                target = None
        command: CommandLine | None = None
        if request.definition.effect is Effect.EXECUTE:
            text = request.arguments.get("command")
            if isinstance(text, str):
                command = split_command_line(text)
        return CallFacts(
            tool=request.definition.name,
            effect=request.definition.effect,
            path=path,
            target=target,
            command=command,
        )
