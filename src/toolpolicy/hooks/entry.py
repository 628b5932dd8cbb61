"""``toolpolicy hook claude-code``: the fast path started for every single tool call.

Nothing here imports click, YAML, pydantic or jsonschema when the compiled-policy cache is
warm: the flags are parsed with argparse, the sources come from the cache, the decision path
is standard library only. Every failure exits 2 with one line on stderr — Claude Code treats
exit 2 as "block" — so an error is never an allow.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import BinaryIO, TextIO

from ..core.decision import Decision
from ..core.protocols import AuditRecord
from ..core.vocabulary import ApprovalPolicy, Behavior, SandboxMode
from ..tools.registry import ToolContext
from .claude_code import HookError, answer, parse_event, prepare_event

__all__ = ["default_audit_path", "run_hook"]

EXIT_OK = 0
EXIT_BLOCK = 2


def default_audit_path() -> str:
    """``$TOOLPOLICY_AUDIT``, else ``$XDG_STATE_HOME/toolpolicy/audit.jsonl``."""
    explicit = os.environ.get("TOOLPOLICY_AUDIT")
    if explicit:
        return explicit
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    return os.path.join(state, "toolpolicy", "audit.jsonl")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="toolpolicy hook claude-code",
        description=(
            "Answer one Claude Code PreToolUse event (JSON on stdin) with allow, ask or deny. "
            "Install it as a PreToolUse command hook; see the README for settings.json. "
            "Exit 0 with the answer on stdout; exit 2 (Claude Code blocks the call) with one "
            "line on stderr for bad input or any internal error."
        ),
    )
    parser.add_argument("agent", choices=["claude-code"], help="the calling agent")
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
        "--audit",
        metavar="FILE",
        help="JSONL audit file (default $TOOLPOLICY_AUDIT or "
        "~/.local/state/toolpolicy/audit.jsonl)",
    )
    return parser


def run_hook(
    argv: Sequence[str],
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Decide one event; returns the exit code."""
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    parser = _parser()
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exc:  # argparse printed usage or help
        return EXIT_OK if exc.code == 0 else EXIT_BLOCK
    try:
        raw = (stdin if stdin is not None else sys.stdin.buffer).read(8 * 1024 * 1024 + 1)
        decision = _decide(args, raw)
    except HookError as exc:
        err.write(f"toolpolicy hook: {exc}\n")
        return EXIT_BLOCK
    except Exception as exc:  # fail closed: any internal error blocks the call
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        err.write(f"toolpolicy hook: could not decide: {message}\n")
        return EXIT_BLOCK
    out.write(json.dumps(answer(decision), ensure_ascii=False) + "\n")
    out.flush()
    return EXIT_OK


def _decide(args: argparse.Namespace, raw: bytes) -> Decision:
    from ..engine.audit import JsonlAuditSink, arguments_sha256, utc_now
    from ..engine.cache import load_sources
    from ..engine.request import PermissionRequest
    from ..engine.selection import assemble

    event = parse_event(raw)
    sources = load_sources(args.profile, args.policies, args.presets)
    policy = assemble(
        sources,
        preset=args.preset,
        sandbox=args.sandbox,
        approval=args.approval,
        workspace=event.cwd,
        enforce_boundary=True,
    )
    prepared = prepare_event(event, policy.tools)
    knobs = policy.knobs
    if prepared.error is not None:
        decision = Decision(Behavior.DENY, prepared.error.content, "prepare")
        matched: tuple[str, ...] = ()
        effect = "execute"
    else:
        request = PermissionRequest(
            prepared, ToolContext(policy.workspace, event.tool_use_id, event.session_id)
        )
        evaluation = policy.engine.evaluate(request, knobs)
        decision = evaluation.effective
        matched = evaluation.matched_rules
        effect = request.effect.value
    arguments = dict(prepared.arguments or {})
    audit_path = args.audit or default_audit_path()
    os.makedirs(os.path.dirname(os.path.abspath(audit_path)), mode=0o700, exist_ok=True)
    with JsonlAuditSink(audit_path) as sink:
        sink.record(
            AuditRecord(
                ts=utc_now(),
                session_id=event.session_id,
                call_id=event.tool_use_id,
                tool=prepared.call.name,
                effect=effect,
                behavior=decision.behavior.label,
                source=decision.source,
                reason=decision.reason,
                matched_rules=matched,
                preset=knobs.preset,
                sandbox=(decision.sandbox or knobs.sandbox).value,
                approval=knobs.approval.value,
                approval_outcome=None,
                arguments_sha256=arguments_sha256(arguments),
                extra={"agent": "claude-code", "agent_tool": event.tool_name},
            )
        )
    return decision
