"""Glob patterns: gitignore semantics for rule paths, plain anchored semantics for the glob tool."""

from __future__ import annotations

import re
from fnmatch import fnmatchcase

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.compile import globs
from toolpolicy.compile.globs import (
    MAX_GLOB_LENGTH,
    GlobError,
    GlobPattern,
    compile_glob,
    glob_regex,
    regex_matcher,
)


def gitignore(text: str) -> GlobPattern:
    return compile_glob(text, gitignore=True)


def plain(text: str) -> GlobPattern:
    return compile_glob(text, gitignore=False)


def assert_matches(pattern: GlobPattern, matching: list[str], not_matching: list[str]) -> None:
    assert [path for path in matching if not pattern.matches(path)] == []
    assert [path for path in not_matching if pattern.matches(path)] == []


# --- gitignore=True -------------------------------------------------------------------------


def test_a_pattern_without_slash_matches_its_basename_at_any_depth() -> None:
    assert_matches(
        gitignore("*.pem"),
        ["key.pem", "a/key.pem", "a/b/key.pem", ".pem"],
        ["key.pem.bak", "a/key.pe", "pem", "a/keypem"],
    )


def test_a_literal_name_matches_the_file_at_the_root_and_in_subfolders() -> None:
    assert_matches(gitignore(".env"), [".env", "sub/.env", "a/b/.env"], ["x.env", ".envrc", "env"])


def test_a_pattern_with_an_inner_slash_is_anchored_at_the_root() -> None:
    assert_matches(
        gitignore("src/*.py"),
        ["src/a.py", "src/.py"],
        ["lib/src/a.py", "src/a/b.py", "a.py", "src/a.pyc"],
    )


def test_a_leading_slash_anchors_a_single_name_at_the_root() -> None:
    assert_matches(gitignore("/build"), ["build", "build/x.o"], ["a/build", "a/build/x.o"])


def test_a_folder_pattern_covers_everything_below_the_folder() -> None:
    assert_matches(
        gitignore("secrets"),
        ["secrets", "secrets/a/key.txt", "a/secrets", "a/secrets/key"],
        ["secrets.txt", "mysecrets", "a/secretsx/key"],
    )
    assert_matches(
        gitignore("config/prod"),
        ["config/prod", "config/prod/db.yaml"],
        ["x/config/prod", "config/production"],
    )


def test_a_trailing_slash_means_a_directory_and_covers_its_content() -> None:
    assert_matches(
        gitignore("build/"),
        ["build/x.o", "build/a/b", "src/build/x.o", "build/"],
        ["build", "src/build", "builder/x"],
    )


def test_an_anchored_directory_pattern_with_a_trailing_slash() -> None:
    assert_matches(gitignore("/out/"), ["out/a", "out/"], ["out", "x/out/a"])


def test_double_star_prefix_matches_at_any_depth() -> None:
    assert_matches(gitignore("**/x"), ["x", "a/x", "a/b/x", "a/x/y"], ["ax", "a/xy"])


def test_double_star_suffix_matches_everything_inside_but_not_the_folder_itself() -> None:
    assert_matches(
        gitignore("secrets/**"),
        ["secrets/a", "secrets/a/b/c"],
        ["secrets", "secrets/", "a/secrets/b", "secretsx/a"],
    )


def test_double_star_in_the_middle_matches_zero_or_more_segments() -> None:
    assert_matches(
        gitignore("a/**/b"),
        ["a/b", "a/x/b", "a/x/y/b", "a/b/c"],
        ["b", "x/a/b", "a/xb", "ab"],
    )


def test_double_star_alone_matches_every_path_but_not_the_root() -> None:
    assert_matches(gitignore("**"), ["a", "a/b", ".x"], ["", "."])


def test_several_double_stars_match_like_the_definition() -> None:
    assert_matches(
        gitignore("**/a/**/b/**/c"),
        ["a/b/c", "x/a/y/b/z/c", "a/a/b/b/c/c", "a/b/c/d"],
        ["a/c/b", "a/b", "ab/c"],
    )


def test_double_star_glued_to_other_characters_is_a_single_star() -> None:
    assert_matches(gitignore("a/x**y"), ["a/xy", "a/xzzy"], ["a/x/y", "a/x/z/y"])


def test_third_party_c_files_but_not_headers() -> None:
    pattern = gitignore("third_party/**/*.c")
    assert pattern.matches("third_party/x/y.c")
    assert pattern.matches("third_party/y.c")
    assert not pattern.matches("third_party/x/y.h")
    assert not pattern.matches("vendor/third_party/x/y.c")


