"""toolpolicy: decide, from checked-in YAML, whether an agent's tool call may run.

``load`` compiles a selection (profile, layered policies, preset and knobs) into an immutable
``ToolPolicy``: ``check`` gives the effective decision without asking anyone, ``gate`` builds
the runtime that asks responders, audits and runs the tools.
"""

from __future__ import annotations

from ._version import __version__
from .core.lazy_exports import exported
from .core.lean_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .core import ApprovalOutcome as ApprovalOutcome
    from .core import ApprovalPolicy as ApprovalPolicy
    from .core import AuditError as AuditError
    from .core import Behavior as Behavior
    from .core import CallRejected as CallRejected
    from .core import ConfigurationError as ConfigurationError
    from .core import Decision as Decision
    from .core import Effect as Effect
    from .core import PermissionContractError as PermissionContractError
    from .core import PolicyLoadError as PolicyLoadError
    from .core import Problem as Problem
    from .core import SandboxMode as SandboxMode
    from .core import ToolPolicyError as ToolPolicyError
    from .core import ToolResult as ToolResult
    from .core import WorkspacePathError as WorkspacePathError
    from .core import is_tool_result as is_tool_result
    from .core import tool_error as tool_error
    from .core import tool_success as tool_success
    from .core.protocols import ApprovalResponder as ApprovalResponder
    from .core.protocols import AuditSink as AuditSink
    from .core.records import ApprovalRequest as ApprovalRequest
    from .core.records import AuditRecord as AuditRecord
    from .engine.approval import ApprovalService as ApprovalService
    from .engine.audit import JsonlAuditSink as JsonlAuditSink
    from .engine.audit import TerminalAuditSink as TerminalAuditSink
    from .engine.evaluate import Evaluation as Evaluation
    from .engine.gate import Gate as Gate
    from .engine.otel_audit import OtelAuditSink as OtelAuditSink
    from .engine.selection import ToolPolicy as ToolPolicy
    from .engine.selection import load as load
    from .engine.terminal_approval import TerminalApproval as TerminalApproval
    from .interop import NativeExport as NativeExport
    from .interop import Omission as Omission
    from .interop import export_policy as export_policy
    from .interop import import_claude_settings as import_claude_settings
    from .tools.registry import ToolCall as ToolCall
    from .tools.registry import ToolContext as ToolContext
    from .tools.registry import ToolDefinition as ToolDefinition
    from .tools.registry import ToolRegistry as ToolRegistry

# Exports load on first use, so that ``toolpolicy hook`` — a process per tool call — pays
# only for the modules its fast path needs.
_EXPORTS = {
    "ApprovalOutcome": "toolpolicy.core",
    "ApprovalPolicy": "toolpolicy.core",
    "ApprovalRequest": "toolpolicy.core.records",
    "ApprovalResponder": "toolpolicy.core.protocols",
    "ApprovalService": "toolpolicy.engine.approval",
    "AuditError": "toolpolicy.core",
    "AuditRecord": "toolpolicy.core.records",
    "AuditSink": "toolpolicy.core.protocols",
    "Behavior": "toolpolicy.core",
    "CallRejected": "toolpolicy.core",
    "ConfigurationError": "toolpolicy.core",
    "Decision": "toolpolicy.core",
    "Effect": "toolpolicy.core",
    "Evaluation": "toolpolicy.engine.evaluate",
    "Gate": "toolpolicy.engine.gate",
    "JsonlAuditSink": "toolpolicy.engine.audit",
    "NativeExport": "toolpolicy.interop",
    "Omission": "toolpolicy.interop",
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
    "export_policy": "toolpolicy.interop",
    "import_claude_settings": "toolpolicy.interop",
    "is_tool_result": "toolpolicy.core",
    "load": "toolpolicy.engine.selection",
    "tool_error": "toolpolicy.core",
    "tool_success": "toolpolicy.core",
}


__getattr__ = exported(globals(), _EXPORTS)


__all__ = [*sorted(_EXPORTS), "__version__"]


def __dir__() -> list[str]:
    return list(__all__)
