"""The session's knob state: the fold of its knob events.

Events are ``permission/preset``, ``sandbox/mode`` and ``approval/policy``, kept in the
session log. Applying a preset appends, in that order, only the events that change
something; the state is the fold of the log (last wins) and the shown preset name is derived
from it. Replaying a log whose preset has left the table derives a name instead of failing.
"""

from __future__ import annotations

from ..core.errors import ConfigurationError
from ..core.lean_typing import TYPE_CHECKING, NamedTuple
from ..core.vocabulary import ApprovalPolicy, SandboxMode
from .presets import PresetTable
from .session import SessionLog

if TYPE_CHECKING:
    from typing import TypeVar

    _K = TypeVar("_K", SandboxMode, ApprovalPolicy)

__all__ = ["APPROVAL_EVENT", "PRESET_EVENT", "SANDBOX_EVENT", "KnobState", "Knobs"]

PRESET_EVENT = "permission/preset"
SANDBOX_EVENT = "sandbox/mode"
APPROVAL_EVENT = "approval/policy"


class KnobState(NamedTuple):
    """The knobs as the executor sees them, plus the derived preset name."""

    sandbox: SandboxMode
    approval: ApprovalPolicy
    preset: str


class Knobs:
    """The knob view of a session log over a preset table."""

    __slots__ = ("_log", "_state", "_table")

    def __init__(self, table: PresetTable, log: SessionLog | None = None) -> None:
        self._table = table
        self._log = log if log is not None else SessionLog()
        if not self._log.of_kind(PRESET_EVENT, SANDBOX_EVENT, APPROVAL_EVENT):
            self.apply_preset(table.default)
        self._state = self._fold()

    @property
    def table(self) -> PresetTable:
        """The preset table the names come from."""
        return self._table

    @property
    def log(self) -> SessionLog:
        """The session log the knob events live in."""
        return self._log

    @property
    def state(self) -> KnobState:
        """The fold of the log."""
        return self._state

    def apply_preset(self, name: str) -> None:
        """Select a preset; ``custom`` and unknown names are refused."""
        preset = self._table.get(name)
        chosen, sandbox, approval = self._raw()
        if chosen != preset.name:
            self._log.append(PRESET_EVENT, value=preset.name)
        if sandbox is not preset.sandbox:
            self._log.append(SANDBOX_EVENT, value=preset.sandbox.value)
        if approval is not preset.approval:
            self._log.append(APPROVAL_EVENT, value=preset.approval.value)
        self._state = self._fold()

    def set_sandbox(self, mode: SandboxMode | str) -> None:
        """Set the sandbox mode; an invalid mode is refused."""
        value = _parse(SandboxMode, mode, "sandbox mode")
        if self._raw()[1] is not value:
            self._log.append(SANDBOX_EVENT, value=value.value)
            self._state = self._fold()

    def set_approval(self, policy: ApprovalPolicy | str) -> None:
        """Set the approval policy; an invalid policy is refused."""
        value = _parse(ApprovalPolicy, policy, "approval policy")
        if self._raw()[2] is not value:
            self._log.append(APPROVAL_EVENT, value=value.value)
            self._state = self._fold()

    def _defaults(self) -> tuple[SandboxMode, ApprovalPolicy]:
        default = self._table.get(self._table.default)
        return default.sandbox, default.approval

    def _raw(self) -> tuple[str | None, SandboxMode | None, ApprovalPolicy | None]:
        chosen: str | None = None
        sandbox: SandboxMode | None = None
        approval: ApprovalPolicy | None = None
        for event in self._log.of_kind(PRESET_EVENT, SANDBOX_EVENT, APPROVAL_EVENT):
            value = str(event.data.get("value"))
            if event.kind == PRESET_EVENT:
                chosen = value
            elif event.kind == SANDBOX_EVENT:
                sandbox = _parse(SandboxMode, value, "sandbox mode")
            else:
                approval = _parse(ApprovalPolicy, value, "approval policy")
        return chosen, sandbox, approval

    def _fold(self) -> KnobState:
        chosen, sandbox, approval = self._raw()
        default_sandbox, default_approval = self._defaults()
        mode = sandbox if sandbox is not None else default_sandbox
        policy = approval if approval is not None else default_approval
        return KnobState(mode, policy, self._table.derive(mode, policy, chosen))


def _parse(kind: type[_K], value: object, what: str) -> _K:
    if isinstance(value, kind):
        return value
    try:
        return kind(str(value)) if isinstance(value, str) else kind("")
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise ConfigurationError(f"invalid {what}: {value!r} (one of: {allowed})") from None
