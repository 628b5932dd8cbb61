"""Layer 1: the vocabulary and the contracts. Standard library only."""

from .decision import Decision
from .errors import (
    AuditError,
    CallRejected,
    ConfigurationError,
    PermissionContractError,
    PolicyLoadError,
    Problem,
    ToolPolicyError,
    WorkspacePathError,
)
from .results import ToolResult, is_tool_result, tool_error, tool_success
from .vocabulary import ApprovalOutcome, ApprovalPolicy, Behavior, Effect, SandboxMode

__all__ = [
    "ApprovalOutcome",
    "ApprovalPolicy",
    "AuditError",
    "Behavior",
    "CallRejected",
    "ConfigurationError",
    "Decision",
    "Effect",
    "PermissionContractError",
    "PolicyLoadError",
    "Problem",
    "SandboxMode",
    "ToolPolicyError",
    "ToolResult",
    "WorkspacePathError",
    "is_tool_result",
    "tool_error",
    "tool_success",
]
