"""The participants: each looks at a request and gives a candidate decision or nothing.

Order: workspace-boundary (hard-coded, cannot be configured away), sandbox and escalation
(from the knobs), rules (compiled from YAML), recommendations (the hook channel).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from ..compile.rules import CallFacts, CompiledRule
from ..core.decision import Decision
from ..core.errors import WorkspacePathError
from ..core.lean_typing import TYPE_CHECKING
from ..core.vocabulary import Behavior, Effect, SandboxMode
from ..tools.protected import (
    AGENT_SETTINGS_REASON,
    FIXED_PROTECTED,
    GIT_REASON,
    POLICY_FILE_REASON,
    ProtectedSet,
)
from ..tools.workspace import LexicalBoundary, normalized_path
from .request import PermissionRequest

if TYPE_CHECKING:
    from ..core.protocols import PathBoundary

__all__ = [
    "AGENT_SETTINGS_WRITE",
    "GIT_WRITE",
    "OUTSIDE_WORKSPACE",
    "POLICY_FILE_WRITE",
    "READ_ONLY_WRITE",
    "UNRESOLVABLE_PATH",
    "boundary_candidate",
    "escalation_candidate",
    "protected_below",
    "protected_write",
    "rule_candidates",
    "sandbox_candidate",
]

OUTSIDE_WORKSPACE = Decision(
    Behavior.DENY, "Writing outside the workspace is forbidden", "workspace-boundary"
)
UNRESOLVABLE_PATH = Decision(
    Behavior.DENY, "Write path could not be resolved safely", "workspace-boundary"
)
POLICY_FILE_WRITE = Decision(Behavior.DENY, POLICY_FILE_REASON, "workspace-boundary")
GIT_WRITE = Decision(Behavior.DENY, GIT_REASON, "workspace-boundary")
AGENT_SETTINGS_WRITE = Decision(Behavior.DENY, AGENT_SETTINGS_REASON, "workspace-boundary")
_PROTECTED_WRITES = {d.reason: d for d in (POLICY_FILE_WRITE, GIT_WRITE, AGENT_SETTINGS_WRITE)}
READ_ONLY_WRITE = Decision(Behavior.DENY, "The read-only sandbox does not allow writes", "sandbox")


def boundary_candidate(
    request: PermissionRequest,
    boundary: PathBoundary,
    protected: ProtectedSet = FIXED_PROTECTED,
    *,
    confine: bool = True,
) -> tuple[Decision | None, str | None]:
    """Deny a write into the protected set (the policy files and preset table in use and
    their folders, ``.git``, the agents' settings: see ``ProtectedSet``), whether the path
    names it as written or through a symlink; with ``confine`` (every profile with the
    ``policy`` capability, and the hook) also a write whose path is outside the workspace
    or cannot be resolved safely.

    The single entry point for every write a call makes, shell redirections included. Also
    returns the workspace-relative path of the resolved target (``None`` when denied or
    unknown), so that path rules need not resolve the same path again.
    """
    path = request.path
    if request.definition.effect is not Effect.WRITE or path is None:
        return None, None
    try:
        target = boundary.target_relative(path)
    except Exception:
        if confine:
            return UNRESOLVABLE_PATH, None
        target = None
    if target is None and confine:
        return OUTSIDE_WORKSPACE, None
    if isinstance(boundary, LexicalBoundary):
        written = target  # the text is all a lexical boundary reads
    else:
        try:
            written = normalized_path(path)
        except WorkspacePathError:
            written = None
    for candidate in (written,) if written == target else (written, target):
        denied = protected_write(protected, candidate) if candidate is not None else None
        if denied is not None:
            return denied, None
    return None, target


def protected_write(protected: ProtectedSet, relative: str) -> Decision | None:
    """The deny of a write to the workspace-relative ``relative`` when it is protected."""
    reason = protected.refusal(relative)
    return None if reason is None else _PROTECTED_WRITES[reason]


def protected_below(protected: ProtectedSet, folder: str) -> Decision | None:
    """The deny of a write to anything below the workspace-relative ``folder`` when that
    may touch the protected set (``ProtectedSet.held_below``)."""
    reason = protected.held_below(folder)
    return None if reason is None else _PROTECTED_WRITES[reason]


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
        return _narrower_escalation(mode), None
    justification = str(request.arguments.get("justification", "")).strip()
    return _escalation_asked(requested, justification), requested


@functools.lru_cache(maxsize=256)
def _narrower_escalation(mode: SandboxMode) -> Decision:
    return Decision(
        Behavior.DENY,
        f"Sandbox escalation must ask for a wider mode than {mode.value}",
        "sandbox-escalation",
    )


@functools.lru_cache(maxsize=256)
def _escalation_asked(requested: SandboxMode, justification: str) -> Decision:
    return Decision(
        Behavior.ASK,
        f"Sandbox escalation to {requested.value} requested: {justification}",
        "sandbox-escalation",
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
