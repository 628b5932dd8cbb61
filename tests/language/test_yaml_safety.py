"""Hostile and malformed input is refused cleanly: no expansion, no recursion, no traceback."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.core.errors import Problem
from toolpolicy.language import check_bytes, yamltree
from toolpolicy.language.yamltree import MAX_DEPTH, MAX_FILE_BYTES, MAX_SCALAR_CHARS, parse_yaml

_HEAD = b"apiVersion: toolpolicy/v1\nkind: Policy\nname: team\n"


def _problems(data: bytes) -> list[tuple[str, int, int, str]]:
    document, problems = check_bytes(data, "p.yaml")
    assert document is None
    return [(p.code, p.line, p.column, p.message) for p in problems]


def _billion_laughs() -> bytes:
    lines = ['a0: &a0 "lol"']
    for level in range(1, 10):
        refs = ", ".join([f"*a{level - 1}"] * 10)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return ("\n".join(lines) + "\n").encode()


def test_an_alias_bomb_is_refused_without_expanding_anything() -> None:
    problems = _problems(_billion_laughs())
    aliases = [p for p in problems if p[0] == "yaml-alias"]
    assert aliases[0] == (
        "yaml-alias",
        1,
        5,
        "YAML anchors are not allowed (&a0); write the value out",
    )
    assert len(aliases) == 10 + 9 * 10
    assert [p for p in problems if p[0] != "yaml-alias"] == [
        ("schema", 1, 1, 'missing required keys "apiVersion", "kind"')
    ]


def test_a_single_alias_is_refused_at_its_position() -> None:
    data = _HEAD + b"description: &d text\nrules: *d\n"
    assert _problems(data) == [
        ("yaml-alias", 4, 14, "YAML anchors are not allowed (&d); write the value out"),
        ("yaml-alias", 5, 8, "YAML aliases are not allowed (*d); write the value out"),
    ]


_LOADERS = {"libyaml": getattr(yaml, "CSafeLoader", None), "pure": yaml.SafeLoader}


@pytest.fixture(params=sorted(_LOADERS))
def loader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test using this runs once per YAML backend PyYAML offers (C, pure Python)."""
    chosen = _LOADERS[request.param]
    if chosen is None:  # pragma: no cover - depends on how PyYAML was built
        pytest.skip("PyYAML was built without libyaml")
    monkeypatch.setattr(yamltree, "_LOADER", chosen)
    return str(request.param)


_TOO_DEEP = f"mappings and sequences nest deeper than {MAX_DEPTH}"


@pytest.mark.parametrize("opener", [b"[", b"{a: ", b"[{a: "])
def test_twenty_thousand_levels_of_nesting_stop_at_the_depth_limit(
    opener: bytes, loader: str
) -> None:
    # libyaml gives up by itself at 1,000 levels; the refusal must still be ours, in place
    problems = _problems(opener * 20_000)
    column = _column_of_level(opener * 20_000, MAX_DEPTH + 1)
    assert problems == [("too-deep", 1, column, _TOO_DEEP)]


def _column_of_level(text: bytes, level: int) -> int:
    """1-based column of the flow opener that starts nesting level ``level``."""
    depth = 0
    for index, byte in enumerate(text):
        if byte in b"[{":
            depth += 1
            if depth == level:
                return index + 1
    raise AssertionError("not that deep")


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 999, 1_000, 1_001, 5_000])
def test_flow_nesting_inside_a_block_is_too_deep_at_its_place(depth: int, loader: str) -> None:
    data = _HEAD + b"rules:\n  - match: " + b"[" * depth + b"]" * depth + b"\n"
    # three block levels (the document, rules, the rule) come before the first "[" (column 12)
    assert _problems(data) == [("too-deep", 5, 12 + MAX_DEPTH - 3, _TOO_DEEP)]


def test_block_nesting_past_the_limit_is_too_deep(loader: str) -> None:
    data = b"".join(b"  " * i + b"k:\n" for i in range(MAX_DEPTH + 5))
    assert _problems(data) == [("too-deep", MAX_DEPTH + 1, 2 * MAX_DEPTH + 1, _TOO_DEEP)]


def test_block_nesting_past_libyamls_own_limit_is_too_deep(loader: str) -> None:
    data = b"".join(b" " * i + b"- \n" for i in range(1_100))
    assert _problems(data) == [("too-deep", MAX_DEPTH + 1, MAX_DEPTH + 1, _TOO_DEEP)]


def test_nesting_at_the_limit_is_still_parsed(loader: str) -> None:
    tree, problems = parse_yaml("[" * MAX_DEPTH + "]" * MAX_DEPTH, "p.yaml")
    assert problems == []
    assert tree is not None


def test_a_syntax_error_after_deep_nesting_is_still_a_syntax_error(loader: str) -> None:
    assert [p[:3] for p in _problems(b"[" * 10 + b"]" * 11)] == [("yaml-syntax", 1, 21)]


def test_a_binary_file_is_refused_at_its_first_nul_byte() -> None:
    assert _problems(b"apiVersion: toolpolicy/v1\nki\x00nd: \xff\xfe") == [
        ("encoding", 2, 3, "binary content (a NUL byte); policy files are UTF-8 text")
    ]


def test_invalid_utf8_is_refused_at_the_bad_byte() -> None:
    assert _problems(_HEAD + b"description: caf\xe9\n") == [
        ("encoding", 4, 17, "not valid UTF-8 (byte 0xe9); policy files are UTF-8 text")
    ]


def test_utf16_text_is_refused_as_binary() -> None:
    assert _problems("kind: Policy\n".encode("utf-16"))[0][0] == "encoding"


