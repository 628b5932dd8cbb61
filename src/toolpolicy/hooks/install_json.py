"""``toolpolicy hook install gemini|copilot``: toolpolicy's entry in a JSON hooks file.

* Gemini CLI (``docs/hooks/reference.md``, ``gemini_settings.json`` of the realclients
  harness): ``hooksConfig.enabled: true`` and a ``hooks.BeforeTool`` group
  ``{"matcher": ".*", "hooks": [{"type": "command", "name": "toolpolicy", "command": …,
  "timeout": MILLISECONDS}]}``. Gemini strips the hook's environment, so the selection flags
  are in the command string.
* Copilot CLI (GitHub's hooks reference): a hooks file ``{"version": 1, "hooks":
  {"preToolUse": [{"type": "command", "bash": …, "timeoutSec": SECONDS}]}}``.

Everything else in the file stays; toolpolicy's own entries (a command that runs
``hook gemini`` / ``hook copilot``) are replaced, so installing twice changes nothing.
"""

from __future__ import annotations

from typing import Any

__all__ = ["merge_copilot", "merge_gemini"]


def merge_gemini(settings: dict[str, Any], command: str, timeout: int) -> dict[str, Any]:
    """Gemini ``settings.json`` with hooks enabled and toolpolicy's ``BeforeTool`` hook."""
    merged = dict(settings)
    config = merged.get("hooksConfig", {})
    if not isinstance(config, dict):
        raise ValueError("'hooksConfig' is not an object")
    merged["hooksConfig"] = {**config, "enabled": True}
    ours = {
        "type": "command",
        "name": "toolpolicy",
        "command": command,
        "timeout": timeout * 1000,
    }
    merged["hooks"] = _with_ours(
        merged, "BeforeTool", {"matcher": ".*", "hooks": [ours]}, " hook gemini"
    )
    return merged


def merge_copilot(settings: dict[str, Any], command: str, timeout: int) -> dict[str, Any]:
    """A Copilot hooks file with toolpolicy's ``preToolUse`` hook."""
    merged = {"version": 1, **settings}
    ours = {"type": "command", "bash": command, "timeoutSec": timeout}
    merged["hooks"] = _with_ours(merged, "preToolUse", ours, " hook copilot")
    return merged


def _with_ours(settings: dict[str, Any], event: str, entry: Any, marker: str) -> dict[str, Any]:
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise ValueError("'hooks' is not an object")
    entries = hooks.get(event, [])
    if not isinstance(entries, list):
        raise ValueError(f"'hooks.{event}' is not a list")
    kept = [e for e in (_without_ours(e, marker) for e in entries) if e is not None]
    return {**hooks, event: [*kept, entry]}


def _without_ours(entry: Any, marker: str) -> Any:
    """``entry`` without toolpolicy's hooks; ``None`` when nothing else was in it."""
    if _is_ours(entry, marker):
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("hooks"), list):
        return entry
    others = [h for h in entry["hooks"] if not _is_ours(h, marker)]
    if len(others) == len(entry["hooks"]):
        return entry
    return {**entry, "hooks": others} if others else None


def _is_ours(hook: Any, marker: str) -> bool:
    if not isinstance(hook, dict):
        return False
    words = [hook.get(k) for k in ("command", "bash")]
    return any(isinstance(w, str) and "toolpolicy" in w and marker in w for w in words)
