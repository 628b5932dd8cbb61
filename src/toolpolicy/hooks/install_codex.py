"""``toolpolicy hook install codex``: the ``[hooks]`` entries of a Codex ``config.toml``.

Codex reads ``[[hooks.PreToolUse]]`` and ``[[hooks.PermissionRequest]]`` groups (a ``matcher``
regex and ``[[hooks.<event>.hooks]]`` command handlers, ``timeout`` in seconds), as in the
template ``shared/realclients/codex-gemini/codex_config.toml`` used with Codex CLI 0.171.0.
The file is edited as text, so comments and layout stay: toolpolicy's block is delimited by
two marker comments, replaced when present and appended otherwise, and the result must parse
as TOML before it is written (``tomllib``) — a file whose ``hooks`` are inline tables cannot
take an appended group and is left unchanged, with an error.

Codex runs a user hook only once it is trusted: a ``[hooks.state."<key>"]`` entry whose
``trusted_hash`` is the ``currentHash`` Codex itself reports (``/hooks`` in the TUI, or
``hooks/list`` of ``codex app-server``). How that hash is computed is not documented, so it
is never computed here: ``--trust`` asks Codex for it (:mod:`toolpolicy.hooks.codex_trust`).
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

__all__ = ["BEGIN", "END", "codex_block", "merge_config"]

BEGIN = "# >>> toolpolicy hook codex (written by `toolpolicy hook install codex`)"
END = "# <<< toolpolicy hook codex"
EVENTS = ("PreToolUse", "PermissionRequest")
_OURS = re.compile(rf"\n*^{re.escape(BEGIN)}$.*?^{re.escape(END)}$\n?", re.MULTILINE | re.DOTALL)


def codex_block(command: str, timeout: int) -> str:
    """toolpolicy's ``[[hooks.*]]`` groups, between the markers."""
    quoted = json.dumps(command)  # a JSON string is a TOML basic string
    lines = [BEGIN]
    for event in EVENTS:
        lines += [
            f"[[hooks.{event}]]",
            'matcher = ".*"',
            f"[[hooks.{event}.hooks]]",
            'type = "command"',
            f"command = {quoted}",
            f"timeout = {timeout}",
            "",
        ]
    lines[-1] = END
    return "\n".join(lines) + "\n"


def merge_config(text: str, command: str, timeout: int) -> tuple[str, dict[str, int]]:
    """``text`` with toolpolicy's block (re)placed at its end, and the index of toolpolicy's
    matcher group under each event (part of the key Codex trusts the hook under)."""
    _parse(text, "the file")
    found = _OURS.search(text)
    # Codex's own config/batchWrite (``--trust``, /hooks) appends its [hooks.state] tables at
    # the end of the file, which may be inside this block: they are kept, after it.
    foreign = _foreign(found.group(0)) if found else ""
    kept = _OURS.sub("\n", text).rstrip("\n")
    merged = (kept + "\n\n" if kept else "") + codex_block(command, timeout)
    if foreign:
        merged += "\n" + foreign + "\n"
    config = _parse(merged, "the file with toolpolicy's [[hooks]] appended")
    hooks = config.get("hooks", {})
    groups = {event: hooks.get(event, []) for event in EVENTS}
    return merged, {event: len(found) - 1 for event, found in groups.items()}


def _foreign(block: str) -> str:
    """The tables another writer put inside toolpolicy's block: all from the first header
    that is not one of toolpolicy's own groups to the end marker."""
    ours = {f"[[hooks.{event}]]" for event in EVENTS} | {
        f"[[hooks.{event}.hooks]]" for event in EVENTS
    }
    lines = block.strip("\n").splitlines()[1:-1]
    for index, line in enumerate(lines):
        header = line.strip()
        if header.startswith("[") and header not in ours:
            return "\n".join(lines[index:]).strip("\n")
    return ""


def _parse(text: str, what: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{what} is not TOML: {exc}") from None