def test_star_and_question_mark_never_cross_a_slash() -> None:
    assert_matches(plain("src/a*"), ["src/a", "src/abc"], ["src/a/b", "src/b"])
    assert_matches(plain("src/*"), ["src/a"], ["src", "src/a/b"])
    assert_matches(gitignore("/a?c"), ["abc", "a.c"], ["a/c", "ac", "abbc"])


def test_star_matches_dotfiles_as_gitignore_does() -> None:
    assert_matches(gitignore("*"), ["a", ".hidden", "a/b"], ["", "."])


def test_character_classes_with_ranges_and_both_negations() -> None:
    assert_matches(gitignore("/f[a-c]o"), ["fao", "fbo", "fco"], ["fdo", "fo", "f/o"])
    assert_matches(gitignore("/f[!a-c]o"), ["fdo", "f.o"], ["fao", "fbo", "f/o"])
    assert_matches(gitignore("/f[^a-c]o"), ["fdo"], ["fao", "f/o"])
    assert_matches(gitignore("/[]]x"), ["]x"], ["x", "a]x"])
    assert_matches(gitignore("/[!]]x"), ["ax"], ["]x"])
    assert_matches(gitignore("/[a-]x"), ["ax", "-x"], ["bx"])


def test_regex_metacharacters_are_literal() -> None:
    assert_matches(gitignore("/a+b(c).$"), ["a+b(c).$"], ["aab(c).$", "a+bc.$"])
    assert_matches(gitignore("/x{1,2}"), ["x{1,2}"], ["x1", "xx"])


def test_matching_is_case_sensitive() -> None:
    assert_matches(gitignore("*.PEM"), ["a/K.PEM"], ["a/k.pem"])


def test_many_stars_in_one_segment_match_correctly() -> None:
    assert_matches(gitignore("/*a*b*"), ["ab", "xaybz", "aab", "ba_b"], ["ba", "b", "a"])


def test_pathological_paths_are_matched_without_backtracking_blowup() -> None:
    long_path = "/".join(["a"] * 2000)
    assert not gitignore("**/a/**/b/**/c/**/d").matches(long_path)
    assert not gitignore("*a*a*a*a*a*a*a*b").matches("a" * 250)


def test_the_workspace_root_is_never_matched() -> None:
    for text in ("*", "**", "?", ".*", "*/"):
        pattern = gitignore(text)
        assert not pattern.matches("")
        assert not pattern.matches(".")


def test_patterns_compare_by_text_and_mode_and_show_a_readable_repr() -> None:
    assert gitignore("a/*") == gitignore("a/*")
    assert gitignore("a/*") != plain("a/*")
    assert repr(gitignore("a/*")) == "GlobPattern(text='a/*', gitignore=True)"
    assert len({gitignore("a"), gitignore("a")}) == 1


# --- gitignore=False ------------------------------------------------------------------------


def test_plain_globs_are_anchored_at_the_root() -> None:
    assert_matches(plain("*.py"), ["a.py", ".py"], ["src/a.py", "a.pyc"])
    assert_matches(plain("setup.py"), ["setup.py"], ["src/setup.py"])


def test_plain_globs_have_no_directory_content_rule() -> None:
    assert_matches(plain("src"), ["src"], ["src/a.py"])
    assert_matches(plain("*.pem"), ["k.pem"], ["k.pem/x"])


def test_plain_double_star_matches_zero_or_more_segments() -> None:
    assert_matches(
        plain("src/**/*.py"),
        ["src/a.py", "src/x/a.py", "src/x/y/a.py"],
        ["a.py", "src/a.pyc", "lib/src/a.py", "src/a.py/x"],
    )
    assert_matches(plain("**/*.md"), ["a.md", "d/a.md"], ["a.mdx"])
    assert_matches(plain("docs/**"), ["docs/a", "docs/a/b"], ["docs", "x/docs/a"])


def test_a_plain_trailing_slash_matches_only_paths_marked_as_directories() -> None:
    assert_matches(plain("src/*/"), ["src/a/"], ["src/a", "src/a/b"])


