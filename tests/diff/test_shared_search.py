"""The path search split in shares (this process and the twin each search the strings
below some states of the first wide level) gives the whole search: the same sets, the
same witnesses, in the same order, for random globs and any width the split starts at."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.diff import automaton, regions
from toolpolicy.diff.regions import _PathSearch
from toolpolicy.diff.sides import load_sides, parse_side
from toolpolicy.diff.twin import Here, Pending, Sides

from .test_completeness import _write, globs


class _Beside(Here):
    """A hand that says it runs beside this process, and runs the work here (counted),
    with the sides a twin would hold (set by ``_search``)."""

    parallel = True

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.payloads: list[object] = []
        self.sides: Sides | None = None

    def send(self, work, payload):  # type: ignore[no-untyped-def]
        self.sent.append(work.__name__)
        self.payloads.append(payload)
        return Pending(lambda: work(self.sides, payload))


@pytest.fixture
def workspace() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as top:
        yield top


def _search(top: str, left: list[str], right: list[str], hand: Here | None) -> _PathSearch:
    files = []
    for name, patterns in (("left", left), ("right", right)):
        rules = (
            [{"behavior": "deny", "tools": ["read_file"], "paths": patterns}] if patterns else []
        )
        files.append(_write(Path(top) / f"{name}.yaml", rules))
    sides = load_sides(parse_side(files[0]), parse_side(files[1]), top)
    if isinstance(hand, _Beside):
        hand.sides = sides
    entries = sides[0].engine.protected.entries
    return _PathSearch(sides, entries, frozenset(), sides[0].workspace, "/home/u", hand)


@settings(max_examples=40, deadline=None)
@given(
    left=st.lists(globs, max_size=3, unique=True),
    right=st.lists(globs, max_size=3, unique=True),
    width=st.sampled_from((1, 2, 3, 8)),
)
def test_the_shares_of_the_path_search_give_the_whole_search(
    left: list[str], right: list[str], width: int
) -> None:
    with tempfile.TemporaryDirectory() as top:
        whole = _search(top, left, right, None).found
        saved = automaton.SHARE_LEVEL
        automaton.SHARE_LEVEL = width
        try:
            hand = _Beside()
            shared = _search(top, left, right, hand).found
        finally:
            automaton.SHARE_LEVEL = saved
    assert hand.sent == ["_twin_share"]
    assert shared == whole


def test_a_share_searches_less_than_the_whole(workspace: str) -> None:
    """Each share alone misses sets the other finds (the split is real), and the merge
    has them all."""
    patterns = [f"dir{i}/*.c" for i in range(100)]
    hand = _Beside()
    _search(workspace, patterns, [], hand)
    inputs = hand.payloads[0]
    assert isinstance(inputs, regions._Inputs) and hand.sides is not None
    work = regions._work(hand.sides, inputs)
    here = regions._relative(work, regions._HERE)
    rest = frozenset(range(regions._HERE.parts)) - regions._HERE.kept
    there = regions._relative(work, automaton.Share(rest, regions._HERE.parts))
    whole = regions._relative(work, None)
    assert set(here) < set(whole) and set(there) < set(whole)
    assert set(here) | set(there) == set(whole)
    assert automaton.merged((here, there), regions.PathDomain(work.alphabet)) == whole
