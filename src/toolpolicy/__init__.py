"""toolpolicy: decide, from checked-in YAML, whether an agent's tool call may run.

``load`` compiles a selection (profile, layered policies, preset and knobs) into an immutable
``ToolPolicy``: ``check`` gives the effective decision without asking anyone, ``gate`` builds
the runtime that asks responders, audits and runs the tools.
"""

__version__ = "0.1.0"

from .core import (
    ApprovalOutcome,
    ApprovalPolicy,
    AuditError,
    Behavior,
    CallRejected,
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
from .core.protocols import ApprovalRequest, ApprovalResponder, AuditRecord, AuditSink
from .engine.approval import ApprovalService
from .engine.audit import JsonlAuditSink, TerminalAuditSink
from .engine.evaluate import Evaluation
from .engine.gate import Gate
from .engine.selection import ToolPolicy, load
from .engine.terminal_approval import TerminalApproval
from .tools.registry import ToolCall, ToolContext, ToolDefinition, ToolRegistry

__all__ = [
    "ApprovalOutcome",
    "ApprovalPolicy",
    "ApprovalRequest",
    "ApprovalResponder",
    "ApprovalService",
    "AuditError",
    "AuditRecord",
    "AuditSink",
    "Behavior",
    "CallRejected",
    "ConfigurationError",
    "Decision",
    "Effect",
    "Evaluation",
    "Gate",
    "JsonlAuditSink",
    "PermissionContractError",
    "PolicyLoadError",
    "Problem",
    "SandboxMode",
    "TerminalApproval",
    "TerminalAuditSink",
    "ToolCall",
    "ToolContext",
    "ToolDefinition",
    "ToolPolicy",
    "ToolPolicyError",
    "ToolRegistry",
    "ToolResult",
    "WorkspacePathError",
    "__version__",
    "is_tool_result",
    "load",
    "tool_error",
    "tool_success",
]
