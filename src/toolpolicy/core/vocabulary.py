"""The closed vocabularies: behaviors, effects, sandbox modes, approval policies and outcomes."""

from __future__ import annotations

from enum import IntEnum, StrEnum

from .errors import PermissionContractError

__all__ = ["ApprovalOutcome", "ApprovalPolicy", "Behavior", "Effect", "SandboxMode"]


class Behavior(IntEnum):
    """What a participant says about a call, ordered so that the merge is ``max()``.

    passthrough < allow < ask < deny.
    """

    PASSTHROUGH = 0
    ALLOW = 1
    ASK = 2
    DENY = 3

    @property
    def label(self) -> str:
        """The lowercase name used in YAML, JSON and audit records."""
        return _BEHAVIOR_LABELS[self]

    @classmethod
    def parse(cls, value: object) -> Behavior:
        """``Behavior`` from itself or its label; anything else is a contract error."""
        if isinstance(value, Behavior):
            return value
        found = _BEHAVIORS_BY_LABEL.get(value) if isinstance(value, str) else None
        if found is None:
            raise PermissionContractError(f"unknown behavior: {value!r}")
        return found

    def __str__(self) -> str:
        return self.label


# Read on every decision and audit record: a table, not the enum's ``name`` property.
_BEHAVIOR_LABELS = {behavior: behavior.name.lower() for behavior in Behavior}
_BEHAVIORS_BY_LABEL = {label: behavior for behavior, label in _BEHAVIOR_LABELS.items()}


class Effect(StrEnum):
    """What a tool does to the world."""

    READ = "read"
    WRITE = "write"
    EXECUTE = "execute"


class SandboxMode(StrEnum):
    """How far a call's file effects may reach, narrowest first."""

    READ_ONLY = "read-only"
    WORKSPACE_WRITE = "workspace-write"
    DANGER_FULL_ACCESS = "danger-full-access"

    @property
    def rank(self) -> int:
        """0 for read-only up to 2 for danger-full-access."""
        return _SANDBOX_ORDER.index(self)


_SANDBOX_ORDER = (
    SandboxMode.READ_ONLY,
    SandboxMode.WORKSPACE_WRITE,
    SandboxMode.DANGER_FULL_ACCESS,
)


class ApprovalPolicy(StrEnum):
    """Whether a human is asked: ``ask`` dispatches to responders, ``never`` rejects."""

    ASK = "ask"
    NEVER = "never"


class ApprovalOutcome(StrEnum):
    """What an approval ended as. ``allowed-once`` grants that one call; ``allowed-session``
    grants that exact call (same tool, same arguments) for the rest of the session."""

    ALLOWED_ONCE = "allowed-once"
    ALLOWED_SESSION = "allowed-session"
    REJECTED = "rejected"
    CANCELLED = "cancelled"
    UNAVAILABLE = "unavailable"
