"""The golden hook events of Codex, Gemini CLI and Copilot CLI: each parses, each says where
it comes from, and the captured ones are still the captures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
AGENTS = ("codex", "gemini", "copilot")
CAPTURES = (
    Path(__file__).resolve().parents[3] / "shared" / "realclients" / "codex-gemini" / "golden"
)
EVENTS = sorted(p for agent in AGENTS for p in (DATA / agent).glob("*.json"))


def test_every_agent_has_events() -> None:
    assert {p.parent.name for p in EVENTS} == set(AGENTS)


@pytest.mark.parametrize("event", EVENTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_event_is_a_json_object_with_a_source_note(event: Path) -> None:
    data = json.loads(event.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    assert "_source" not in data  # provenance lives beside the event, never inside it
    note = event.with_suffix(".source.md").read_text(encoding="utf-8")
    assert "commit" in note or "shared/realclients" in note


@pytest.mark.parametrize(
    "event", [p for p in EVENTS if p.parent.name in ("codex", "gemini")], ids=lambda p: p.name
)
def test_a_captured_event_is_the_capture_byte_for_byte(event: Path) -> None:
    original = CAPTURES / f"{event.parent.name}_{event.name}"
    if not original.exists():
        assert (
            "not captured" in event.with_suffix(".source.md").read_text().lower()
            or not CAPTURES.exists()
        )
        return
    assert event.read_bytes() == original.read_bytes()
