"""The quick fold (positions two levels deep, the rest on demand) is the deep fold, seen lazily.

``parse_yaml`` folds a document first without the deep positions and folds it again, with all
of them, when it has a problem or when a deeper position is asked for. Whatever the text, the
tree it returns must read exactly as the deep fold's: value, every table, problems.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.language.yamltree import ParsedTree, _parse_deep, parse_yaml

from .corpus import INVALID, VALID, document_text
from .yaml_values import TEXTS, VALUES


def _read(tree: ParsedTree | None) -> object:
    """Everything a reader of ``tree`` can see, with the lazy tables read in full."""
    if tree is None:
        return None
    return (
        json.dumps(tree.value, sort_keys=True, default=str),
        dict(tree.positions),
        dict(tree.key_positions),
        dict(tree.unquoted),
        tree.refused,
        tree.keys,
    )


def _same_as_the_deep_fold(text: str) -> None:
    quick, quick_problems = parse_yaml(text, "p.yaml")
    deep, deep_problems = _parse_deep(text, "p.yaml")
    assert quick_problems == deep_problems
    assert _read(quick) == _read(deep)


@settings(max_examples=150, deadline=None)
@given(VALUES, st.booleans())
def test_any_document_reads_the_same_as_the_deep_fold(value: object, flow: bool) -> None:
    _same_as_the_deep_fold(yaml.safe_dump(value, default_flow_style=flow, allow_unicode=True))


@settings(max_examples=150, deadline=None)
@given(TEXTS)
def test_any_text_reads_the_same_as_the_deep_fold(text: str) -> None:
    _same_as_the_deep_fold(text)


@pytest.mark.parametrize("path", VALID + INVALID, ids=lambda p: p.name)
def test_every_corpus_document_reads_the_same_as_the_deep_fold(path: Path) -> None:
    _same_as_the_deep_fold(document_text(path))


def test_a_problem_free_document_folds_again_only_for_a_deep_position() -> None:
    text = "rules:\n  - name: a\n    match: {paths: ['x/**']}\n"
    tree, problems = parse_yaml(text, "p.yaml")
    assert problems == []
    assert tree is not None
    assert not isinstance(tree.positions, MappingProxyType)  # the quick fold was used
    assert tree.positions["/rules/0"] == (2, 5)
    assert tree.positions["/rules/0/match/paths/0"] == (3, 21)
    assert tree.key_positions["/rules/0/match"] == (3, 5)
    assert tree.keys == frozenset({"rules", "name", "match", "paths"})


def test_a_document_with_a_problem_is_folded_deep_at_once() -> None:
    tree, problems = parse_yaml("a:\n  b: 1\n  b: 2\n", "p.yaml")
    assert [p.message for p in problems] == [
        "duplicate key 'b' (first defined at line 2, column 3)"
    ]
    assert tree is not None
    assert isinstance(tree.positions, MappingProxyType)
