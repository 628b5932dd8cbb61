"""The check a file tool makes on the path it actually opened, before using it.

The decision looked at the path the call says; ``refuse_opened`` looks at the real
workspace-relative path that was opened (``ParentDir.relative`` or a ``glob`` match):

- a write into the protected set is refused with the set's reason, under every profile;
- a deny from the guard (the policy's path rules) is refused with the rule's reason;
- an ask from the guard on a path the decision did not look at (``ToolContext.decided``:
  the path as written and as resolved when it was decided) is refused with
  ``OPENED_ELSEWHERE``: a human approved the path the call named, not this one, and nobody
  is asked again without a human — the model may call the tool with the real path instead.

Every refusal is ``permission_denied``, like a denial by the gate.
"""

from __future__ import annotations

from ..core.vocabulary import Behavior, Effect
from .registry import ToolContext
from .safefs import FileToolError

__all__ = ["OPENED_ELSEWHERE", "refuse_opened"]

OPENED_ELSEWHERE = "The path opened is not the path decided, and a rule asks before it"


def refuse_opened(context: ToolContext, tool: str, effect: Effect, opened: str) -> None:
    """Raise ``FileToolError("permission_denied", reason)`` unless ``tool`` may use
    ``opened``; an ask is answered only for the paths in ``context.decided``."""
    if effect is Effect.WRITE:
        reason = context.protected.refusal(opened)
        if reason is not None:
            raise FileToolError("permission_denied", reason)
    if context.guard is None:
        return
    decision = context.guard.check_open(tool, effect, opened)
    if decision is None:
        return
    if decision.behavior is Behavior.DENY:
        raise FileToolError("permission_denied", decision.reason)
    if decision.behavior is Behavior.ASK and opened not in context.decided:
        raise FileToolError("permission_denied", f"{OPENED_ELSEWHERE}: {opened}")
