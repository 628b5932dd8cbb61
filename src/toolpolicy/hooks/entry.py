"""``toolpolicy hook AGENT``: the fast path started for every single hook event.

Nothing here imports click, YAML, pydantic, jsonschema or ``typing`` when the policy cache is
warm: the flags are read by ``hook_args`` (argparse only for help, errors and unusual
spellings); a Read that an answer lane answers (``hooks.answer_lane``) loads none of the
engine; any other event is answered by ``hooks.answer``, with the compiled policy from the
cache (neither validated nor compiled again) and a decision path of standard library only.
Every failure exits 2 with one line on stderr — Claude Code, Codex CLI and Gemini CLI treat
exit 2 with a reason on stderr as "block", Copilot CLI any non-zero exit — so an error is never
an allow. ``toolpolicy hook install AGENT`` is answered here too (``hooks.install``).

Events (Claude Code's names; each adapter maps its own): ``PreToolUse`` is decided and
audited; ``PermissionRequest`` is answered when a rule allows or anything denies, else left to
the agent's prompt; ``PostToolUse`` appends what ran to the audit; ``SessionStart`` warms the
cache; any other event gets no opinion (exit 0).
"""

from __future__ import annotations

import os
import sys

from ..core.lean_typing import TYPE_CHECKING
from .adapters import ADAPTERS
from .answer_lane import answer
from .hook_args import HookArgs, plain_hook_args
from .hook_error import MAX_EVENT_BYTES, HookError

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import BinaryIO, TextIO

__all__ = ["EXIT_BLOCK", "EXIT_OK", "hook_flags", "hook_parser", "run_hook"]

EXIT_OK = 0
EXIT_BLOCK = 2


def hook_flags(parser: argparse.ArgumentParser) -> None:
    """The selection flags of the hook (``hook install`` writes the same ones)."""
    parser.add_argument(
        "--profile",
        default=os.environ.get("TOOLPOLICY_PROFILE", "P03"),
        metavar="NAME|PATH",
        help="built-in profile or a policy file (default P03)",
    )
    parser.add_argument(
        "--preset",
        default=os.environ.get("TOOLPOLICY_PRESET"),
        metavar="NAME",
        help="preset from the table (default: the table's default)",
    )
    from ..core.vocabulary import ApprovalPolicy, SandboxMode

    parser.add_argument(
        "--sandbox", choices=[m.value for m in SandboxMode], help="set the sandbox knob directly"
    )
    parser.add_argument(
        "--approval",
        choices=[p.value for p in ApprovalPolicy],
        help="set the approval knob directly (never: ask becomes deny)",
    )
    parser.add_argument(
        "--policy",
        dest="policies",
        action="append",
        default=[],
        metavar="PATH",
        help="policy file layered on the profile (repeatable)",
    )
    parser.add_argument("--presets", metavar="PATH", help="another preset table")
    parser.add_argument(
        "--workspace",
        metavar="DIR",
        help="the workspace (Claude Code: when $CLAUDE_PROJECT_DIR is not set; default: the "
        "agent's project folder, else the event's cwd)",
    )
    parser.add_argument(
        "--explicit-allow",
        action="store_true",
        help="answer allow when only a profile default allows (default: no opinion, so the "
        "agent's own permission flow applies)",
    )
    parser.add_argument(
        "--audit",
        metavar="FILE",
        help="JSONL audit file (default $TOOLPOLICY_AUDIT or "
        "~/.local/state/toolpolicy/audit.jsonl)",
    )
    parser.add_argument(
        "--audit-arguments",
        action="store_true",
        help="record each call's arguments in the audit (secret-looking values and file "
        "contents redacted), so that `toolpolicy diff --calls` can replay them",
    )


def hook_parser(agent: str | None) -> argparse.ArgumentParser:
    """The hook's flags; ``toolpolicy hook NAME --help`` describes that agent's adapter."""
    import argparse

    adapter = ADAPTERS.get(agent) if agent else None
    parser = argparse.ArgumentParser(
        prog="toolpolicy hook",
        description=(
            adapter.description
            if adapter is not None
            else "Answer one agent hook event (JSON on stdin) for the named agent; "
            "`toolpolicy hook NAME --help` says what each agent honours and what it cannot "
            "enforce. Install it with `toolpolicy hook install NAME`; see the README."
        ),
    )
    parser.add_argument("agent", choices=sorted(ADAPTERS), help="the calling agent")
    hook_flags(parser)
    return parser


def run_hook(
    argv: Sequence[str],
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Answer one event (or ``install``); returns the exit code."""
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    if list(argv[:1]) == ["install"]:
        from .install import run_install

        return run_install(list(argv[1:]), out, err)
    args = plain_hook_args(argv, ADAPTERS)
    if args is None:
        try:
            parsed = hook_parser(argv[0] if argv else None).parse_args(list(argv))
        except SystemExit as exc:  # argparse printed usage or help
            return EXIT_OK if exc.code == 0 else EXIT_BLOCK
        args = HookArgs(**vars(parsed))
    try:
        raw = (stdin if stdin is not None else sys.stdin.buffer).read(MAX_EVENT_BYTES + 1)
        text = answer(args, raw)
        if text is None:
            from .answer import full_answer

            text = full_answer(ADAPTERS[args.agent], args, raw)
    except HookError as exc:
        err.write(f"toolpolicy hook: {exc}\n")
        return EXIT_BLOCK
    except Exception as exc:  # fail closed: any internal error blocks the call
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        err.write(f"toolpolicy hook: could not decide: {message}\n")
        return EXIT_BLOCK
    if text:
        try:
            out.write(text)
            out.flush()
        except OSError as exc:  # the agent closed its end: it did not get the answer
            err.write(f"toolpolicy hook: could not write the answer: {exc.strerror or exc}\n")
            return EXIT_BLOCK
    return EXIT_OK
