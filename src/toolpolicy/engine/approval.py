"""The approval service: turns an ask into allowed-once, rejected, cancelled or unavailable.

The ``never`` policy is decided here, before any responder is consulted, so no responder —
whenever or wherever it was registered — can bypass it. Under ``ask`` the responders are
asked in order; the first answer wins and ``None`` passes to the next; the end of the chain
answers ``unavailable``. A responder that raises, returns anything outside the vocabulary or
does not answer within the timeout ends the chain as ``unavailable`` / ``cancelled``.
``allowed-once`` grants the one call asked about; ``allowed-session`` grants it and every
later call of the same session with the same tool and the same arguments that asks for the
same reason (the same source and reason: the ask the human answered), which are then
answered ``allowed-session`` by ``session-grant`` without asking anyone — under ``ask`` only:
``never`` still rejects them before any grant is looked at. The same line can ask for another
reason later (a folder it reads became a link out of the workspace): that ask goes to the
human again.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Sequence

from ..core.decision import APPROVAL_NEVER_SOURCE, Decision
from ..core.lean_typing import NamedTuple
from ..core.protocols import ApprovalRequest, ApprovalResponder
from ..core.vocabulary import ApprovalOutcome, ApprovalPolicy, Behavior
from .audit import canonical_json
from .session import SessionLog

__all__ = ["ApprovalResult", "ApprovalService", "outcome_decision"]

APPROVAL_SOURCE = "approval"
GRANT_SOURCE = "session-grant"
ASKED_EVENT = "approval/asked"
DECIDED_EVENT = "approval/decided"


class ApprovalResult(NamedTuple):
    """The outcome and who gave it (a responder name, ``approval`` or ``approval-policy``)."""

    outcome: ApprovalOutcome
    source: str


def outcome_decision(result: ApprovalResult, ask: Decision) -> Decision:
    """The final decision for an approval result on the ``ask`` decision."""
    outcome, source = result.outcome, result.source
    if outcome is ApprovalOutcome.ALLOWED_ONCE:
        return Decision(Behavior.ALLOW, "User approved this tool call", source, ask.sandbox)
    if outcome is ApprovalOutcome.ALLOWED_SESSION:
        return Decision(
            Behavior.ALLOW,
            "User approved this exact call for the rest of the session",
            source,
            ask.sandbox,
        )
    if source == APPROVAL_NEVER_SOURCE:
        return ask.never_approved()
    if outcome is ApprovalOutcome.REJECTED:
        return Decision(Behavior.DENY, "User denied this tool call", source)
    if outcome is ApprovalOutcome.CANCELLED:
        return Decision(Behavior.DENY, "Approval was cancelled before an answer", source)
    return Decision(Behavior.DENY, "No approver was available to allow this tool call", source)


class ApprovalService:
    """A chain of responders behind the approval policy."""

    __slots__ = ("_grants", "_ids", "_lock", "_log", "_responders", "_timeout")

    def __init__(
        self,
        responders: Sequence[ApprovalResponder] = (),
        *,
        timeout: float | None = None,
        log: SessionLog | None = None,
    ) -> None:
        self._responders: list[ApprovalResponder] = list(responders)
        self._timeout = timeout
        self._log = log if log is not None else SessionLog()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._grants: set[tuple[str, str, str, str, str]] = set()

    @property
    def log(self) -> SessionLog:
        """Where ``approval/asked`` and ``approval/decided`` events go."""
        return self._log

    def register(self, responder: ApprovalResponder, *, prepend: bool = False) -> None:
        """Add a responder at the end (or the front) of the chain."""
        with self._lock:
            if prepend:
                self._responders.insert(0, responder)
            else:
                self._responders.append(responder)

    def next_id(self) -> str:
        """A fresh approval id for this service."""
        return f"approval-{next(self._ids)}"

    def resolve(self, request: ApprovalRequest, policy: ApprovalPolicy) -> ApprovalResult:
        """Decide ``request`` under ``policy``; logs the asked/decided pair."""
        if policy is not ApprovalPolicy.ASK:
            # Decided before dispatch: no responder is ever consulted under ``never``.
            return ApprovalResult(ApprovalOutcome.REJECTED, APPROVAL_NEVER_SOURCE)
        self._log.append(ASKED_EVENT, id=request.id, call_id=request.call_id, tool=request.tool)
        key = _grant_key(request)
        with self._lock:
            granted = key in self._grants
        if granted:
            result = ApprovalResult(ApprovalOutcome.ALLOWED_SESSION, GRANT_SOURCE)
        else:
            result = self._dispatch(request)
            if result.outcome is ApprovalOutcome.ALLOWED_SESSION:
                with self._lock:
                    self._grants.add(key)
        self._log.append(
            DECIDED_EVENT,
            id=request.id,
            call_id=request.call_id,
            outcome=result.outcome.value,
            source=result.source,
        )
        return result

    def _dispatch(self, request: ApprovalRequest) -> ApprovalResult:
        with self._lock:
            chain = tuple(self._responders)
        for responder in chain:
            try:
                name = str(responder.name)
            except Exception:
                return ApprovalResult(ApprovalOutcome.UNAVAILABLE, APPROVAL_SOURCE)
            answer = self._ask(responder, request)
            if answer is None:
                continue
            if not isinstance(answer, ApprovalOutcome):
                return ApprovalResult(ApprovalOutcome.UNAVAILABLE, name or APPROVAL_SOURCE)
            return ApprovalResult(answer, name or APPROVAL_SOURCE)
        return ApprovalResult(ApprovalOutcome.UNAVAILABLE, APPROVAL_SOURCE)

    def _ask(self, responder: ApprovalResponder, request: ApprovalRequest) -> object:
        if self._timeout is None:
            try:
                return responder.respond(request)
            except Exception:
                return _RAISED
        return _ask_with_timeout(responder, request, self._timeout)


_RAISED = object()


def _grant_key(request: ApprovalRequest) -> tuple[str, str, str, str, str]:
    """Session, tool, canonical arguments, and the source and reason of the ask: what "this
    exact call" means for a grant. An answer covers the ask it answered, not another one the
    same call meets later."""
    try:
        arguments = canonical_json(json.loads(request.arguments_json))
    except (ValueError, TypeError, AttributeError):
        arguments = request.arguments_json
    return request.session_id, request.tool, arguments, request.source, request.reason


def _ask_with_timeout(
    responder: ApprovalResponder, request: ApprovalRequest, timeout: float
) -> object:
    """Ask in a daemon thread; no answer in time is ``cancelled``, a late answer is ignored."""
    box: list[object] = []
    done = threading.Event()

    def worker() -> None:
        try:
            answer: object = responder.respond(request)
        except Exception:
            answer = _RAISED
        if not done.is_set():
            box.append(answer)
        done.set()

    thread = threading.Thread(target=worker, name="toolpolicy-approval", daemon=True)
    thread.start()
    finished = done.wait(timeout)
    done.set()  # from here on, a late answer is dropped
    if not finished or not box:
        return ApprovalOutcome.CANCELLED
    return box[0]
