"""Layer 1: the vocabulary and the contracts. Standard library only.

The names below load with their module on first use: importing a module of this layer (the
hook's answer lane reads ``core.json_text`` and ``core.sha256``) does not build the
vocabulary's enums.
"""

from __future__ import annotations

from .lazy_exports import exported
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
    "ApprovalOutcome": "toolpolicy.core.vocabulary",
    "ApprovalPolicy": "toolpolicy.core.vocabulary",
    "AuditError": "toolpolicy.core.errors",
    "Behavior": "toolpolicy.core.vocabulary",
    "CallRejected": "toolpolicy.core.errors",
    "ConfigurationError": "toolpolicy.core.errors",
    "Decision": "toolpolicy.core.decision",
    "Effect": "toolpolicy.core.vocabulary",
    "PermissionContractError": "toolpolicy.core.errors",
    "PolicyLoadError": "toolpolicy.core.errors",
    "Problem": "toolpolicy.core.errors",
    "SandboxMode": "toolpolicy.core.vocabulary",
    "ToolPolicyError": "toolpolicy.core.errors",
    "ToolResult": "toolpolicy.core.results",
    "WorkspacePathError": "toolpolicy.core.errors",
    "is_tool_result": "toolpolicy.core.results",
    "tool_error": "toolpolicy.core.results",
    "tool_success": "toolpolicy.core.results",
}


__getattr__ = exported(globals(), _EXPORTS)


__all__ = sorted(_EXPORTS)


def __dir__() -> list[str]:
    return list(__all__)
