"""The participants: each looks at a request and gives a candidate decision or nothing.

Order: workspace-boundary (hard-coded, cannot be configured away), sandbox and escalation
(from the knobs), rules (compiled from YAML), recommendations (the hook channel).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..compile.rules import CallFacts, CompiledRule
from ..core.decision import Decision
from ..core.protocols import PathBoundary
from ..core.vocabulary import Behavior, Effect, SandboxMode
from .request import PermissionRequest

__all__ = [
    "GIT_WRITE",
    "OUTSIDE_WORKSPACE",
    "POLICY_FILE_WRITE",
    "READ_ONLY_WRITE",
    "UNRESOLVABLE_PATH",
    "boundary_candidate",
    "escalation_candidate",
    "rule_candidates",
    "sandbox_candidate",
]

OUTSIDE_WORKSPACE = Decision(
    Behavior.DENY, "Writing outside the workspace is forbidden", "workspace-boundary"
)
UNRESOLVABLE_PATH = Decision(
    Behavior.DENY, "Write path could not be resolved safely", "workspace-boundary"
)
POLICY_FILE_WRITE = Decision(
    Behavior.DENY, "Policy files in use cannot be written", "workspace-boundary"
)
GIT_WRITE = Decision(Behavior.DENY, "Writing inside .git is forbidden", "workspace-boundary")
READ_ONLY_WRITE = Decision(Behavior.DENY, "The read-only sandbox does not allow writes", "sandbox")


def boundary_candidate(
    request: PermissionRequest, boundary: PathBoundary, protected: frozenset[str] = frozenset()
) -> tuple[Decision | None, str | None]:
    """Deny a write whose path is outside the workspace or cannot be resolved safely, and a
    write into ``.git`` or to a policy file in use (``protected``: workspace-relative paths),
    which would let an agent change its own rules or plant a git hook.

    Also returns the workspace-relative path of the resolved target (``None`` when denied),
    so that path rules need not resolve the same path again.
    """
    path = request.path
    if request.definition.effect is not Effect.WRITE or path is None:
        return None, None
    try:
        target = boundary.target_relative(path)
    except Exception:
        return UNRESOLVABLE_PATH, None
    if target is None:
        return OUTSIDE_WORKSPACE, None
    if target == ".git" or target.startswith(".git/"):
        return GIT_WRITE, None
    if target in protected:
        return POLICY_FILE_WRITE, None
    return None, target


def escalation_candidate(
    request: PermissionRequest, mode: SandboxMode
) -> tuple[Decision | None, SandboxMode | None]:
    """An escalation request: ask for a strictly wider mode, refuse anything else.

    Returns the candidate and the mode the call would run under if approved.
    """
    wanted = request.arguments.get("sandbox_permissions")
    if wanted is None:
        return None, None
    requested = SandboxMode(str(wanted))
    if requested.rank <= mode.rank:
        return (
            Decision(
                Behavior.DENY,
                f"Sandbox escalation must ask for a wider mode than {mode.value}",
                "sandbox-escalation",
            ),
            None,
        )
    justification = str(request.arguments.get("justification", "")).strip()
    return (
        Decision(
            Behavior.ASK,
            f"Sandbox escalation to {requested.value} requested: {justification}",
            "sandbox-escalation",
        ),
        requested,
    )


def sandbox_candidate(
    request: PermissionRequest, mode: SandboxMode, escalating: bool
) -> Decision | None:
    """Under read-only, a file write is denied unless it asks for escalation."""
    if mode is SandboxMode.READ_ONLY and request.definition.effect is Effect.WRITE:
        return None if escalating else READ_ONLY_WRITE
    return None


def rule_candidates(
    rules: Iterable[CompiledRule], facts: CallFacts
) -> list[tuple[CompiledRule, Decision]]:
    """Every matching rule with its decision; a rule that raises denies (fail closed)."""
    found: list[tuple[CompiledRule, Decision]] = []
    for rule in rules:
        try:
            hit = rule.matches(facts)
        except Exception:
            found.append(
                (rule, Decision(Behavior.DENY, f"Permission rule failed: {rule.name}", rule.name))
            )
            continue
        if hit:
            found.append((rule, rule.decision))
    return found
