"""What a non-shell Claude Code event loads on the warm path: no argparse, typing, shell
parsing, pathlib, tempfile, pickle, hashlib, threading or contextlib.

Issue 14: the hook starts a process per tool call, so a read or a write decision must not pay
for importing ``argparse`` (the installed flags are read plainly), ``typing`` (named tuples
and protocols come from ``core.lean_typing``), ``shlex``, the apply-patch parser and the
shell-line reader (shell events only), ``pathlib``, ``tempfile`` or ``pickle`` (the cache
writes an entry only when it is cold, and reads it with the C unpickler), ``hashlib`` (the
OpenSSL binding: ``core.sha256`` is CPython's own), ``threading`` (a lock is
``_thread.allocate_lock``), ``contextlib``, the terminal sink's escaping (``terminal_text``,
``unicodedata``), the glob compiler (P03's rules hold no path pattern), nor the adapters of
the other agents. A
shell event does load the shell-line reader: the control that the list names modules the hook
really uses. A warm Read of a plain path is answered by its answer lane
(``hooks.answer_lane``), which loads none of the engine and not even ``enum``.
"""

from __future__ import annotations

import json
import os

import pytest

from toolpolicy.hooks.adapters import ADAPTERS

from .conftest import Hook, golden, modules_after_command, modules_after_hook

SHELL_PARSING = (
    "shlex",
    "toolpolicy.hooks.patch",
    "toolpolicy.compile.commands",
    "toolpolicy.compile.plain_subset",
    "toolpolicy.compile.command_scan",
    "toolpolicy.engine.shell_files",
)
OFF_THE_WARM_PATH = (
    "argparse",
    "typing",
    "signal",
    "pathlib",
    "tempfile",
    "pickle",
    "hashlib",
    "threading",
    "contextlib",
    "unicodedata",
    "toolpolicy.engine.terminal_text",
    "toolpolicy.engine.sources",
    "toolpolicy.engine.redaction",
    "toolpolicy.compile.globs",  # P03's cached rules hold no path pattern
    *SHELL_PARSING,
    "toolpolicy.hooks.codex",
    "toolpolicy.hooks.gemini",
    "toolpolicy.hooks.copilot",
)


def _loaded_after(hook: Hook, event: str, *flags: str) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLPOLICY_", "CLAUDE_"))}
    env["TOOLPOLICY_CACHE_DIR"] = str(hook.cache)
    env["CLAUDE_PROJECT_DIR"] = str(hook.ws)
    env["HOME"] = str(hook.home)
    rc, modules = modules_after_hook("claude-code", event, hook.audit, *flags, env=env, cwd=hook.ws)
    names = (*OFF_THE_WARM_PATH, *ENGINE)
    return {"rc": rc, "loaded": [m for m in names if m in modules]}


ENGINE = ("toolpolicy.engine.cache", "toolpolicy.engine.evaluate")
"""What the engine's answer loads, and the answer lane does not (nor ``enum``: see below)."""
WARM = {
    "pre_tool_use_read_inside": [],
    "pre_tool_use_edit": [],
    "pre_tool_use_read_outside": list(ENGINE),
}
"""What of ``ENGINE`` a warm event loads: a Read or an Edit inside the workspace is its lane's,
a Read of ``/etc/hostname`` the engine's (no lane answers a path outside the workspace)."""


# A policy with a command rule: its compiled pattern is read from the cache on every call.
PUSHES = "{name: no-pushes, behavior: deny, reason: Never push, match: {commands: [git push]}}"


@pytest.mark.parametrize("name", sorted(WARM))
def test_a_warm_read_or_write_loads_no_argparse_typing_shell_parsing_pathlib_or_tempfile(
    hook: Hook, name: str
) -> None:
    (hook.ws / "src").mkdir()  # the edit event's cwd
    event = json.dumps(golden(name, hook.ws, hook.home)["event"])
    policy = ("--policy", str(hook.policy(PUSHES)))
    assert hook.run(event, *policy).returncode == 0  # warm the cache (and the Read's lane)
    # the engine's modules did load for the outside Read: the warm path, not around it
    assert _loaded_after(hook, event, *policy) == {"rc": 0, "loaded": WARM[name]}


NOT_FOR_THE_COMMAND = ("re", "json", *OFF_THE_WARM_PATH)
"""What the installed command must not load either: its script, json_text and the plain
character tests leave ``re`` and ``json`` out (issue 14)."""


@pytest.mark.parametrize("name", sorted(WARM))
def test_the_installed_command_answers_a_warm_read_or_write_without_re_or_json(
    hook: Hook, name: str
) -> None:
    (hook.ws / "src").mkdir()
    event = json.dumps(golden(name, hook.ws, hook.home)["event"])
    args = ["hook", "claude-code", "--audit", str(hook.audit)]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLPOLICY_", "CLAUDE_"))}
    env.update(TOOLPOLICY_CACHE_DIR=str(hook.cache), CLAUDE_PROJECT_DIR=str(hook.ws))
    env["HOME"] = str(hook.home)
    modules_after_command(args, event, env=env, cwd=hook.ws)  # warm the cache
    rc, modules = modules_after_command(args, event, env=env, cwd=hook.ws)
    assert rc == 0
    assert [m for m in ENGINE if m in modules] == WARM[name]  # the lane's or the engine's
    assert [name for name in NOT_FOR_THE_COMMAND if name in modules] == []
    assert ("enum" in modules) is bool(WARM[name])  # the vocabulary's enums: the engine's
    assert hook.records()[-1]["agent_tool"] in ("Read", "Edit")  # and audited the call


def test_a_warm_shell_event_does_load_the_shell_line_reader(hook: Hook) -> None:
    event = json.dumps(golden("pre_tool_use_bash", hook.ws, hook.home)["event"])
    policy = ("--policy", str(hook.policy(PUSHES)))
    assert hook.run(event, *policy).returncode == 0
    loaded = _loaded_after(hook, event, *policy)["loaded"]
    assert isinstance(loaded, list)
    assert {"toolpolicy.compile.commands", "toolpolicy.compile.plain_subset"} <= set(loaded)
    assert "typing" not in loaded and "argparse" not in loaded


def test_each_adapter_is_found_under_its_own_name() -> None:
    assert [(name, ADAPTERS[name].name) for name in ADAPTERS] == [
        ("claude-code", "claude-code"),
        ("codex", "codex"),
        ("gemini", "gemini"),
        ("copilot", "copilot"),
    ]
    assert "cursor" not in ADAPTERS
    assert ADAPTERS.get("cursor") is None
