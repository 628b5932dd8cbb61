"""Every document in tests/data: valid ones load, invalid ones give exactly their problems."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolpolicy.core.errors import PolicyLoadError
from toolpolicy.language import check_bytes, load_document
from toolpolicy.language.codes import ALL_CODES

from .corpus import INVALID, VALID, expected_problems


def test_the_corpus_is_not_empty() -> None:
    assert len(VALID) >= 5
    assert len(INVALID) >= 20


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_a_valid_document_loads_with_no_problems(path: Path) -> None:
    document, problems = check_bytes(path.read_bytes(), str(path))
    assert problems == []
    assert document is not None
    assert document.kind == document.model.kind


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_an_invalid_document_reports_exactly_its_expected_problems(path: Path) -> None:
    expected = expected_problems(path)
    assert expected, f"{path.name} states no '# expect:' line"
    document, problems = check_bytes(path.read_bytes(), str(path))
    assert document is None
    assert [(p.code, p.line, p.column) for p in problems] == expected
    assert all(p.path == str(path) for p in problems)
    assert all(p.code in ALL_CODES for p in problems)
    assert all(p.message and "Traceback" not in p.message for p in problems)


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_loading_an_invalid_file_raises_one_error_listing_every_problem(path: Path) -> None:
    with pytest.raises(PolicyLoadError) as caught:
        load_document(path)
    found = [(p.code, p.line, p.column) for p in caught.value.problems]
    assert found == expected_problems(path)
    assert str(caught.value).splitlines() == [str(p) for p in caught.value.problems]


def _problems(name: str) -> list[str]:
    path = next(p for p in INVALID if p.name == name)
    _, problems = check_bytes(path.read_bytes(), "policy.yaml")
    return [str(p) for p in problems]


def test_a_custom_preset_row_is_refused_with_the_exact_message() -> None:
    assert _problems("preset-named-custom.yaml") == [
        "policy.yaml:8:3: custom is reserved for the derived not-a-preset state"
    ]


def test_a_configured_workspace_boundary_is_refused_wherever_the_key_is() -> None:
    message = (
        "the workspace boundary cannot be configured: writes outside the workspace are always "
        "denied"
    )
    assert _problems("boundary-configured.yaml") == [
        f"policy.yaml:7:1: {message}",
        f"policy.yaml:14:7: {message}",
    ]


def test_a_duplicate_key_names_where_the_first_one_was() -> None:
    assert _problems("duplicate-key.yaml") == [
        "policy.yaml:11:5: duplicate key 'behavior' (first defined at line 9, column 5)",
        "policy.yaml:12:33: duplicate key 'tools' (first defined at line 12, column 13)",
    ]


def test_schema_problems_are_human_and_point_at_the_offending_node() -> None:
    assert _problems("bad-values.yaml") == [
        'policy.yaml:12:7: "Team Policy" is not a valid policy name',
        'policy.yaml:14:11: "Confirm Writes" is not a valid rule name',
        'policy.yaml:15:15: "maybe" is not one of allow, ask, deny',
        'policy.yaml:16:13: "   " is not a valid non-blank text',
        'policy.yaml:18:27: "write_file" is listed more than once',
        'policy.yaml:19:17: "delete" is not one of read, write, execute',
        "policy.yaml:20:14: should list at least 1 item",
        "policy.yaml:24:12: should have at least 1 key",
    ]


def test_one_of_shows_the_branch_that_fits_not_every_branch() -> None:
    assert _problems("bad-examples.yaml") == [
        'policy.yaml:15:13: "passthrough" is not one of allow, ask, deny',
        'policy.yaml:17:30: unknown key "reason"; allowed keys: behavior, source',
        'policy.yaml:18:11: missing required key "arguments"',
        "policy.yaml:19:13: 3 should be a behavior (allow, ask, deny) or a mapping "
        "{behavior, source}",
        'policy.yaml:20:18: "read file" is not a valid tool name (no spaces, no *)',
        "policy.yaml:20:42: [] should be a mapping",
        'policy.yaml:21:13: missing required key "behavior"',
        'policy.yaml:22:13: "Full Auto" is not a valid preset name',
    ]


def test_every_kind_of_problem_is_reported_in_one_pass() -> None:
    codes = [line.split(": ", 1)[0] for line in _problems("many-problems.yaml")]
    assert len(codes) == 5
    path = next(p for p in INVALID if p.name == "many-problems.yaml")
    assert {c for c, _, _ in expected_problems(path)} == {
        "duplicate-key",
        "reserved-name",
        "duplicate-rule",
        "schema",
    }
