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

from .corpus import INVALID, VALID, document_text


def _schema_accepts(value: object) -> bool:
    return not schema_problems(ParsedTree(value, {}, {}), "doc.yaml")


def _models_accept(value: object) -> bool:
    try:
        validate_document(value)
    except ValidationError:
        return False
    return True


def _tree(path: Path) -> object:
    tree, _ = parse_yaml(document_text(path), path.name)
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


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutants())
def test_schema_and_models_agree_on_mutated_documents(document: Any) -> None:
    assert _schema_accepts(document) == _models_accept(document)


def _policy(**fields: Any) -> dict[str, Any]:
    return {"apiVersion": "toolpolicy/v1", "kind": "Policy", "name": "team", **fields}


def _rule(**match: Any) -> dict[str, Any]:
    return {"name": "r", "behavior": "deny", "reason": "r", "match": match}


def _example(**fields: Any) -> dict[str, Any]:
    return {"call": {"tool": "t", "arguments": {}}, "expect": "deny", **fields}


def _table(rows: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "toolpolicy/v1", "kind": "PresetTable", "default": "a", "presets": rows}


_ROW = {"sandbox": "read-only", "approval": "ask"}
_EDGES: list[tuple[str, Any, bool]] = [
    ("name at 64 chars", _policy(name="a" * 64), True),
    ("name at 65 chars", _policy(name="a" * 65), False),
    ("name with a trailing newline", _policy(name="team\n"), False),
    ("reason at 1000 chars", _policy(rules=[{**_rule(tools=["t"]), "reason": "x" * 1000}]), True),
    ("reason at 1001 chars", _policy(rules=[{**_rule(tools=["t"]), "reason": "x" * 1001}]), False),
    ("tool at 128 chars", _policy(rules=[_rule(tools=["t" * 128])]), True),
    ("tool at 129 chars", _policy(rules=[_rule(tools=["t" * 129])]), False),
    ("256 tools", _policy(rules=[_rule(tools=[f"t{i}" for i in range(256)])]), True),
    ("257 tools", _policy(rules=[_rule(tools=[f"t{i}" for i in range(257)])]), False),
    ("every effect", _policy(rules=[_rule(effects=["read", "write", "execute"])]), True),
    ("an effect twice", _policy(rules=[_rule(effects=["read", "read"])]), False),
    ("a path glob of spaces", _policy(rules=[_rule(paths=["  "])]), False),
    ("a command with inner spaces", _policy(rules=[_rule(commands=[" git  push "])]), True),
    ("a null match field", _policy(rules=[_rule(tools=None)]), False),
    (
        "64 arguments",
        _policy(
            examples=[_example(call={"tool": "t", "arguments": {f"k{i}": i for i in range(64)}})]
        ),
        True,
    ),
    (
        "65 arguments",
        _policy(
            examples=[_example(call={"tool": "t", "arguments": {f"k{i}": i for i in range(65)}})]
        ),
        False,
    ),
    (
        "nested null arguments",
        _policy(
            examples=[
                _example(call={"tool": "t", "arguments": {"a": None, "b": [None, {"c": None}]}})
            ]
        ),
        True,
    ),
    (
        "a wildcard tool in a call",
        _policy(examples=[_example(call={"tool": "t*", "arguments": {}})]),
        False,
    ),
    (
        "a null source",
        _policy(examples=[_example(expect={"behavior": "deny", "source": None})]),
        False,
    ),
    ("a null preset", _policy(examples=[_example(preset=None)]), False),
    ("extends a windows path", _policy(extends="C:\\base.yaml"), False),
    ("extends a backslash path", _policy(extends="\\\\server\\base.yaml"), False),
    ("extends a relative path", _policy(extends="../base.yaml"), True),
    ("extends with leading space", _policy(extends=" base.yaml"), False),
    ("a preset row named custom", _table({"a": _ROW, "custom": _ROW}), True),
    ("a preset row with a bad name", _table({"a": _ROW, "Bad Name": _ROW}), False),
    ("64 preset rows", _table({"a": _ROW, **{f"r{i}": _ROW for i in range(63)}}), True),
    ("65 preset rows", _table({"a": _ROW, **{f"r{i}": _ROW for i in range(64)}}), False),
    ("no preset rows", _table({}), False),
    ("a root list", [], False),
    ("a root string", "Policy", False),
    ("no kind", {"apiVersion": "toolpolicy/v1", "name": "team"}, False),
    ("an unknown kind", {**_policy(), "kind": "Rule"}, False),
]


@pytest.mark.parametrize(
    "document,accepted", [(d, a) for _, d, a in _EDGES], ids=[label for label, _, _ in _EDGES]
)
def test_schema_and_models_agree_at_the_edges(document: Any, accepted: bool) -> None:
    assert _schema_accepts(document) is accepted
    assert _models_accept(document) is accepted
