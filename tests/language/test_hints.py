"""Problems that say what was probably meant: close spellings, and YAML 1.1's unquoted words."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolpolicy.core.errors import PolicyLoadError
from toolpolicy.language import check_bytes, load_document

_HEAD = "apiVersion: toolpolicy/v1\nkind: Policy\nname: team\nrules:\n  - name: a\n"


def _messages(text: str) -> list[tuple[int, int, str]]:
    document, problems = check_bytes(text.encode(), "p.yaml")
    assert document is None
    return [(p.line, p.column, p.message) for p in problems]


def _rule(behavior: str = "deny", reason: str = "r", match: str = "{tools: [shell]}") -> str:
    return _HEAD + f"    behavior: {behavior}\n    reason: {reason}\n    match: {match}\n"


def test_a_misspelt_key_gets_the_key_it_resembles() -> None:
    assert _messages(_rule(match="{tool: [shell]}")) == [
        (
            8,
            13,
            'unknown key "tool"; did you mean "tools"? '
            "(allowed keys: commands, effects, paths, tools)",
        )
    ]


def test_a_key_like_no_other_only_lists_the_allowed_ones() -> None:
    assert _messages(_rule(match="{zzz: [shell]}")) == [
        (8, 13, 'unknown key "zzz"; allowed keys: commands, effects, paths, tools')
    ]


def test_a_misspelt_behavior_gets_the_value_it_resembles() -> None:
    assert _messages(_rule(behavior="alow")) == [
        (6, 15, '"alow" is not one of allow, ask, deny; did you mean "allow"?')
    ]


def test_a_misspelt_kind_gets_the_kind_it_resembles() -> None:
    assert _messages("apiVersion: toolpolicy/v1\nkind: Polcy\nname: team\n") == [
        (2, 7, '"Polcy" is not one of Profile, Policy, PresetTable; did you mean "Policy"?')
    ]


def test_a_far_fetched_resemblance_is_not_suggested() -> None:
    assert _messages(_rule(match="{effects: [delete]}")) == [
        (8, 23, '"delete" is not one of read, write, execute')
    ]


@pytest.mark.parametrize(
    ("word", "value"),
    [("no", "false"), ("yes", "true"), ("on", "true"), ("off", "false"), ("NO", "false")],
)
def test_an_unquoted_yaml_11_boolean_where_text_belongs_says_to_quote_it(
    word: str, value: str
) -> None:
    assert _messages(_rule(reason=word)) == [
        (
            7,
            13,
            f"YAML reads the unquoted {word} as the YAML 1.1 boolean {value}, not a string; "
            f'write "{word}" in quotes',
        )
    ]


def test_an_unquoted_number_where_text_belongs_says_to_quote_it() -> None:
    assert _messages(_rule(match="{paths: [1.10]}")) == [
        (
            8,
            21,
            'YAML reads the unquoted 1.10 as the number 1.1, not a string; write "1.10" in quotes',
        )
    ]


def test_an_unquoted_boolean_in_a_list_of_names_is_pointed_at() -> None:
    assert _messages(_rule(match="{tools: [shell, off]}")) == [
        (
            8,
            28,
            "YAML reads the unquoted off as the YAML 1.1 boolean false, not a string; "
            'write "off" in quotes',
        )
    ]


@pytest.mark.parametrize("word", ['"no"', "'off'", "y", "n", "nope"])
def test_quoted_words_and_y_or_n_are_text(word: str) -> None:
    document, problems = check_bytes(_rule(reason=word).encode(), "p.yaml")
    assert problems == []
    assert document is not None


def test_an_empty_value_is_not_told_to_be_quoted() -> None:
    assert _messages(_rule(reason="")) == [(7, 12, "null should be a string")]


def test_the_loader_error_carries_the_same_hints(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(_rule(behavior="alow", reason="no"))
    with pytest.raises(PolicyLoadError) as raised:
        load_document(path)
    assert [str(p) for p in raised.value.problems] == [
        f'{path}:6:15: "alow" is not one of allow, ask, deny; did you mean "allow"?',
        f"{path}:7:13: YAML reads the unquoted no as the YAML 1.1 boolean false, not a string; "
        'write "no" in quotes',
    ]


@pytest.mark.parametrize(
    ("key", "what"),
    [
        ("on", "the YAML 1.1 boolean true"),
        ("No", "the YAML 1.1 boolean false"),
        ("true", "the boolean true"),
        ("1", "the number 1"),
        ("null", "null"),
    ],
)
def test_a_key_yaml_reads_as_no_string_says_what_it_read_and_to_quote_it(
    key: str, what: str
) -> None:
    text = f"apiVersion: toolpolicy/v1\nkind: Policy\nname: team\n{key}: x\n"
    assert _messages(text) == [
        (
            4,
            1,
            f"mapping keys must be strings, but YAML reads the unquoted {key} as {what}; "
            f'write "{key}" in quotes',
        )
    ]


def test_a_mapping_as_a_key_is_named_as_such() -> None:
    text = "apiVersion: toolpolicy/v1\nkind: Policy\nname: team\n? {a: b}\n: x\n"
    assert _messages(text) == [
        (4, 3, "mapping keys must be strings, but YAML reads this key as a mapping or sequence")
    ]
