"""``_Builder.run`` folds the common events inline; it must fold exactly as ``feed`` does.

The reference folds every event through ``feed``. Both fold the same text, quick (positions two
levels deep) and deep, also with the node, depth and scalar bounds lowered so that a stream
crosses them in the middle of the inline path (the node count is kept in a local there and
handed over around each ``feed``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolpolicy.language import yamltree
from toolpolicy.language.yamltree import _Builder, _Stop

from .corpus import INVALID, VALID, document_text
from .yaml_values import TEXTS, VALUES

_BOUNDS = st.tuples(st.integers(1, 40), st.integers(1, 8), st.integers(1, 50))


def _events(text: str) -> Iterator[Any]:
    loader = yamltree._LOADER(text)
    try:
        while (event := loader.get_event()) is not None:
            yield event
    finally:
        loader.dispose()


def _fold(
    text: str, deep: bool, step: Callable[[_Builder, Iterator[Any]], None]
) -> tuple[object, ...]:
    builder = _Builder("p.yaml", deep=deep)
    try:
        step(builder, _events(text))
        outcome = "complete"
    except _Stop:
        outcome = "stopped"
    except yaml.YAMLError as exc:
        outcome = f"yaml error: {exc}"
    return (
        outcome,
        repr(builder.root),
        builder.positions,
        builder.key_positions,
        builder.unquoted,
        builder.refused,
        builder.keys,
        # Below the kept levels the quick fold places no problem: any problem has the text
        # folded again deep, and only that fold's problems are reported.
        builder.problems if deep else [(p.code, p.message) for p in builder.problems],
        builder.nodes if outcome == "complete" else None,  # a raising stream leaves it unused
    )


def _inline(builder: _Builder, events: Iterator[Any]) -> None:
    builder.run(lambda: next(events, None))


def _one_by_one(builder: _Builder, events: Iterator[Any]) -> None:
    for event in events:
        builder.feed(event)


def _assert_same(text: str) -> None:
    for deep in (False, True):
        assert _fold(text, deep, _inline) == _fold(text, deep, _one_by_one)


@settings(max_examples=200, deadline=None)
@given(VALUES, st.booleans(), _BOUNDS)
@example({"a": ["x", "y", {"b": "z"}]}, False, (3, 2, 1))
def test_run_folds_every_document_as_feed_does(
    value: object, flow: bool, bounds: tuple[int, int, int]
) -> None:
    text = yaml.safe_dump(value, default_flow_style=flow, allow_unicode=True)
    _assert_same(text)
    with pytest.MonkeyPatch.context() as patch:
        nodes, depth, chars = bounds
        patch.setattr(yamltree, "MAX_NODES", nodes)
        patch.setattr(yamltree, "MAX_DEPTH", depth)
        patch.setattr(yamltree, "MAX_SCALAR_CHARS", chars)
        _assert_same(text)


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_run_folds_any_text_as_feed_does(text: str) -> None:
    _assert_same(text)


@pytest.mark.parametrize("path", VALID + INVALID, ids=lambda p: p.name)
def test_run_folds_every_corpus_document_as_feed_does(path: Path) -> None:
    _assert_same(document_text(path))


def test_the_bounds_are_crossed_inline() -> None:
    """The lowered bounds do stop a stream that the inline path reads (the test above would
    pass vacuously if they did not)."""
    text = yaml.safe_dump({"a": ["x", "y", "z"]})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(yamltree, "MAX_NODES", 3)
        outcome = _fold(text, False, _inline)
    assert outcome[0] == "stopped"
    assert outcome[7] == [("too-large", "the document has more than 3 nodes")]