# --- invalid patterns -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "flavour", "message"),
    [
        ("", True, "invalid glob '': the pattern is empty"),
        ("a\x00b", True, "invalid glob 'a\\x00b': control characters are not allowed"),
        ("a\nb", False, "invalid glob 'a\\nb': control characters are not allowed"),
        (
            "a\\b",
            True,
            "invalid glob 'a\\\\b': backslashes are not allowed (use '/' between segments)",
        ),
        (" a", True, "invalid glob ' a': leading or trailing blanks"),
        ("a ", False, "invalid glob 'a ': leading or trailing blanks"),
        ("/etc/passwd", False, "invalid glob '/etc/passwd': absolute paths are not allowed"),
        ("C:/x", True, "invalid glob 'C:/x': drive paths are not allowed"),
        ("c:x", False, "invalid glob 'c:x': drive paths are not allowed"),
        (
            "~/.ssh/*",
            False,
            "invalid glob '~/.ssh/*': '~' is only understood as '~/' (the home folder) in rule "
            "paths",
        ),
        (
            "~x",
            True,
            "invalid glob '~x': '~' is only understood as '~/' (the home folder) in rule paths",
        ),
        ("!keep.txt", True, "invalid glob '!keep.txt': '!' negation is not supported in a pattern"),
        ("/", True, "invalid glob '/': the pattern names no path"),
        ("///a", True, "invalid glob '///a': empty path segment ('//')"),
        ("//", True, "invalid glob '//': the pattern names no path"),
        ("a//b", False, "invalid glob 'a//b': empty path segment ('//')"),
        ("a/../b", True, "invalid glob 'a/../b': '..' segments are not allowed"),
        ("../b", False, "invalid glob '../b': '..' segments are not allowed"),
        ("./a", True, "invalid glob './a': '.' segments are not allowed"),
        ("src/.", True, "invalid glob 'src/.': '.' segments are not allowed"),
        ("[ab", True, "invalid glob '[ab': unclosed '[' (a class cannot contain '/')"),
        ("x/[a/b]", True, "invalid glob 'x/[a/b]': unclosed '[' (a class cannot contain '/')"),
        ("[!]", True, "invalid glob '[!]': unclosed '[' (a class cannot contain '/')"),
        ("[z-a]", True, "invalid glob '[z-a]': reversed range 'z-a'"),
        ("[+-0]", True, "invalid glob '[+-0]': range '+-0' includes '/'"),
    ],
)
def test_invalid_patterns_are_refused_with_a_clear_message(
    text: str, flavour: bool, message: str
) -> None:
    with pytest.raises(GlobError) as caught:
        compile_glob(text, gitignore=flavour)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


def test_an_overlong_pattern_is_refused() -> None:
    with pytest.raises(GlobError) as caught:
        compile_glob("a" * (MAX_GLOB_LENGTH + 1), gitignore=True)
    assert str(caught.value) == "invalid glob: longer than 1024 characters"
    assert compile_glob("a" * MAX_GLOB_LENGTH, gitignore=True).matches("a" * MAX_GLOB_LENGTH)


def test_a_leading_bang_is_literal_for_the_glob_tool() -> None:
    assert plain("!x").matches("!x")


# --- properties -----------------------------------------------------------------------------

_names = st.sampled_from(["a", "b", "ab", "ba", "aa", ".a", "a.b"])
_paths = st.lists(_names, min_size=1, max_size=6).map("/".join)


@settings(max_examples=200)
@given(suffix=_paths)
def test_a_folder_pattern_covers_every_path_under_the_folder(suffix: str) -> None:
    assert gitignore("d").matches(f"d/{suffix}")
    assert gitignore("d/").matches(f"d/{suffix}")
    assert gitignore("/d").matches(f"d/{suffix}")
    assert gitignore("d").matches(f"{suffix}/d/{suffix}")
    assert not gitignore("/d").matches(f"{suffix}/d")


def _reference(pattern: list[str], path: list[str]) -> bool:
    """Segment-by-segment definition of a glob, with fnmatch for single segments."""
    if not pattern:
        return not path
    if pattern[0] == "**":
        if len(pattern) == 1:
            return bool(path)
        return any(_reference(pattern[1:], path[i:]) for i in range(len(path) + 1))
    return bool(path) and fnmatchcase(path[0], pattern[0]) and _reference(pattern[1:], path[1:])


def _reference_gitignore(text: str, path: str) -> bool:
    segments = text.split("/")
    if len(segments) == 1:
        segments = ["**", *segments]
    parts = path.split("/")
    return any(_reference(segments, parts[:end]) for end in range(1, len(parts) + 1))


_pattern_segments = st.sampled_from(
    ["a", "b", "*", "?", "[ab]", "[!a]", "**", "a*", "*b", "*a*", "a?"]
)


