"""Building the hook's answer lane (``hooks.answer_lane``) after the engine answered a call of
one file: a Read, a Write or an Edit (``answer.LANED``).

A lane is written only when everything agrees: the event is one a lane may answer (its key,
given by ``hooks.answer``), its path is one the lane would answer for, the file tool has plain
calls under the policy (``engine.plain_lane.plain_shape``; the hook's writes and edits carry
empty contents, so only the path tells calls apart), the workspace as the agent names it is its
own real path, and the engine's answer — what the agent reads and the audit line but its
per-call fields — is the same for the event's own path and for two representative plain paths
of the workspace. The lane then holds that answer and its inputs (``answer_lane.lane_inputs``).
A ``PostToolUse`` event's lane (:func:`remember_executed`) holds its audit line alone.
"""

from __future__ import annotations

import os
from types import MappingProxyType

from ..core.json_text import string_literal
from ..core.records import AuditRecord
from ..engine.audit import record_json
from ..engine.cache_files import write_entry
from ..engine.plain_lane import PlainShape, plain_shape, rule_keys
from ..engine.selection import ToolPolicy
from .adapter import AgentAdapter, AgentEvent
from .answer import render_answer
from .answer_lane import (
    SLOTS,
    Inputs,
    Lane,
    answers_path,
    lane_file,
    lane_inputs,
    lane_path,
)
from .hook_args import HookArgs

__all__ = ["remember", "remember_executed"]

_OPEN = {slot: f"\x00{slot}\x00" for slot in SLOTS}
"""What stands in each open field while the line is written (no record holds a NUL)."""


def remember(
    key: bytes,
    adapter: AgentAdapter,
    args: HookArgs,
    event: AgentEvent,
    policy: ToolPolicy,
    before: Inputs,
) -> None:
    """Write the lane ``key`` names, answering events like ``event``, when one may (see the
    module docstring); ``before``: the inputs of the answer, taken before it was given."""
    entry = adapter.entry(event.tool_name)  # a call of one file (``answer._may_lane``)
    if entry.tool is None:
        return
    shapes = _shape(policy, entry.tool)
    workspace, cwd = policy.workspace, event.cwd
    if shapes is None or not _real_folder(workspace):
        return
    if adapter.workspace(event, args.workspace) != workspace:
        # The key holds the workspace as spelled (the flag, the variable, the cwd): only a
        # spelling that is its own real path stays the same folder (a lane's walk sees any
        # link planted in it later; a link in the spelling could be pointed elsewhere).
        return
    if os.path.normpath(cwd) != cwd:
        return  # a relative path joined to it would not be normalized
    shape, outside = shapes
    field = entry.paths[0]
    path = event.tool_input.get(field)
    limits = (shape.limit, shape.names, shape.extensions, outside)
    draft = Lane(field, workspace, cwd, *limits, "", (), ())
    candidates = [path, *(f"{workspace}/{shape.representative(n)}" for n in (0, 1))]
    if not all(isinstance(p, str) and answers_path(draft, p) for p in candidates):
        return
    answers = set()
    for candidate in candidates:
        given = MappingProxyType({**event.tool_input, field: candidate})
        text, record = render_answer(adapter, args, event._replace(tool_input=given), policy)
        answers.add((text, _open_line(record)))
    if len(answers) != 1:
        return
    text, cut = answers.pop()
    if cut is None:
        return
    pieces, slots = cut
    lane = draft._replace(text=text, pieces=pieces, slots=slots)
    _write(key, before, lane)


def remember_executed(key: bytes, event: AgentEvent, record: AuditRecord, before: Inputs) -> None:
    """Write the lane ``key`` names, recording ``PostToolUse`` events like ``event`` as
    ``record`` did: its fields come from the event's key alone (the agent, its tool, the
    event's name and mode), but for the open ones; ``before`` as for :func:`remember`."""
    cut = _open_line(record)
    if cut is None or os.path.normpath(event.cwd) != event.cwd:
        return
    nothing: frozenset[str] = frozenset()
    lane = Lane("", "", event.cwd, 0, nothing, nothing, nothing, "", *cut)
    _write(key, before, lane)


def _write(key: bytes, before: Inputs, lane: Lane) -> None:
    """Write ``lane`` under ``key`` with the inputs taken ``before`` its answer, unless they
    changed while it was given (then no lane: the next call asks the engine again)."""
    if lane_inputs([(path, sha) for path, sha, _ in before[0]]) == before:
        write_entry(lane_path(key), lane_file(key, before, lane))


def _shape(policy: ToolPolicy, tool: str) -> tuple[PlainShape, frozenset[str]] | None:
    """The shape of ``tool``'s plain calls under ``policy``, and the keys of its absolute and
    home rules in lower case (``None``: the tool has no plain calls)."""
    definition = policy.tools.get(tool)
    if definition is None:
        return None
    relative, absolute = rule_keys(policy.engine, tool)
    shape = plain_shape(definition, relative, policy.engine.protected)
    return None if shape is None else (shape, frozenset(k.lower() for k in absolute))


def _real_folder(workspace: str) -> bool:
    """A workspace whose path is its own real, normalized path (and not ``/``, nor ``/proc``
    or ``/dev`` or below them: the agent's adapter rewrites such paths, and reads what they
    name from the kernel)."""
    return (
        workspace != "/"
        and not f"{workspace}/".startswith(("/proc/", "/dev/"))
        and os.path.normpath(workspace) == workspace == os.path.realpath(workspace)
    )


def _open_line(record: AuditRecord) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """``record``'s audit line cut at its open fields: the text between them, and which
    field each opening is (``None`` unless each stands in the line once)."""
    line = record_json(
        record._replace(
            ts=_OPEN["ts"],
            session_id=_OPEN["session_id"],
            call_id=_OPEN["call_id"],
            arguments_sha256=_OPEN["arguments_sha256"],
        )
    )
    spelled = {slot: string_literal(value) for slot, value in _OPEN.items()}
    if any(line.count(text) != 1 for text in spelled.values()):
        return None
    pieces, slots, start = [], [], 0
    for at, slot in sorted((line.index(text), slot) for slot, text in spelled.items()):
        pieces.append(line[start:at])
        slots.append(slot)
        start = at + len(spelled[slot])
    pieces.append(line[start:])
    return tuple(pieces), tuple(slots)
