"""Knobs are the fold of their events; presets are names for knob combinations."""

from __future__ import annotations

import pytest

from toolpolicy.core.errors import ConfigurationError
from toolpolicy.core.vocabulary import ApprovalPolicy, SandboxMode
from toolpolicy.engine.knobs import Knobs
from toolpolicy.engine.presets import Preset, PresetTable
from toolpolicy.engine.session import SessionLog

WW, DFA, RO = (
    SandboxMode.WORKSPACE_WRITE,
    SandboxMode.DANGER_FULL_ACCESS,
    SandboxMode.READ_ONLY,
)
ASK, NEVER = ApprovalPolicy.ASK, ApprovalPolicy.NEVER


def _table(*rows: Preset, default: str | None = None) -> PresetTable:
    return PresetTable(rows, default or rows[0].name)


TABLE = _table(
    Preset("workspace-write", WW, ASK),
    Preset("danger-full-access", DFA, NEVER),
    Preset("read-only", RO, ASK),
)


def _kinds(knobs: Knobs) -> list[tuple[str, str]]:
    return [(e.kind, str(e.data["value"])) for e in knobs.log.events]


def test_a_new_session_applies_the_default_preset_in_event_order() -> None:
    knobs = Knobs(TABLE)
    assert _kinds(knobs) == [
        ("permission/preset", "workspace-write"),
        ("sandbox/mode", "workspace-write"),
        ("approval/policy", "ask"),
    ]
    assert knobs.state.preset == "workspace-write"


def test_applying_a_preset_appends_only_what_changes() -> None:
    knobs = Knobs(TABLE)
    before = len(knobs.log.events)
    knobs.apply_preset("read-only")
    assert _kinds(knobs)[before:] == [
        ("permission/preset", "read-only"),
        ("sandbox/mode", "read-only"),
    ]
    knobs.apply_preset("read-only")
    assert len(knobs.log.events) == before + 2


def test_setting_one_knob_leaves_the_other_alone_and_derives_custom() -> None:
    knobs = Knobs(TABLE)
    knobs.set_approval("never")
    assert (knobs.state.sandbox, knobs.state.approval, knobs.state.preset) == (WW, NEVER, "custom")
    knobs.set_approval("ask")
    assert knobs.state.preset == "workspace-write"


def test_custom_can_never_be_selected() -> None:
    with pytest.raises(ConfigurationError, match="custom cannot be selected"):
        Knobs(TABLE).apply_preset("custom")


def test_a_table_naming_custom_is_refused() -> None:
    with pytest.raises(ConfigurationError) as info:
        _table(Preset("custom", WW, ASK))
    assert str(info.value) == "custom is reserved for the derived not-a-preset state"


@pytest.mark.parametrize(
    ("setter", "value"), [("set_sandbox", "wide-open"), ("set_approval", "maybe")]
)
def test_invalid_knob_values_are_refused_at_the_setter(setter: str, value: str) -> None:
    knobs = Knobs(TABLE)
    before = knobs.log.events
    with pytest.raises(ConfigurationError, match="invalid"):
        getattr(knobs, setter)(value)
    assert knobs.log.events == before


def test_shared_combination_shows_the_last_chosen_name() -> None:
    table = _table(Preset("first", WW, ASK), Preset("second", WW, ASK))
    knobs = Knobs(table)
    assert knobs.state.preset == "first"
    knobs.apply_preset("second")
    assert _kinds(knobs)[-1] == ("permission/preset", "second")
    assert knobs.state.preset == "second"
    knobs.set_approval("never")
    knobs.set_approval("ask")
    assert knobs.state.preset == "second"


def test_shared_combination_without_a_matching_choice_shows_the_first_row() -> None:
    table = _table(Preset("a", RO, ASK), Preset("b", WW, ASK), Preset("c", WW, ASK))
    knobs = Knobs(table)
    knobs.set_sandbox(WW)
    assert knobs.state.preset == "b"


def test_replaying_a_log_whose_preset_left_the_table_derives_a_name() -> None:
    log = SessionLog()
    log.append("permission/preset", value="gone")
    log.append("sandbox/mode", value="read-only")
    log.append("approval/policy", value="ask")
    assert Knobs(TABLE, log).state.preset == "read-only"
    log2 = SessionLog()
    log2.append("permission/preset", value="gone")
    log2.append("sandbox/mode", value="read-only")
    log2.append("approval/policy", value="never")
    assert Knobs(TABLE, log2).state.preset == "custom"