def test_a_control_character_is_refused_at_its_column() -> None:
    assert _problems(_HEAD + "description: \u00e9\x07\n".encode()) == [
        ("encoding", 4, 15, "control character U+0007 is not allowed in YAML text")
    ]


def test_a_tab_indented_line_gives_a_clean_problem() -> None:
    assert _problems(_HEAD + b"rules:\n\t- name: x\n") == [
        ("tab-indent", 5, 1, "tabs cannot indent YAML; indent with spaces")
    ]


def test_a_tab_after_spaces_in_the_indent_is_pointed_at() -> None:
    problems = _problems(_HEAD + b"rules:\n  - name: x\n  \tbehavior: deny\n")
    assert problems == [("tab-indent", 6, 3, "tabs cannot indent YAML; indent with spaces")]


def test_a_tab_inside_a_value_is_fine() -> None:
    document, problems = check_bytes(_HEAD + b"description: a\tb\n", "p.yaml")
    assert problems == []
    assert document is not None
    assert document.model.description == "a\tb"


def test_a_file_over_one_mebibyte_is_refused_before_parsing() -> None:
    data = _HEAD + b"description: " + b"x" * MAX_FILE_BYTES
    assert _problems(data) == [
        ("too-large", 1, 1, "the file is larger than the 1048576 byte (1 MiB) limit")
    ]


def test_a_file_of_exactly_one_mebibyte_is_parsed() -> None:
    body = _HEAD + b"rules: []\n#"
    data = body + b"x" * (MAX_FILE_BYTES - len(body) - 1) + b"\n"
    assert len(data) == MAX_FILE_BYTES
    document, problems = check_bytes(data, "p.yaml")
    assert problems == []
    assert document is not None


def test_an_overlong_scalar_is_too_large() -> None:
    data = _HEAD + b"description: " + b"x" * (MAX_SCALAR_CHARS + 1) + b"\n"
    assert _problems(data) == [
        ("too-large", 4, 14, f"a scalar is longer than {MAX_SCALAR_CHARS} characters")
    ]


def test_too_many_nodes_are_refused() -> None:
    data = b"a: [" + b"1," * 270_000 + b"]\n"
    assert [p[0] for p in _problems(data)] == ["too-large"]


def test_a_huge_integer_is_refused_not_converted() -> None:
    assert [p[:3] for p in _problems(b"chapter: " + b"9" * 5000 + b"\n")] == [("too-large", 1, 10)]


def test_a_second_document_is_refused() -> None:
    assert _problems(_HEAD + b"---\n" + _HEAD) == [
        (
            "multi-document",
            4,
            1,
            "only one YAML document per file is allowed; split the file at '---'",
        )
    ]


def test_an_explicit_document_start_is_fine() -> None:
    document, problems = check_bytes(b"---\n" + _HEAD + b"...\n", "p.yaml")
    assert problems == []
    assert document is not None


def test_python_tags_are_refused_and_never_constructed() -> None:
    data = _HEAD + b"description: !!python/object/apply:os.system [echo pwned]\n"
    assert _problems(data) == [
        (
            "yaml-tag",
            4,
            14,
            "the YAML tag tag:yaml.org,2002:python/object/apply:os.system is not allowed",
        )
    ]


def test_a_complex_key_is_refused() -> None:
    assert [p[:3] for p in _problems(_HEAD + b"? [a, b]\n: c\n")] == [("yaml-key", 4, 3)]


def test_an_empty_file_is_a_problem() -> None:
    assert _problems(b"") == [
        ("empty", 1, 1, "the document is empty; expected a mapping with apiVersion and kind")
    ]


def test_a_syntax_error_is_a_problem_at_its_line_and_column() -> None:
    assert _problems(_HEAD + b"rules: [a, b\n") == [
        (
            "yaml-syntax",
            5,
            1,
            "YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence)",
        )
    ]


def test_positions_count_characters_not_bytes() -> None:
    tree, problems = parse_yaml("a: \u00e9\u00e9\nb: [\u6743\u9650, x]\n", "p.yaml")
    assert problems == []
    assert tree is not None
    assert tree.positions["/b/1"] == (2, 9)
    assert tree.key_positions["/b"] == (2, 1)


def test_pointers_escape_slash_and_tilde() -> None:
    tree, _ = parse_yaml('"a/b": {"c~d": 1}\n', "p.yaml")
    assert tree is not None
    assert tree.positions["/a~1b/c~0d"] == (1, 16)


def test_yaml_11_words_and_numbers_resolve_like_the_safe_loader() -> None:
    tree, problems = parse_yaml(
        "a: [yes, no, on, 0x1f, 1_000, 1.5e+3, 1.5e3, ~, '1', 2024-01-02]\n", "p"
    )
    assert problems == []
    assert tree is not None
    assert tree.value == {
        "a": [True, False, True, 31, 1000, 1500.0, "1.5e3", None, "1", "2024-01-02"]
    }


_YAMLISH = st.text(
    alphabet=st.sampled_from(list("ab:-[]{},&*!|>'\"#\n\t ?%@`~\x00\u00e9")), max_size=80
)


@settings(max_examples=200, deadline=None)
@given(_YAMLISH)
def test_arbitrary_text_never_raises_and_problems_are_well_formed(text: str) -> None:
    document, problems = check_bytes(text.encode("utf-8"), "p.yaml")
    assert (document is None) == bool(problems)
    for problem in problems:
        assert isinstance(problem, Problem)
        assert problem.line >= 1
        assert problem.column >= 1
        assert problem.message


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    document, problems = check_bytes(data, "p.yaml")
    assert (document is None) == bool(problems)
