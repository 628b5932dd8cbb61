"""The one error family of toolpolicy.

::

    ToolPolicyError
    ├── PermissionContractError   a caller broke the permission API's contract
    ├── PolicyLoadError           a policy document was refused (carries every Problem)
    ├── ConfigurationError        a selection or composition that cannot be built
    ├── CallRejected              a call failed preparation (unknown tool, bad arguments)
    ├── WorkspacePathError        a model-supplied path is not safely inside the workspace
    └── AuditError                an audit sink could not record a decision
        └── AuditFileError        the audit file cannot be opened (its path and why)

The agent layer adds ``AgentRunError`` (and its children) under ``ToolPolicyError``.
"""

from __future__ import annotations

from .lean_typing import NamedTuple

__all__ = [
    "AuditError",
    "AuditFileError",
    "CallRejected",
    "ConfigurationError",
    "PermissionContractError",
    "PolicyLoadError",
    "Problem",
    "ToolPolicyError",
    "WorkspacePathError",
]


class ToolPolicyError(Exception):
    """Base class of every error toolpolicy raises on purpose."""


class PermissionContractError(ToolPolicyError):
    """The permission API was used against its contract (a caller bug, not a runtime fault)."""


class ConfigurationError(ToolPolicyError):
    """A profile, preset, knob value or composition that cannot be built."""


class CallRejected(ToolPolicyError):
    """A call that never reached the permission layer; ``result`` is what the model gets."""

    def __init__(self, code: str, content: str) -> None:
        self.code = code
        self.content = content
        super().__init__(content)


class AuditError(ToolPolicyError):
    """An audit sink failed to record a decision; the call must not run."""


class AuditFileError(AuditError):
    """The audit file cannot be opened: ``path`` and ``reason`` (the system's words)."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"cannot open audit file {path}: {reason}")


class Problem(NamedTuple):
    """One thing wrong with a policy document, at a 1-based line and column.

    ``code`` is stable (``yaml-syntax``, ``schema``, ``duplicate-key`` ...) and is what
    ``toolpolicy lint`` reports as the finding code.
    """

    path: str
    line: int
    column: int
    code: str
    message: str
    pointer: str = ""
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.message}"


class PolicyLoadError(ToolPolicyError):
    """A document was refused; ``problems`` lists every problem found, in file order."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        if not problems:
            raise PermissionContractError("PolicyLoadError needs at least one problem")
        self.problems: tuple[Problem, ...] = tuple(sorted(problems))
        super().__init__("\n".join(str(p) for p in self.problems))


class WorkspacePathError(ToolPolicyError):
    """A path is not safely inside the workspace.

    ``code`` is the stable tool error code: ``path_escape`` or ``invalid_path``.
    """

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)
