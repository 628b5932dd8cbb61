"""What ``toolpolicy check`` prints: one function for the click command and for the fast path.

Click-free, so that ``cli.plain_check`` can print exactly what the click command prints
without importing click; JSON through ``core.json_text``, without importing ``json`` (and
``re``).
"""

from __future__ import annotations

from ..core.json_text import encoder, loads
from ..core.lean_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.errors import CallRejected
    from ..engine.evaluate import Evaluation

__all__ = ["check_lines", "rejected_lines"]

_DECIDED = encoder(ensure_ascii=False)
_REJECTED = encoder()


def check_lines(tool: str, raw: str, evaluation: Evaluation, fmt: str) -> list[str]:
    """The lines printed for a decided call (``fmt`` is ``text`` or ``json``)."""
    decision = evaluation.effective
    knobs = evaluation.knobs
    if fmt == "json":
        out = {
            "tool": tool,
            "arguments": loads(raw) if raw.strip() else {},
            **decision.to_json(),
            "preset": knobs.preset,
            "sandbox": (decision.sandbox or knobs.sandbox).value,
            "approval": knobs.approval.value,
            "matched_rules": list(evaluation.matched_rules),
        }
        return [_DECIDED(out)]
    lines = [
        f"{decision.behavior.label} ({decision.source}) - {decision.reason}",
        f"preset {knobs.preset} (sandbox {knobs.sandbox.value}, approval {knobs.approval.value})",
    ]
    if evaluation.matched_rules:
        lines.append("matched rules: " + ", ".join(evaluation.matched_rules))
    return lines


def rejected_lines(exc: CallRejected, tool: str, fmt: str) -> list[str]:
    """The lines printed for a call that fails preparation (exit 1)."""
    if fmt == "json":
        return [_REJECTED({"tool": tool, "error_code": exc.code, "result": exc.content})]
    return [
        f"{exc.code}: the call fails before any permission check",
        f"tool result: {exc.content}",
    ]
