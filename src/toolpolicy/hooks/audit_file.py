"""Where the hook's audit lines go, and the one way a line is appended there.

Both the full decision (``hooks.entry``) and the answer lane (``hooks.answer_lane``) append
through :func:`append_line`: the same file, the same chained, locked and synced ``write``
(``engine.audit.JsonlAuditSink``).
"""

from __future__ import annotations

import os

from ..engine.audit import JsonlAuditSink

__all__ = ["append_line", "default_audit_path"]


def default_audit_path() -> str:
    """``$TOOLPOLICY_AUDIT``, else ``$XDG_STATE_HOME/toolpolicy/audit.jsonl``."""
    explicit = os.environ.get("TOOLPOLICY_AUDIT")
    if explicit:
        return explicit
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    return os.path.join(state, "toolpolicy", "audit.jsonl")


def append_line(audit: str | None, body: str) -> None:
    """Append ``body`` (an audit record's JSON) to ``audit`` (``--audit``), else to
    :func:`default_audit_path`; its folder is created ``0700`` when missing."""
    path = audit or default_audit_path()
    os.makedirs(os.path.dirname(os.path.abspath(path)), mode=0o700, exist_ok=True)
    with JsonlAuditSink(path) as sink:
        sink.append(body)
