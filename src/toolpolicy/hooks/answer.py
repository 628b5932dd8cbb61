"""One hook event answered through the engine: parsed by the agent's adapter, decided, adjusted
to the agent's modes, audited and rendered.

This is every event's answer. An event that the answer lane (``hooks.answer_lane``) answers
got the very answer this module gave for the lane's representatives, so there is one answer
either way; after a Read, Write or Edit, and after recording that a call ran
(``PostToolUse``), this module also builds that lane (``hooks.lane_build``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..core.decision import Decision
from ..core.records import AuditRecord
from ..core.vocabulary import Behavior
from ..engine.audit import record_json
from ..engine.audit_record import decision_record, executed_record
from ..engine.cache import compiled_from
from ..engine.selection import ToolPolicy, assemble
from ..tools.workspace import MAX_PATH_BYTES
from .adapter import AgentAdapter, AgentEvent, Answer, EventKind, Kind
from .answer_lane import Inputs, Lane, answers_path, lane_inputs, lane_key
from .audit_file import append_line
from .decide import decide_call
from .event_json import load_event
from .hook_args import HookArgs

__all__ = ["LANED", "full_answer", "render_answer"]

LANED = (Kind.READ, Kind.WRITE, Kind.EDIT)
"""The kinds of call whose answer may become a lane: one file, named by one path field
(checked here, so that no other event loads the builder)."""


def full_answer(adapter: AgentAdapter, args: HookArgs, raw: bytes) -> str:
    """The answer to the event in ``raw`` (``""``: no opinion); its audit line is written."""
    event = adapter.parse(raw)
    if event.kind is EventKind.OTHER:
        return ""
    if event.kind is EventKind.POST_TOOL_USE:
        started = _lane_start(args, event, raw, [])
        record = _executed(adapter, event, args)
        append_line(args.audit, record_json(record))
        if started is not None:
            from .lane_build import remember_executed

            key, before = started
            _building(lambda: remember_executed(key, event, record, before))
        return ""
    compiled, files = compiled_from(args.profile, args.policies, args.presets)
    if event.kind is EventKind.SESSION_START:
        return ""  # the cache is warm: the first tool call pays no compile
    laned = files is not None and _may_lane(adapter, args, event)
    started = _lane_start(args, event, raw, files) if laned and files is not None else None
    policy = assemble(
        compiled,
        preset=args.preset,
        sandbox=args.sandbox,
        approval=args.approval,
        workspace=adapter.workspace(event, args.workspace),
        enforce_boundary=True,
    )
    text, record = render_answer(adapter, args, event, policy)
    append_line(args.audit, record_json(record))
    if started is not None:
        from .lane_build import remember

        key, before = started
        _building(lambda: remember(key, adapter, args, event, policy, before))
    return text


def _building(build: Callable[[], None]) -> None:
    """Build a lane after the answer was given and audited: a lane that cannot be built costs
    the next call its speed, never this call its answer (the audit already says it)."""
    try:  # noqa: SIM105 - contextlib is not loaded on the hook's warm path
        build()
    except Exception:
        pass  # nothing to report: the engine answers the next call too


def _may_lane(adapter: AgentAdapter, args: HookArgs, event: AgentEvent) -> bool:
    """Whether a lane could answer ``event`` whatever the policy's rules (they only narrow
    it): a call of one file whose path a lane without rule keys would answer. Checked before
    a lane's inputs are taken, so that an event no lane can answer (a dot folder, a link, a
    path outside) does not pay for them."""
    entry = adapter.entry(event.tool_name)
    if entry.kind not in LANED or len(entry.paths) != 1 or entry.tool is None:
        return False
    field, nothing = entry.paths[0], frozenset[str]()
    path = event.tool_input.get(field)
    workspace = adapter.workspace(event, args.workspace)
    widest = Lane(
        field, workspace, event.cwd, MAX_PATH_BYTES, nothing, nothing, nothing, "", (), ()
    )
    return isinstance(path, str) and answers_path(widest, path)


def _lane_start(
    args: HookArgs, event: AgentEvent, raw: bytes, files: list[tuple[str, str]]
) -> tuple[bytes, Inputs] | None:
    """The key of the lane ``event`` (``raw``) may get (``answer_lane.lane_key``) and the
    inputs of its answer, built from the policy ``files``; ``None`` when no lane may be built
    (a ``tool_input`` holding a list, as ``MultiEdit``'s ``edits``, names more files, and
    would make every event's key its own). Taken before the answer is given: a lane holds
    these, not what they became while the engine answered (a policy link retargeted, a
    module saved meanwhile)."""
    if any(isinstance(v, (list, dict)) for v in event.tool_input.values()):
        return None
    key = lane_key(args, load_event(raw))
    return None if key is None else (key, lane_inputs(files))


def render_answer(
    adapter: AgentAdapter, args: HookArgs, event: AgentEvent, policy: ToolPolicy
) -> tuple[str, AuditRecord]:
    """What the agent reads for ``event`` under ``policy``, and its audit record."""
    entry = adapter.entry(event.tool_name)
    decided = decide_call(event, entry, policy, explicit_allow=args.explicit_allow)
    answer = adapter.adjust(event, entry, decided.answer)
    if event.kind is EventKind.PERMISSION_REQUEST:
        answer = _permission_request(answer)
    decision: Decision = answer.decision
    record = decision_record(
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
    )
    return adapter.render(event, answer), record


def _permission_request(answer: Answer) -> Answer:
    """A permission prompt is answered by a rule's allow or by any deny, never by an ask."""
    behavior = answer.decision.behavior
    speak = behavior is Behavior.DENY or (behavior is Behavior.ALLOW and answer.speak)
    return Answer(answer.decision, speak)


def _executed(adapter: AgentAdapter, event: AgentEvent, args: HookArgs) -> AuditRecord:
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
