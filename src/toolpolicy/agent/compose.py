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
from ..tools.builtin import builtin_registry
from ..tools.registry import ToolSnapshot
from .loop import DEFAULT_MAX_TURNS, DEFAULT_SYSTEM_PROMPT, AgentRunner
from .model import ModelClient

if TYPE_CHECKING:
    from ..engine.approval import ApprovalService
    from ..engine.selection import ToolPolicy

__all__ = ["build_agent", "runnable_tools"]


def runnable_tools(policy: ToolPolicy) -> ToolSnapshot | None:
    """The profile's tools with their real handlers; ``None`` when the policy already has them.

    The tools stay exactly the profile's (P01 offers only ``shell``).
    """
    tools = policy.tools
    if all(d is not None and d.handler is not None for d in map(tools.get, tools.names)):
        return None
    real = builtin_registry().snapshot()
    return ToolSnapshot(d for n in tools.names if (d := real.get(n)) is not None)


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
) -> AgentRunner:
    """An agent whose every tool call goes through ``policy``'s gate.

    Raises ``ConfigurationError`` when the policy needs approval or audit and either is
    missing, and for a ``max_turns`` outside 1..1000.
    """
    gate = policy.gate(
        approval=approval,
        audit=audit,
        registry=runnable_tools(policy),
        session_id=session_id,
    )
    return AgentRunner(
        model,
        gate,
        workspace=policy.workspace,
        max_turns=max_turns,
        system_prompt=system_prompt,
        interrupted=interrupted,
    )
