"""The JSON Schema and the pydantic models never drift: same document, same verdict."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from toolpolicy.language import builtin_presets, builtin_profiles
from toolpolicy.language.models import validate_document
from toolpolicy.language.schema import schema_problems
from toolpolicy.language.yamltree import ParsedTree, parse_yaml

from .corpus import INVALID, VALID


def _schema_accepts(value: object) -> bool:
    return not schema_problems(ParsedTree(value, {}, {}), "doc.yaml")


def _models_accept(value: object) -> bool:
    try:
        validate_document(value)
    except ValidationError:
        return False
    return True


def _tree(path: Path) -> object:
    text = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
    tree, _ = parse_yaml(text, path.name)
    return None if tree is None else tree.value


_PARSED = [(p, _tree(p)) for p in [*VALID, *INVALID]]


@pytest.mark.parametrize(
    "path,value", [pv for pv in _PARSED if pv[1] is not None], ids=lambda x: getattr(x, "name", "")
)
def test_schema_and_models_agree_on_every_corpus_document(path: Path, value: object) -> None:
    assert _schema_accepts(value) == _models_accept(value), path.name


def test_the_corpus_has_documents_on_both_sides_of_the_schema() -> None:
    verdicts = [_schema_accepts(v) for _, v in _PARSED if v is not None]
    assert verdicts.count(True) >= 8
    assert verdicts.count(False) >= 12


def _bases() -> list[Any]:
    documents = [*builtin_profiles().values(), builtin_presets()]
    plain = [d.model.model_dump(mode="json", by_alias=True, exclude_none=True) for d in documents]
    return plain + [v for p, v in _PARSED if p in VALID]


_BASES = _bases()
_VALUES = st.sampled_from(
    [
        None,
        "",
        " ",
        "x",
        "a b",
        "Allow",
        "allow",
        "deny",
        "read",
        "P03",
        "P3",
        "team",
        "t\n",
        "*",
        "mcp__*",
        "/abs",
        "../up",
        "custom",
        0,
        3,
        3.0,
        -1,
        100,
        True,
        False,
        [],
        {},
        ["x"],
        ["x", "x"],
        ["read"],
        {"tools": ["x"]},
        {"behavior": "deny"},
        {"x": 1},
        {"tool": "shell", "arguments": {}},
        {"sandbox": "read-only", "approval": "never"},
    ]
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*prefix, index))
    return found


def _apply(document: Any, path: tuple[Any, ...], operation: str, new: Any, key: str) -> Any:
    if not path:
        return new if operation == "replace" else document
    parent = document
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    if operation == "replace":
        parent[last] = new
    elif operation == "delete":
        del parent[last]
    elif isinstance(parent[last], dict):
        parent[last][key] = new
    elif isinstance(parent[last], list):
        parent[last].append(new)
    return document


@st.composite
def _mutants(draw: st.DrawFn) -> Any:
    document = copy.deepcopy(draw(st.sampled_from(_BASES)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(document)))
        operation = draw(st.sampled_from(["replace", "delete", "add"]))
        key = draw(st.sampled_from(["tools", "name", "source", "preset", "extra", "description"]))
        document = _apply(document, path, operation, copy.deepcopy(draw(_VALUES)), key)
    return document


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutants())
def test_schema_and_models_agree_on_mutated_documents(document: Any) -> None:
    assert _schema_accepts(document) == _models_accept(document)
