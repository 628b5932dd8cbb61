"""``toolpolicy hook install claude-code``: register the hook in a Claude Code settings file.

The merge keeps everything already in the file and replaces only toolpolicy's own entries
(a command hook whose command runs ``hook claude-code``), so running it twice changes
nothing. Four events are registered with the same command: ``PreToolUse`` (the decision),
``PermissionRequest`` (a rule answers the prompt), ``PostToolUse`` (the audit learns what
ran) and ``SessionStart`` (compiles the policy into the cache before the first call).

The command ends in ``|| exit 2``: Claude Code runs the tool when a command hook exits with
anything but 0 or 2 — 127 when the executable is missing, 1 when it crashes — so without it
a broken install would fail open. Exit 2 blocks the call.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import tempfile
from collections.abc import Sequence
from typing import Any, TextIO

from .adapters import ADAPTERS
from .entry import EXIT_BLOCK, EXIT_OK, hook_flags

__all__ = ["EVENTS", "HOOK_TIMEOUT", "hook_command", "merge_settings", "run_install"]

EVENTS = ("PreToolUse", "PermissionRequest", "PostToolUse", "SessionStart")
HOOK_TIMEOUT = 30
"""Seconds Claude Code waits for the hook; a warm call takes a small fraction of one."""
_MARKER = " hook claude-code"
_PATH_FLAGS = ("--policy", "--presets", "--audit", "--workspace")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="toolpolicy hook install",
        description=(
            "Register `toolpolicy hook claude-code` in a Claude Code settings file "
            "(PreToolUse, PermissionRequest, PostToolUse, SessionStart), keeping what is "
            "there. The selection flags given are written into the command."
        ),
    )
    parser.add_argument("agent", choices=sorted(ADAPTERS), help="the agent to install for")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--settings", metavar="FILE", help="this settings file")
    where.add_argument(
        "--project",
        action="store_true",
        help="the project's .claude/settings.json ($CLAUDE_PROJECT_DIR or the current "
        "folder; the default)",
    )
    where.add_argument("--user", action="store_true", help="~/.claude/settings.json")
    parser.add_argument(
        "--executable",
        metavar="PATH",
        help="the toolpolicy executable to run (default: the one running now)",
    )
    parser.add_argument(
        "--timeout", type=int, default=HOOK_TIMEOUT, help="seconds Claude Code waits (default 30)"
    )
    hook_flags(parser)
    return parser


def run_install(argv: Sequence[str], out: TextIO, err: TextIO) -> int:
    """Install; returns the exit code (2 with one line on stderr for any problem)."""
    parser = _parser()
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exc:
        return EXIT_OK if exc.code == 0 else EXIT_BLOCK
    if args.settings:
        path = os.path.abspath(args.settings)
    elif args.user:
        path = os.path.join(os.path.expanduser("~"), ".claude", "settings.json")
    else:
        project = os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
        path = os.path.join(project, ".claude", "settings.json")
    executable = _executable(args.executable)
    command = hook_command(executable, args.agent, _selection(parser, args))
    try:
        settings = _read(path)
        merged = merge_settings(settings, command, args.timeout)
        _write(path, merged)
    except (OSError, ValueError) as exc:
        err.write(f"toolpolicy hook install: {path}: {exc}\n")
        return EXIT_BLOCK
    out.write(f"toolpolicy: hook installed in {path} ({', '.join(EVENTS)})\n")
    out.write(f"  command: {command}\n")
    return EXIT_OK


def hook_command(executable: Sequence[str], agent: str, flags: Sequence[str]) -> str:
    """The shell command Claude Code runs; a missing or crashing executable exits 2."""
    words = [*executable, "hook", agent, *flags]
    return " ".join(shlex.quote(w) for w in words) + " || exit 2"


def merge_settings(settings: dict[str, Any], command: str, timeout: int) -> dict[str, Any]:
    """``settings`` with toolpolicy's entries (re)placed under each of ``EVENTS``."""
    merged = dict(settings)
    hooks = merged.get("hooks", {})
    if not isinstance(hooks, dict):
        raise ValueError("'hooks' is not an object")
    hooks = dict(hooks)
    ours = {"type": "command", "command": command, "timeout": timeout}
    for event in EVENTS:
        groups = hooks.get(event, [])
        if not isinstance(groups, list):
            raise ValueError(f"'hooks.{event}' is not a list")
        kept = [g for g in (_without_ours(g) for g in groups) if g is not None]
        group: dict[str, Any] = {"hooks": [ours]}
        if event != "SessionStart":
            group = {"matcher": "*", **group}
        hooks[event] = [*kept, group]
    merged["hooks"] = hooks
    return merged


def _without_ours(group: Any) -> Any:
    """``group`` without toolpolicy's command hooks; ``None`` when nothing else was in it."""
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        return group
    others = [h for h in group["hooks"] if not _is_ours(h)]
    if len(others) == len(group["hooks"]):
        return group
    return {**group, "hooks": others} if others else None


def _is_ours(hook: Any) -> bool:
    command = hook.get("command") if isinstance(hook, dict) else None
    return isinstance(command, str) and "toolpolicy" in command and _MARKER in command


def _executable(given: str | None) -> list[str]:
    if given:
        return [os.path.abspath(given)]
    running = sys.argv[0]
    if os.path.basename(running) == "toolpolicy" and os.path.isfile(running):
        return [os.path.abspath(running)]
    return [sys.executable, "-m", "toolpolicy"]


def _selection(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[str]:
    """The selection flags that were given, paths made absolute."""
    flags: list[str] = []
    for action in parser._actions:
        if not action.option_strings or action.dest in _INSTALL_ONLY:
            continue
        value = getattr(args, action.dest)
        if value == action.default or value in (None, [], False):
            continue
        option = action.option_strings[-1]
        if value is True:
            flags.append(option)
            continue
        for item in value if isinstance(value, list) else [value]:
            text = str(item)
            if option in _PATH_FLAGS or (option == "--profile" and os.path.exists(text)):
                text = os.path.abspath(text)
            flags += [option, text]
    return flags


_INSTALL_ONLY = frozenset({"help", "settings", "project", "user", "executable", "timeout"})


def _read(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return {}
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"line {exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise ValueError("the settings are not a JSON object")
    return data


def _write(path: str, settings: dict[str, Any]) -> None:
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".settings.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(settings, stream, indent=2, ensure_ascii=False)
            stream.write("\n")
        if os.path.exists(path):
            os.chmod(temporary, os.stat(path).st_mode & 0o777)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
