"""Layer 1: the vocabulary and the contracts. Standard library only.

The names below load with their module on first use: importing a module of this layer (the
hook's answer lane reads ``core.json_text`` and ``core.sha256``) does not build the
vocabulary's enums.
"""

from __future__ import annotations

from .lean_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .decision import Decision as Decision
    from .errors import AuditError as AuditError
    from .errors import CallRejected as CallRejected
    from .errors import ConfigurationError as ConfigurationError
    from .errors import PermissionContractError as PermissionContractError
    from .errors import PolicyLoadError as PolicyLoadError
    from .errors import Problem as Problem
    from .errors import ToolPolicyError as ToolPolicyError
    from .errors import WorkspacePathError as WorkspacePathError
    from .results import ToolResult as ToolResult
    from .results import is_tool_result as is_tool_result
    from .results import tool_error as tool_error
    from .results import tool_success as tool_success
    from .vocabulary import ApprovalOutcome as ApprovalOutcome
    from .vocabulary import ApprovalPolicy as ApprovalPolicy
    from .vocabulary import Behavior as Behavior
    from .vocabulary import Effect as Effect
    from .vocabulary import SandboxMode as SandboxMode

_EXPORTS = {
    "ApprovalOutcome": "vocabulary",
    "ApprovalPolicy": "vocabulary",
    "AuditError": "errors",
    "Behavior": "vocabulary",
    "CallRejected": "errors",
    "ConfigurationError": "errors",
    "Decision": "decision",
    "Effect": "vocabulary",
    "PermissionContractError": "errors",
    "PolicyLoadError": "errors",
    "Problem": "errors",
    "SandboxMode": "vocabulary",
    "ToolPolicyError": "errors",
    "ToolResult": "results",
    "WorkspacePathError": "errors",
    "is_tool_result": "results",
    "tool_error": "results",
    "tool_success": "results",
}


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'toolpolicy.core' has no attribute {name!r}")
    value = getattr(__import__(f"{__name__}.{module}", fromlist=[name]), name)
    globals()[name] = value
    return value


__all__ = sorted(_EXPORTS)


def __dir__() -> list[str]:
    return list(__all__)