@settings(max_examples=200)
@given(
    pattern=st.lists(_pattern_segments, min_size=1, max_size=5).map("/".join),
    path=_paths,
)
def test_compiled_globs_agree_with_the_segment_definition(pattern: str, path: str) -> None:
    assert plain(pattern).matches(path) == _reference(pattern.split("/"), path.split("/"))
    assert gitignore(pattern).matches(path) == _reference_gitignore(pattern, path)


# --- absolute (//) and home (~/) patterns -----------------------------------------------------


def test_an_absolute_pattern_matches_absolute_paths_only() -> None:
    pattern = gitignore("//etc/shadow")
    assert pattern.outside and pattern.root == "//"
    assert pattern.matches_absolute("/etc/shadow", "/home/u")
    assert not pattern.matches_absolute("/etc/shadow.bak", "/home/u")
    assert not pattern.matches("etc/shadow")  # a workspace path is never an absolute one
    assert repr(pattern) == "GlobPattern(text='//etc/shadow', gitignore=True, root='//')"


def test_a_home_pattern_stands_for_the_home_folder_given() -> None:
    pattern = gitignore("~/.ssh/**")
    assert pattern.matches_absolute("/home/u/.ssh/id_rsa", "/home/u")
    assert not pattern.matches_absolute("/home/other/.ssh/id_rsa", "/home/u")
    assert not pattern.matches_absolute("/home/u/.ssh", "/home/u")  # ** needs something below
    assert not pattern.matches_absolute("/.ssh/id_rsa", "/")  # no home, no match
    assert not pattern.matches(".ssh/id_rsa")


def test_a_single_leading_slash_still_anchors_at_the_workspace_root() -> None:
    pattern = gitignore("/etc/hosts")
    assert not pattern.outside
    assert pattern.matches("etc/hosts")
    assert not pattern.matches_absolute("/etc/hosts", "/home/u")


@pytest.mark.parametrize("text", ["//", "~/", "///etc", "~", "~user/x", "//a/../b"])
def test_malformed_outside_patterns_are_refused(text: str) -> None:
    with pytest.raises(GlobError):
        gitignore(text)


@pytest.mark.parametrize("text", ["//etc/*", "~/.ssh/*"])
def test_the_glob_tool_never_takes_an_outside_pattern(text: str) -> None:
    with pytest.raises(GlobError):
        plain(text)


def test_copies_of_a_glob_share_one_matcher_and_flavours_do_not() -> None:
    """Two policies with the same glob compile it once; the other flavour is another
    pattern (``x`` under the gitignore flavour also matches what a folder ``x`` holds)."""
    from toolpolicy.compile.globs import LazyFullmatch

    first, second = LazyFullmatch("x", True), LazyFullmatch("x", True)
    other = LazyFullmatch("x", False)
    assert first.translate() is second.translate()
    assert other.translate() is not first.translate()
    assert first("x/y") is not None
    assert other("x/y") is None


_SEGMENT_TEXT = st.sampled_from(("src", "a", "b_1", "x", "*", "?", "**", "*.c", "[ab]", "a-b", "."))
_PATH_SEGMENT = st.sampled_from(("src", "a", "b_1", "x", "y.c", "a-b", ".", "", "ab", "src2"))


@settings(max_examples=400)
@given(
    segments=st.lists(_SEGMENT_TEXT, min_size=1, max_size=4),
    trailing=st.booleans(),
    path=st.lists(_PATH_SEGMENT, max_size=5).map("/".join),
)
def test_a_glob_that_starts_with_folders_matches_as_its_whole_regex(
    segments: list[str], trailing: bool, path: str
) -> None:
    """``regex_matcher`` matches the rest of a regex after its literal folders (compiled
    once for every glob that shares it): it must answer as the whole regex does."""
    text = "/".join(segments) + ("/" if trailing else "")
    try:
        regex = glob_regex(text, gitignore=True)
    except GlobError:
        return
    whole = re.fullmatch(regex, path, re.DOTALL) is not None
    assert (regex_matcher(regex)(path) is not None) == whole, (text, path)


def test_globs_of_one_shape_share_one_compiled_rest() -> None:
    """``area<N>/**/*.c`` for a thousand N: one compile of ``**/*.c`` after the folder."""
    globs._TAILS.clear()
    matchers = [
        globs.regex_matcher(globs.glob_regex(f"area{i}/**/*.c", gitignore=True))
        for i in range(1000)
    ]
    assert len(globs._TAILS) == 1
    assert matchers[7]("area7/x/y.c") is not None
    assert matchers[7]("area70/x/y.c") is None
    assert matchers[7]("area7/x/y.h") is None
