"""``toolpolicy hook install AGENT``: register the hook in the agent's settings file.

Claude Code (``.claude/settings.json``) is written here; Codex CLI (``config.toml``:
``install_codex``), Gemini CLI (``.gemini/settings.json``) and Copilot CLI
(``.github/hooks/toolpolicy.json``: ``install_json``) by their own modules. For Claude Code:

The merge keeps everything already in the file and replaces only toolpolicy's own entries
(a command hook whose command runs ``hook claude-code``), so running it twice changes
nothing. Four events are registered with the same command: ``PreToolUse`` (the decision),
``PermissionRequest`` (a rule answers the prompt), ``PostToolUse`` (the audit learns what
ran) and ``SessionStart`` (compiles the policy into the cache before the first call).

The command ends in ``|| exit 2``: Claude Code runs the tool when a command hook exits with
anything but 0 or 2 — 127 when the executable is missing, 1 when it crashes — so without it
a broken install would fail open. Exit 2 blocks the call. Codex and Gemini block on exit 2
only with a reason on stderr, so their command ends in ``|| { …; exit 2; }`` that says why
(Copilot CLI denies on any non-zero exit; it gets the same ending).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from .adapters import ADAPTERS
from .entry import EXIT_BLOCK, EXIT_OK, hook_flags
from .install_codex import merge_config
from .install_json import merge_copilot, merge_gemini
from .settings_file import read_json, read_text, write_json, write_text

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
            "Register `toolpolicy hook AGENT` in the agent's settings, keeping what is there; "
            "running it twice changes nothing. claude-code: .claude/settings.json "
            "(PreToolUse, PermissionRequest, PostToolUse, SessionStart). codex: config.toml "
            "(PreToolUse, PermissionRequest; default --user, i.e. $CODEX_HOME/config.toml), "
            "then trust the hook in Codex. gemini: .gemini/settings.json (BeforeTool, "
            "hooksConfig.enabled). copilot: .github/hooks/toolpolicy.json (preToolUse). The "
            "selection flags given are written into the command."
        ),
    )
    parser.add_argument("agent", choices=sorted(ADAPTERS), help="the agent to install for")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--settings", metavar="FILE", help="this settings file")
    where.add_argument(
        "--project",
        action="store_true",
        help="the project's settings (the current folder; Claude Code: $CLAUDE_PROJECT_DIR); "
        "the default, except for codex",
    )
    where.add_argument(
        "--user",
        action="store_true",
        help="the user's settings (~/.claude, $CODEX_HOME or ~/.codex, ~/.gemini, "
        "~/.copilot/hooks); the default for codex",
    )
    parser.add_argument(
        "--executable",
        metavar="PATH",
        help="the toolpolicy executable to run (default: the one running now)",
    )
    parser.add_argument(
        "--timeout", type=int, default=HOOK_TIMEOUT, help="seconds the agent waits (default 30)"
    )
    parser.add_argument(
        "--trust",
        action="store_true",
        help="codex: also trust the hooks just written, asking `codex app-server` for the hash "
        "it computes (hooks/list) and storing it with its own config/batchWrite",
    )
    parser.add_argument(
        "--codex",
        metavar="PATH",
        help="the codex executable for --trust (default: codex on PATH)",
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
    path = _target(args)
    command = hook_command(_executable(args.executable), args.agent, _selection(parser, args))
    try:
        notes = _INSTALLERS[args.agent](path, command, args.timeout)
    except (OSError, ValueError) as exc:
        err.write(f"toolpolicy hook install: {path}: {exc}\n")
        return EXIT_BLOCK
    out.write(f"toolpolicy: hook installed in {path} ({notes[0]})\n")
    out.write(f"  command: {command}\n")
    for note in notes[1:]:
        out.write(f"  {note}\n")
    if args.trust:
        return _trust(args, path, command, out, err)
    return EXIT_OK


def _trust(args: argparse.Namespace, path: str, command: str, out: TextIO, err: TextIO) -> int:
    """``--trust``: only Codex records trust; Codex computes the hash, toolpolicy stores it."""
    if args.agent != "codex":
        err.write(f"toolpolicy hook install: --trust is for codex; {args.agent} needs none\n")
        return EXIT_BLOCK
    from .codex_trust import CodexTrustError, trust_codex_hooks

    codex = args.codex or shutil.which("codex")
    if codex is None:
        err.write("toolpolicy hook install: --trust: codex is not on PATH (give --codex PATH)\n")
        return EXIT_BLOCK
    try:
        keys = trust_codex_hooks(codex, os.getcwd(), path, command)
    except CodexTrustError as exc:
        err.write(f"toolpolicy hook install: --trust: {exc}; trust it under /hooks in codex\n")
        return EXIT_BLOCK
    out.write(f"toolpolicy: Codex now trusts {', '.join(keys)}\n")
    return EXIT_OK


def _target(args: argparse.Namespace) -> str:
    """The settings file the flags name for the agent."""
    if args.settings:
        return os.path.abspath(str(args.settings))
    home = os.path.expanduser("~")
    agent = args.agent
    user = args.user or (agent == "codex" and not args.project)
    if agent == "codex":
        folder = os.environ.get("CODEX_HOME") or os.path.join(home, ".codex")
        return os.path.join(folder if user else os.path.join(os.getcwd(), ".codex"), "config.toml")
    if agent == "gemini":
        base = (os.environ.get("GEMINI_CLI_HOME") or home) if user else os.getcwd()
        return os.path.join(base, ".gemini", "settings.json")
    if agent == "copilot":
        folder = os.environ.get("COPILOT_HOME") or os.path.join(home, ".copilot")
        base = folder if user else os.path.join(os.getcwd(), ".github")
        return os.path.join(base, "hooks", "toolpolicy.json")
    if user:
        return os.path.join(home, ".claude", "settings.json")
    project = os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    return os.path.join(project, ".claude", "settings.json")


def _install_claude_code(path: str, command: str, timeout: int) -> list[str]:
    write_json(path, merge_settings(read_json(path), command, timeout))
    return [", ".join(EVENTS)]


def _install_codex(path: str, command: str, timeout: int) -> list[str]:
    merged, groups = merge_config(read_text(path), command, timeout)
    write_text(path, merged)
    keys = ", ".join(f"{path}:{_snake(event)}:{index}:0" for event, index in groups.items())
    return [
        "PreToolUse, PermissionRequest",
        "Codex runs it only once trusted: add --trust (Codex computes each trusted_hash,",
        f"toolpolicy stores it), or trust it under /hooks in codex; keys {keys}.",
        "`codex exec --dangerously-bypass-hook-trust` runs untrusted hooks. Trust it again",
        "whenever the command changes.",
        "An ask is not enforced by the hook (Codex runs the tool): keep approval_policy on.",
    ]


def _install_gemini(path: str, command: str, timeout: int) -> list[str]:
    settings = read_json(path)
    write_json(path, merge_gemini(settings, command, timeout))
    notes = [
        "BeforeTool, hooksConfig.enabled",
        "Gemini asks to trust a project's hooks (headless: trust the folder, e.g. "
        "GEMINI_CLI_TRUST_WORKSPACE=true).",
        "An ask is not enforced by the hook (it would hang headless Gemini): Gemini's own "
        "policy applies.",
    ]
    disabled = settings.get("hooksConfig", {}).get("disabled", [])
    if isinstance(disabled, list) and "toolpolicy" in disabled:
        notes.append("warning: hooksConfig.disabled lists 'toolpolicy': the hook will not run")
    return notes


def _install_copilot(path: str, command: str, timeout: int) -> list[str]:
    write_json(path, merge_copilot(read_json(path), command, timeout))
    return [
        "preToolUse",
        "Copilot CLI's hook protocol is documented, not observed: see the README's limits.",
        "An ask is not enforced by the hook: Copilot's own permission prompt applies.",
    ]


def _snake(event: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", event).lower()


_INSTALLERS: Mapping[str, Callable[[str, str, int], list[str]]] = {
    "claude-code": _install_claude_code,
    "codex": _install_codex,
    "gemini": _install_gemini,
    "copilot": _install_copilot,
}


def hook_command(executable: Sequence[str], agent: str, flags: Sequence[str]) -> str:
    """The shell command the agent runs; a missing or crashing executable exits 2 (for every
    agent but Claude Code with a reason on stderr, which Codex and Gemini require)."""
    words = [*executable, "hook", agent, *flags]
    line = " ".join(shlex.quote(w) for w in words)
    if agent == "claude-code":
        return line + " || exit 2"
    return (
        line + ' || { rc=$?; [ "$rc" -eq 2 ] || echo "toolpolicy hook failed (exit $rc)" >&2; '
        "exit 2; }"
    )


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
    """The command that runs toolpolicy: ``given``, the installed script running now, or
    this Python with ``-P -m toolpolicy``. The agent runs the hook in the project folder,
    which ``python -m`` would put first on the import path: ``-P`` keeps it off, so a
    ``toolpolicy.py`` the agent writes there is never imported in place of the package."""
    if given:
        return [os.path.abspath(given)]
    running = sys.argv[0]
    if os.path.basename(running) == "toolpolicy" and os.path.isfile(running):
        return [os.path.abspath(running)]
    return [sys.executable, "-P", "-m", "toolpolicy"]


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


_INSTALL_ONLY = frozenset(
    {"help", "settings", "project", "user", "executable", "timeout", "trust", "codex"}
)
