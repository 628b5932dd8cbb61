"""toolpolicy: decide, from checked-in YAML, whether an agent's tool call may run.

``load`` compiles a selection (profile, layered policies, preset and knobs) into an immutable
``ToolPolicy``: ``check`` gives the effective decision without asking anyone, ``gate`` builds
the runtime that asks responders, audits and runs the tools.
"""

__version__ = "0.1.0"

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from .engine.otel_audit import OtelAuditSink
    from .engine.selection import ToolPolicy, load
    from .engine.terminal_approval import TerminalApproval
    from .tools.registry import ToolCall, ToolContext, ToolDefinition, ToolRegistry

# Exports load on first use, so that ``toolpolicy hook`` — a process per tool call — pays
# only for the modules its fast path needs.
_EXPORTS = {
    "ApprovalOutcome": "toolpolicy.core",
    "ApprovalPolicy": "toolpolicy.core",
    "ApprovalRequest": "toolpolicy.core.protocols",
    "ApprovalResponder": "toolpolicy.core.protocols",
    "ApprovalService": "toolpolicy.engine.approval",
    "AuditError": "toolpolicy.core",
    "AuditRecord": "toolpolicy.core.protocols",
    "AuditSink": "toolpolicy.core.protocols",
    "Behavior": "toolpolicy.core",
    "CallRejected": "toolpolicy.core",
    "ConfigurationError": "toolpolicy.core",
    "Decision": "toolpolicy.core",
    "Effect": "toolpolicy.core",
    "Evaluation": "toolpolicy.engine.evaluate",
    "Gate": "toolpolicy.engine.gate",
    "JsonlAuditSink": "toolpolicy.engine.audit",
    "OtelAuditSink": "toolpolicy.engine.otel_audit",
    "PermissionContractError": "toolpolicy.core",
    "PolicyLoadError": "toolpolicy.core",
    "Problem": "toolpolicy.core",
    "SandboxMode": "toolpolicy.core",
    "TerminalApproval": "toolpolicy.engine.terminal_approval",
    "TerminalAuditSink": "toolpolicy.engine.audit",
    "ToolCall": "toolpolicy.tools.registry",
    "ToolContext": "toolpolicy.tools.registry",
    "ToolDefinition": "toolpolicy.tools.registry",
    "ToolPolicy": "toolpolicy.engine.selection",
    "ToolPolicyError": "toolpolicy.core",
    "ToolRegistry": "toolpolicy.tools.registry",
    "ToolResult": "toolpolicy.core",
    "WorkspacePathError": "toolpolicy.core",
    "is_tool_result": "toolpolicy.core",
    "load": "toolpolicy.engine.selection",
    "tool_error": "toolpolicy.core",
    "tool_success": "toolpolicy.core",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'toolpolicy' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


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
    "OtelAuditSink",
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
