"""``toolpolicy hook AGENT``: the fast path started for every single hook event.

Nothing here imports click, YAML, pydantic, jsonschema or ``typing`` when the policy cache is
warm: the flags are read by ``hook_args`` (argparse only for help, errors and unusual
spellings), the compiled policy comes from the cache (neither validated nor compiled again),
the decision path is standard library only.
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
from collections.abc import Mapping, Sequence

from ..core.lean_typing import TYPE_CHECKING
from ..core.records import AuditRecord
from ..core.vocabulary import ApprovalPolicy, Behavior, SandboxMode
from .adapter import AgentAdapter, AgentEvent, Answer, EventKind, HookError
from .adapters import ADAPTERS
from .hook_args import HookArgs, plain_hook_args

if TYPE_CHECKING:
    import argparse
    from typing import BinaryIO, TextIO

__all__ = ["EXIT_BLOCK", "EXIT_OK", "default_audit_path", "hook_flags", "hook_parser", "run_hook"]

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
    adapter = ADAPTERS[args.agent]
    try:
        raw = (stdin if stdin is not None else sys.stdin.buffer).read(8 * 1024 * 1024 + 1)
        text = _answer(adapter, args, raw)
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


def _answer(adapter: AgentAdapter, args: HookArgs, raw: bytes) -> str:
    from ..engine.cache import load_compiled

    event = adapter.parse(raw)
    if event.kind is EventKind.OTHER:
        return ""
    if event.kind is EventKind.POST_TOOL_USE:
        _audit(args, _executed(adapter, event, args))
        return ""
    compiled = load_compiled(args.profile, args.policies, args.presets)
    if event.kind is EventKind.SESSION_START:
        return ""  # the cache is warm: the first tool call pays no compile
    from ..engine.audit_record import decision_record
    from ..engine.selection import assemble
    from .decide import decide_call

    policy = assemble(
        compiled,
        preset=args.preset,
        sandbox=args.sandbox,
        approval=args.approval,
        workspace=adapter.workspace(event, args.workspace),
        enforce_boundary=True,
    )
    entry = adapter.entry(event.tool_name)
    decided = decide_call(event, entry, policy, explicit_allow=args.explicit_allow)
    answer = adapter.adjust(event, entry, decided.answer)
    if event.kind is EventKind.PERMISSION_REQUEST:
        answer = _permission_request(answer)
    decision = answer.decision
    _audit(
        args,
        decision_record(
            session_id=event.session_id,
            call_id=event.tool_use_id,
            tool=decided.tool,
            effect=decided.effect.value,
            decision=decision,
            knobs=policy.knobs,
            matched_rules=decided.matched_rules,
            arguments=event.tool_input,
            include_arguments=args.audit_arguments,
            extra=_extra(adapter, event, decision.behavior.label if answer.speak else "none"),
        ),
    )
    return adapter.render(event, answer)


def _permission_request(answer: Answer) -> Answer:
    """A permission prompt is answered by a rule's allow or by any deny, never by an ask."""
    behavior = answer.decision.behavior
    speak = behavior is Behavior.DENY or (behavior is Behavior.ALLOW and answer.speak)
    return Answer(answer.decision, speak)


def _executed(adapter: AgentAdapter, event: AgentEvent, args: HookArgs) -> AuditRecord:
    from ..engine.audit_record import executed_record

    entry = adapter.entry(event.tool_name)
    return executed_record(
        session_id=event.session_id,
        call_id=event.tool_use_id,
        tool=entry.tool or event.tool_name,
        effect=entry.effect.value,
        reason=f"{adapter.name} ran {event.tool_name}",
        source=adapter.name,
        arguments=event.tool_input,
        include_arguments=args.audit_arguments,
        extra=_extra(adapter, event, None),
    )


def _extra(adapter: AgentAdapter, event: AgentEvent, answered: str | None) -> Mapping[str, str]:
    extra = {
        "agent": adapter.name,
        "agent_tool": event.tool_name,
        "event": event.name,
        "permission_mode": event.permission_mode,
    }
    if answered is not None:
        extra["answered"] = answered
    return extra


def _audit(args: HookArgs, record: AuditRecord) -> None:
    from ..engine.audit import JsonlAuditSink

    path = args.audit or default_audit_path()
    os.makedirs(os.path.dirname(os.path.abspath(path)), mode=0o700, exist_ok=True)
    with JsonlAuditSink(path) as sink:
        sink.record(record)
