"""Probe paths and commands are built from patterns and verified by the real matchers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.compile.commands import compile_command_pattern, split_command_line
from toolpolicy.compile.globs import GlobError, compile_glob
from toolpolicy.diff.concrete import CommandProbes, PathProbes, command_probes, path_probes
from toolpolicy.tools.workspace import normalized_path


def probes_for(text: str) -> PathProbes | None:
    return path_probes(compile_glob(text, gitignore=True))


@pytest.mark.parametrize(
    ("glob", "match", "miss"),
    [
        ("third_party/**/*.c", "third_party/x/y.c", "third_party/x/y.h"),
        ("docs/**", "docs/x", "docsx/x"),
        ("*.md", "y.md", "y.mh"),
        (".env", ".env", ".enh"),
        ("secrets/**", "secrets/x", "secretsx/x"),
        ("build/", "build/x", "buildx/x"),
        ("/src/a?.py", "src/az.py", "src/az.ph"),
        ("[abc]d", "ad", "ah"),
        ("src/[!a-y]", "src/z", "src/h"),
        ("a/**/b/**/c", "a/x/b/x/c", "a/x/b/x/h"),
    ],
)
def test_a_glob_gets_a_matching_path_and_a_near_miss(glob: str, match: str, miss: str) -> None:
    assert probes_for(glob) == PathProbes(match, miss)


def test_a_glob_that_matches_every_path_has_no_near_miss() -> None:
    assert probes_for("*") == PathProbes("y", None)
    assert probes_for("**") == PathProbes("x", None)


_SEGMENTS = st.sampled_from(
    ["a", "b1", "*", "?", "**", "*.c", "x?y", "[ab]", "[!a]", "[a-c]z", "_.", "-", "é"]
)


@st.composite
def globs(draw: st.DrawFn) -> str:
    body = "/".join(draw(st.lists(_SEGMENTS, min_size=1, max_size=5)))
    return draw(st.sampled_from(["", "/"])) + body + draw(st.sampled_from(["", "/"]))


@settings(max_examples=200, deadline=None)
@given(globs())
def test_every_emitted_path_probe_is_verified_by_a_fresh_matcher(text: str) -> None:
    try:
        pattern = compile_glob(text, gitignore=True)
    except GlobError:
        return
    found = path_probes(pattern)
    assert found is not None, text
    fresh = compile_glob(text, gitignore=True)
    assert fresh.matches(found.match)
    assert normalized_path(found.match) == found.match
    if found.miss is not None:
        assert not fresh.matches(found.miss)
        assert normalized_path(found.miss) == found.miss


def test_a_command_prefix_gets_a_match_a_hidden_compound_and_a_near_miss() -> None:
    assert command_probes(compile_command_pattern("git push --force")) == CommandProbes(
        "git push --force", "true && git push --force", "git push"
    )
    assert command_probes(compile_command_pattern("rm")) == CommandProbes("rm", "true && rm", "rmx")
    assert command_probes(compile_command_pattern("npm run *")) == CommandProbes(
        "npm run x", "true && npm run x", "npm run"
    )


def test_a_word_the_shell_would_expand_is_quoted_so_the_probe_still_matches() -> None:
    found = command_probes(compile_command_pattern("echo $HOME"))
    assert found.match == "echo '$HOME'"


def test_a_lone_wildcard_prefix_has_no_near_miss() -> None:
    assert command_probes(compile_command_pattern("*")).miss is None


_WORDS = st.sampled_from(["git", "push", "--force", "*", "rm", "-rf", "$X", "a=b", "~", "#c"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=4))
def test_every_emitted_command_probe_is_verified(words: list[str]) -> None:
    pattern = compile_command_pattern(" ".join(words))
    found = command_probes(pattern)
    for line in (found.match, found.compound):
        if line is not None:
            assert any(pattern.matches(part) for part in split_command_line(line).parts)
    if found.miss is not None:
        assert not any(pattern.matches(part) for part in split_command_line(found.miss).parts)
