"""Decide every call on both sides and compare the effective decisions.

The effective decision is the one before any human answers: behavior (allow / ask / deny),
source and reason, and for an execute call that may run (allow or ask) the sandbox mode it
would run under. A call a side rejects before any permission check (unknown tool, invalid
arguments) is a deny on that side, with the error code as its source.

Changes, right relative to left: ``widen`` when the right behavior is more permissive
(deny < ask < allow), or equal but the execute call would run in a wider sandbox mode;
``narrow`` the other way round; ``same`` when behavior and sandbox agree but the source
differs (listed, but it never changes the verdict); ``none`` when behavior, sandbox and
source agree (a reworded reason alone is not a change).
The verdict over all probes: ``equivalent`` (no widen, no narrow), ``more-permissive``
(only widen), ``less-permissive`` (only narrow), ``incomparable`` (both). When part of the
search was limited (a region marked ``incomplete``) and the probes did not show both
directions, the verdict is ``inconclusive``: ``equivalent``, ``more-permissive`` and
``less-permissive`` each claim that some direction never happens, and a limited search
proves no such claim.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..core.decision import APPROVAL_NEVER_SOURCE
from ..core.errors import CallRejected
from ..core.memo import remember
from ..core.vocabulary import Behavior, Effect, SandboxMode
from ..engine.knobs import KnobState
from ..engine.selection import ToolPolicy
from .probes import Probe
from .regions import LIMITED_SPECIAL
from .twin import Here, Pending, Sides

__all__ = [
    "Ahead",
    "Change",
    "DiffReport",
    "Outcome",
    "ProbeResult",
    "Verdict",
    "change_of",
    "compare",
    "decide",
]


class Change(StrEnum):
    """How a probe's decision changes from left to right."""

    WIDEN = "widen"
    NARROW = "narrow"
    SAME = "same"
    NONE = "none"


class Verdict(StrEnum):
    """The right side relative to the left, over all probes."""

    EQUIVALENT = "equivalent"
    MORE_PERMISSIVE = "more-permissive"
    LESS_PERMISSIVE = "less-permissive"
    INCOMPARABLE = "incomparable"
    INCONCLUSIVE = "inconclusive"


@dataclass(frozen=True, slots=True)
class Outcome:
    """One side's effective decision on a probe; ``sandbox`` only for an execute call that
    may run."""

    behavior: Behavior
    source: str
    reason: str
    sandbox: SandboxMode | None

    def to_json(self) -> dict[str, object]:
        """``{"behavior", "source", "reason", "sandbox"}``."""
        return {
            "behavior": self.behavior.label,
            "source": self.source,
            "reason": self.reason,
            "sandbox": None if self.sandbox is None else self.sandbox.value,
        }

    def __reduce__(self) -> tuple[object, tuple[int, str, str, str | None]]:
        """Pickled as plain values (a twin sends thousands; an enum member would be
        unpickled by a call to its class, and a frozen dataclass field by field)."""
        sandbox = None if self.sandbox is None else self.sandbox.value
        return _outcome, (self.behavior.value, self.source, self.reason, sandbox)


_BEHAVIORS = {behavior.value: behavior for behavior in Behavior}
_SANDBOXES = {mode.value: mode for mode in SandboxMode}


def _outcome(behavior: int, source: str, reason: str, sandbox: str | None) -> Outcome:
    """The :class:`Outcome` of :meth:`Outcome.__reduce__`'s values."""
    mode = None if sandbox is None else _SANDBOXES[sandbox]
    return Outcome(_BEHAVIORS[behavior], source, reason, mode)


_MADE: dict[tuple[Behavior, str, str, SandboxMode | None], Outcome] = {}
"""The outcomes made so far, one object each (a diff of 1,000 rules makes a few thousand,
each many times): a twin's answer then pickles each once, and refers to it after."""
_MAX_MADE = 65_536


def _made(behavior: Behavior, source: str, reason: str, sandbox: SandboxMode | None) -> Outcome:
    key = (behavior, source, reason, sandbox)
    found = _MADE.get(key)
    if found is None:
        found = remember(_MADE, key, Outcome(behavior, source, reason, sandbox), _MAX_MADE)
    return found


@dataclass(frozen=True, slots=True)
class ProbeResult:
    """A probe, both outcomes and the change."""

    probe: Probe
    left: Outcome
    right: Outcome
    change: Change


@dataclass(frozen=True, slots=True)
class DiffReport:
    """Everything a renderer shows. ``regions`` counts the argument regions the calls
    witness; ``calls_file`` is ``None`` when no recorded calls were given; ``replayed``
    counts its calls, ``skipped`` its lines without arguments."""

    left: str
    right: str
    results: tuple[ProbeResult, ...]
    regions: int = 0
    calls_file: str | None = None
    replayed: int = 0
    skipped: int = 0
    incomplete: str | None = None

    @property
    def differences(self) -> tuple[ProbeResult, ...]:
        """Every probe whose change is not ``none``, in probe order."""
        return tuple(r for r in self.results if r.change is not Change.NONE)

    def count(self, change: Change) -> int:
        """How many probes have ``change``."""
        return sum(1 for r in self.results if r.change is change)

    @property
    def verdict(self) -> Verdict:
        """The right side relative to the left."""
        widen = self.count(Change.WIDEN) > 0
        narrow = self.count(Change.NARROW) > 0
        if widen and narrow:
            return Verdict.INCOMPARABLE
        if self.incomplete:
            return Verdict.INCONCLUSIVE
        if widen:
            return Verdict.MORE_PERMISSIVE
        if narrow:
            return Verdict.LESS_PERMISSIVE
        return Verdict.EQUIVALENT


