"""Every golden event shape (tests/data/claude-code) gets the answer it states, under P03.

Each file says where its shape comes from: captured from the real Claude Code 2.1.332, or
written from the hooks and tools reference.
"""

from __future__ import annotations

import pytest

from .conftest import GOLDEN, Hook, golden

NAMES = sorted(p.stem for p in GOLDEN.glob("*.json"))


def test_every_golden_event_says_where_its_shape_comes_from() -> None:
    assert len(NAMES) >= 25
    for name in NAMES:
        source = golden(name, GOLDEN, GOLDEN)["source"]
        assert source.startswith(("realclients:", "hooks reference")), name


@pytest.mark.parametrize("name", NAMES)
def test_a_golden_event_gets_its_stated_answer(hook: Hook, name: str) -> None:
    (hook.ws / "src").mkdir()
    document = golden(name, hook.ws, hook.home)
    expected = document["expect"]
    got = hook.answer(document["event"])
    assert got == (expected if isinstance(expected, str) else tuple(expected))
