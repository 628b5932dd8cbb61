"""Lexical normalization of model-supplied paths before rule matching."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.compile.paths import MAX_PATH_LENGTH, normalize_relative_path


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ("src/a.py", "src/a.py"),
        ("./src/a.py", "src/a.py"),
        ("src/./a.py", "src/a.py"),
        ("src//a.py", "src/a.py"),
        ("src/a/", "src/a"),
        ("a/../b", "b"),
        ("a/b/../../c", "c"),
        ("a/b/../c/./d", "a/c/d"),
        ("..a/b..", "..a/b.."),
        ("...", "..."),
        (".env", ".env"),
        ("name with spaces/ü.txt", "name with spaces/ü.txt"),
        (".", "."),
        ("./", "."),
        ("a/..", "."),
    ],
)
def test_safe_paths_are_normalized(raw: str, normalized: str) -> None:
    assert normalize_relative_path(raw) == normalized


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "/etc/passwd",
        "//server/share",
        "C:\\Windows",
        "C:/Windows",
        "c:relative",
        "\\\\srv\\share",
        "a\\b",
        "..",
        "../x",
        "a/../../x",
        "./../x",
        "a/b/../../../x",
        "a\x00b",
        "a\nb",
        "a\tb",
        "a\x7fb",
        "a\x85b",
    ],
)
def test_unsafe_or_ambiguous_paths_are_refused(raw: str) -> None:
    assert normalize_relative_path(raw) is None


def test_overlong_paths_are_refused() -> None:
    assert normalize_relative_path("a" * MAX_PATH_LENGTH) == "a" * MAX_PATH_LENGTH
    assert normalize_relative_path("a" * (MAX_PATH_LENGTH + 1)) is None


def test_a_non_string_is_refused() -> None:
    assert normalize_relative_path(None) is None  # type: ignore[arg-type]


_segments = st.sampled_from(["a", "b", ".", "..", "", "c.txt", "...", ".hidden"])


@settings(max_examples=200)
@given(st.lists(_segments, max_size=8).map("/".join) | st.text(max_size=30))
def test_a_normalized_path_is_never_absolute_and_never_climbs(raw: str) -> None:
    normalized = normalize_relative_path(raw)
    if normalized is not None:
        assert not normalized.startswith("/")
        assert ".." not in normalized.split("/")
        assert "" not in normalized.split("/")
        assert "\\" not in normalized
        assert normalize_relative_path(normalized) == normalized