def decide(policy: ToolPolicy, probe: Probe) -> Outcome:
    """The effective decision of ``policy`` on ``probe``, asking no one."""
    return _decided(policy, probe.tool, probe.arguments, policy.knobs)


def _both(
    sides: Sides, calls: Sequence[tuple[str, Mapping[str, object] | str]]
) -> list[tuple[Outcome, Outcome]]:
    """Both sides' effective decisions on ``calls``, each decided on the left, then on the
    right (which finds a shell line read already)."""
    left, right = sides
    left_knobs, right_knobs = left.knobs, right.knobs  # folded once, not for every call
    return [
        (_decided(left, tool, arguments, left_knobs), _decided(right, tool, arguments, right_knobs))
        for tool, arguments in calls
    ]


def _decided(
    policy: ToolPolicy, tool: str, arguments: Mapping[str, object] | str, knobs: KnobState
) -> Outcome:
    try:
        request = policy.request(tool, arguments)
    except CallRejected as exc:
        return _made(Behavior.DENY, exc.code, exc.content, None)
    decision = policy.engine.evaluate(request, knobs).effective
    runs_sandboxed = request.effect is Effect.EXECUTE and decision.behavior is not Behavior.DENY
    return _made(
        decision.behavior,
        decision.source,
        decision.reason,
        decision.sandbox if runs_sandboxed else None,
    )


def change_of(left: Outcome, right: Outcome) -> Change:
    """The change from ``left`` to ``right`` (see the module docstring)."""
    if right.behavior != left.behavior:
        return Change.WIDEN if right.behavior < left.behavior else Change.NARROW
    if right.sandbox != left.sandbox and left.sandbox is not None and right.sandbox is not None:
        return Change.WIDEN if right.sandbox.rank > left.sandbox.rank else Change.NARROW
    if right.source != left.source:
        return Change.SAME
    return Change.NONE


class Ahead:
    """Probes decided on both sides ahead of :func:`compare` (by a twin, while this process
    searches the command lines, then while it makes the probes): :meth:`start` them,
    ``compare`` takes the decisions made so far and decides the rest itself."""

    CHUNK = 64
    """Calls the twin decides ahead between two looks for work that goes first."""

    def __init__(self, hand: Here) -> None:
        self._hand = hand
        self._probes: list[Probe] = []
        self._pending: Pending[list[list[tuple[Outcome, Outcome]]]] | None = None
        self._decided: dict[int, tuple[Outcome, Outcome]] = {}

    def start(self, probes: Sequence[Probe]) -> None:
        """Have ``probes`` decided ahead, once the probes started before are (what was
        not decided of them by now is left to :func:`compare`)."""
        self._collect()
        calls = [(probe.tool, probe.arguments) for probe in probes]
        chunks = [calls[i : i + self.CHUNK] for i in range(0, len(calls), self.CHUNK)]
        self._probes = list(probes)
        self._pending = self._hand.ahead(_both, chunks)

    def decided(self) -> dict[int, tuple[Outcome, Outcome]]:
        """Both sides' decisions of the probes decided so far (which ends the work ahead),
        by the probe's ``id``; the others are for :func:`compare` to decide."""
        self._collect()
        return self._decided

    def _collect(self) -> None:
        if self._pending is None:
            return
        pairs = [pair for chunk in self._pending.result() for pair in chunk]
        self._pending = None
        # the work ahead may have stopped early: its pairs are the first probes'
        self._decided.update(zip(map(id, self._probes), pairs, strict=False))


def compare(
    left: ToolPolicy,
    right: ToolPolicy,
    probes: Sequence[Probe],
    *,
    labels: tuple[str, str] = ("left", "right"),
    hand: Here | None = None,
    ahead: Ahead | None = None,
) -> DiffReport:
    """Decide every probe on both sides; ``labels`` name the sides in the report. ``hand``
    holds both sides and decides a share of the probes (in a twin, at the same time as the
    rest here; by default here, after it); ``ahead`` holds the decisions of probes started
    earlier."""
    decided = ahead.decided() if ahead is not None else {}
    todo = [probe for probe in probes if id(probe) not in decided]
    calls = [(probe.tool, probe.arguments) for probe in todo]
    pairs = (hand or Here((left, right))).share(_both, calls)
    decided.update(zip(map(id, todo), pairs, strict=True))
    results = [
        ProbeResult(probe, a, b, change_of(a, b))
        for probe in probes
        for a, b in (decided[id(probe)],)
    ]
    regions = len({p.region for p in probes if p.region is not None})
    limited = next(
        (
            special
            for p in probes
            if p.region is not None
            and (special := p.region.special) is not None
            and LIMITED_SPECIAL in special
        ),
        None,
    )
    if limited is None:
        limited = _misnamed(results)
    return DiffReport(labels[0], labels[1], tuple(results), regions, incomplete=limited)


def _misnamed(results: Sequence[ProbeResult]) -> str | None:
    """Where a command region's witness is decided by another rule than the region names,
    the search's model of a line joined from commands was wrong there (the one case known:
    the writes below a copy's destination, decided after every other file of the line): the
    decisions shown are the engine's, but a region may be missing, so the comparison is
    incomplete."""
    for result in results:
        region = result.probe.region
        if region is None or result.probe.origin != "region" or region.argument != "command":
            continue
        for ref, outcome in ((region.left, result.left), (region.right, result.right)):
            # an ask the approval policy "never" turns into its deny is the ask's region
            asked = ref is not None and ref.behavior is Behavior.ASK
            if asked and outcome.source == APPROVAL_NEVER_SOURCE:
                continue
            if ref is not None and ref.name != outcome.source:
                return (
                    f"{LIMITED_SPECIAL}the line {region.value!r} is decided by "
                    f"{outcome.source!r}, not by {ref.name!r} as the search of its region had it"
                )
    return None
