"""The small protocols that adapters implement: approval responders, audit sinks, the
workspace boundary and the guard a file tool asks about the path it actually opened.

A responder answers an ``ApprovalRequest`` with an ``ApprovalOutcome`` or ``None`` to pass
to the next responder. An audit sink records an ``AuditRecord`` or raises; a raising sink
means the call does not run. A ``PathGuard`` lets the tools, which sit below the engine,
apply the policy's path rules again at the open.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .decision import Decision
from .records import ApprovalRequest, AuditRecord
from .vocabulary import ApprovalOutcome, Effect

__all__ = [
    "ApprovalRequest",
    "ApprovalResponder",
    "AuditRecord",
    "AuditSink",
    "PathBoundary",
    "PathGuard",
]


@runtime_checkable
class ApprovalResponder(Protocol):
    """Answers approval requests; ``None`` passes to the next responder in the chain."""

    @property
    def name(self) -> str:
        """The decision source shown when this responder answers (``terminal-approval``)."""
        ...

    def respond(self, request: ApprovalRequest) -> ApprovalOutcome | None:
        """The outcome for ``request``, or ``None`` to pass."""
        ...


@runtime_checkable
class AuditSink(Protocol):
    """Records final decisions; raising means the decision was not recorded."""

    def record(self, record: AuditRecord) -> None:
        """Record ``record`` durably enough for the sink's promise, or raise."""
        ...


@runtime_checkable
class PathBoundary(Protocol):
    """Answers whether a model-supplied path stays inside the workspace."""

    @property
    def root(self) -> str:
        """The real absolute path of the workspace."""
        ...

    def contains(self, path: str) -> bool:
        """False for a path outside; raises when the path cannot be resolved safely."""
        ...

    def target_relative(self, path: str) -> str | None:
        """The workspace-relative path of the resolved target, ``None`` when outside."""
        ...

    def absolute_target(self, path: str) -> str:
        """The absolute ``path`` as this boundary resolves it (on its text, or on the disk)."""
        ...


@runtime_checkable
class PathGuard(Protocol):
    """The policy's say about a path a file tool has actually opened.

    The decision was made on the path the call *says*; between it and the open, a symlink or
    a rename may have changed what that path names. The tool opens the file first (beneath
    the workspace, never following a link out of it), then asks the guard about the real
    workspace-relative path it holds, and refuses a deny; an ask on a path other than the
    one decided is refused too, since no human approved that path.
    """

    def check_open(self, tool: str, effect: Effect, opened: str) -> Decision | None:
        """The strongest deny or ask the path rules give ``tool`` on ``opened``, else
        ``None``; only rules that look at paths count (the rest were already decided)."""
        ...
