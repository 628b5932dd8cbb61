"""The composition root: a compiled policy, a model client and the two required boundaries
(approval and audit) become an ``AgentRunner``.

The caller cannot hand in a permission policy of its own: the gate is built by the selected
``ToolPolicy`` itself, which refuses a policy-enforcing profile without an approval service or
an audit sink (``ConfigurationError``) and refuses a forged built-in profile.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core.protocols import AuditSink
from .loop import DEFAULT_MAX_TURNS, DEFAULT_SYSTEM_PROMPT, AgentRunner
from .model import ModelClient

if TYPE_CHECKING:
    from ..engine.approval import ApprovalService
    from ..engine.selection import ToolPolicy

__all__ = ["build_agent"]


def build_agent(
    policy: ToolPolicy,
    model: ModelClient,
    *,
    approval: ApprovalService | None,
    audit: Sequence[AuditSink],
    max_turns: int = DEFAULT_MAX_TURNS,
    system_prompt: str | None = DEFAULT_SYSTEM_PROMPT,
    session_id: str | None = None,
    interrupted: threading.Event | None = None,
    audit_arguments: bool = False,
) -> AgentRunner:
    """An agent whose every tool call goes through ``policy``'s gate.

    ``audit_arguments`` records each call's arguments in its audit record, with secrets and
    file contents redacted (:func:`toolpolicy.engine.redaction.redacted_arguments`).
    Raises ``ConfigurationError`` when the policy needs approval or audit and either is
    missing, and for a ``max_turns`` outside 1..1000.
    """
    gate = policy.gate(
        approval=approval,
        audit=audit,
        session_id=session_id,
        include_arguments=audit_arguments,
    )
    return AgentRunner(
        model,
        gate,
        workspace=policy.workspace,
        max_turns=max_turns,
        system_prompt=system_prompt,
        interrupted=interrupted,
    )
