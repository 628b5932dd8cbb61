"""toolpolicy: decide, from checked-in YAML, whether an agent's tool call may run."""

from .core import (
    ApprovalOutcome,
    ApprovalPolicy,
    AuditError,
    Behavior,
    ConfigurationError,
    Decision,
    Effect,
    PermissionContractError,
    PolicyLoadError,
    Problem,
    SandboxMode,
    ToolPolicyError,
    ToolResult,
    WorkspacePathError,
    is_tool_result,
    tool_error,
    tool_success,
)

__version__ = "0.1.0"

__all__ = [
    "ApprovalOutcome",
    "ApprovalPolicy",
    "AuditError",
    "Behavior",
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
    "__version__",
    "is_tool_result",
    "tool_error",
    "tool_success",
]
