"""The path automata agree with the engine: globs with ``compile_glob``, the domain with
``normalized_path``."""

from __future__ import annotations

import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolpolicy.compile.globs import ABSOLUTE, HOME, GlobError, compile_glob
from toolpolicy.core.errors import WorkspacePathError
from toolpolicy.diff.automaton import CompiledNfa, Nfa
from toolpolicy.diff.path_language import (
    _UPPER_OF,
    CASEFOLD_RANGES,
    PathAlphabet,
    PathDomain,
    add_exact,
    add_glob,
    add_protected,
    folded_spellings,
    path_alphabet,
)
from toolpolicy.tools.protected import ProtectedEntry
from toolpolicy.tools.workspace import normalized_path

_GLOB_CHARS = "ab*?[]!^-/"
_PATH_CHARS = "ab!^-]./"


def _run(nfa: CompiledNfa, start: int, alphabet: PathAlphabet, text: str) -> bool:
    """Whether the automaton's pattern 0 accepts ``text`` (a plain NFA simulation)."""
    states = nfa.start_set([start])
    for char in text:
        symbol = alphabet.of(char)
        following: set[int] = set()
        for state in states:
            for symbols, reached in nfa.moves[state]:
                if symbol in symbols:
                    following |= reached
        states = frozenset(following)
    return 0 in nfa.matched(states)


def _valid_glob(text: str) -> bool:
    try:
        compile_glob(text, gitignore=True)
    except GlobError:
        return False
    return True


def _normalized(path: str) -> bool:
    try:
        return normalized_path(path) == path
    except WorkspacePathError:
        return False


globs = st.text(alphabet=_GLOB_CHARS, min_size=1, max_size=10).filter(_valid_glob)
paths = st.text(alphabet=_PATH_CHARS, min_size=1, max_size=10).filter(_normalized)


@settings(max_examples=400, deadline=None)
@given(glob=globs, path_list=st.lists(paths, min_size=1, max_size=8))
@example(glob="x/**", path_list=["x", "x/a", "x/a/b"])
@example(glob="**/a/**/b", path_list=["a/b", "c/a/d/b", "a/b/c", "ab"])
@example(glob="[!a-b]*/", path_list=["c", "c/d", "a/d", "-/x"])
@example(glob="[]a]", path_list=["]", "a", "b", "x/]"])
@example(glob="a*b*", path_list=["ab", "aXbY", "ba", "a/b"])
def test_a_glob_automaton_matches_exactly_what_compile_glob_matches(
    glob: str, path_list: list[str]
) -> None:
    engine = compile_glob(glob, gitignore=True)
    alphabet = path_alphabet([glob, *path_list])
    nfa = Nfa()
    start = add_glob(nfa, glob, alphabet, 0)
    compiled = nfa.compiled()
    for path in path_list:
        # An absolute or home pattern's automaton reads the path below its root.
        if engine.root == ABSOLUTE:
            expected = engine.matches_absolute("/" + path, "/home/u")
        elif engine.root == HOME:
            expected = engine.matches_absolute("/home/u/" + path, "/home/u")
        else:
            expected = engine.matches(path)
        assert _run(compiled, start, alphabet, path) == expected, (glob, path)


def test_an_exact_path_matches_only_itself() -> None:
    alphabet = path_alphabet(["a/b.yaml"])
    nfa = Nfa()
    start = add_exact(nfa, "a/b.yaml", alphabet, 0)
    compiled = nfa.compiled()
    assert _run(compiled, start, alphabet, "a/b.yaml")
    for other in ("a/b.yam", "a/b.yaml/c", "a", "x/a/b.yaml"):
        assert not _run(compiled, start, alphabet, other)


def _domain_accepts(domain: PathDomain, text: str, alphabet: PathAlphabet) -> bool:
    state = domain.start
    for char in text:
        stepped = domain.step(state, alphabet.of(char))
        if stepped is None:
            return False
        state = stepped
    return domain.accepting(state)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="cCoOnNuUlLpPtTmM1¹$iI\u0131 .a/:\\*\xa0\u3000", min_size=1, max_size=9))
@example("nul")
@example("con.txt")
@example("COM1 ")
@example("a/lpt¹.log/b")
@example("conin$")
@example("CON x")
@example("CON .x")
@example("COM10")
@example("a/./b")
@example("...")
def test_the_path_domain_accepts_exactly_the_normalized_paths(text: str) -> None:
    alphabet = path_alphabet([])
    assert _domain_accepts(PathDomain(alphabet), text, alphabet) == _normalized(text), text


def test_the_root_is_the_empty_path_of_the_domain() -> None:
    alphabet = path_alphabet([])
    domain = PathDomain(alphabet)
    assert domain.accepting(domain.start)
    assert normalized_path(".") == ""


@pytest.mark.skipif(sys.maxunicode < 0x10FFFF, reason="needs the whole of Unicode")
def test_every_character_that_upper_cases_into_a_device_name_is_known() -> None:
    letters = set(_UPPER_OF.values())
    found = {
        chr(code)
        for code in range(sys.maxunicode + 1)
        if not 0xD800 <= code <= 0xDFFF and chr(code).upper() in letters
    }
    assert found == set(_UPPER_OF)
    # No character upper-cases into several characters that could spell part of a name.
    for code in range(sys.maxunicode + 1):
        upper = chr(code).upper()
        if len(upper) > 1 and not 0xD800 <= code <= 0xDFFF:
            assert not any(
                upper in name for name in ("CON", "PRN", "AUX", "NUL", "COM", "LPT", "CONIN$")
            )


def test_each_class_has_a_readable_representative() -> None:
    alphabet = path_alphabet(["docs/[a-c]*"])
    assert alphabet.representatives[alphabet.of("d")] == "d"
    assert alphabet.between("a", "c") == frozenset(
        {alphabet.of("a"), alphabet.of("b"), alphabet.of("c")}
    )
    assert not alphabet.legal[alphabet.of(":")]
    assert not alphabet.legal[alphabet.of("\x01")]


@pytest.mark.skipif(sys.maxunicode < 0x10FFFF, reason="needs the whole of Unicode")
def test_every_character_casefold_changes_is_in_the_scanned_ranges() -> None:
    inside = {code for low, high in CASEFOLD_RANGES for code in range(low, high)}
    changed = {
        code
        for code in range(sys.maxunicode + 1)
        if not 0xD800 <= code <= 0xDFFF and chr(code).casefold() != chr(code)
    }
    assert changed <= inside


@settings(max_examples=300, deadline=None)
@given(
    entry=st.sampled_from(
        [
            ProtectedEntry(".git", True, "g", anywhere=True),
            ProtectedEntry(".claude/settings.json", False, "c"),
            ProtectedEntry(".codex", True, "x"),
            ProtectedEntry("strict.yaml", False, "p"),
        ]
    ),
    path=st.text(alphabet=".gitGIT/aclusetJSONKkx\ufb05\u017f\u212a", min_size=1, max_size=14),
)
@example(ProtectedEntry(".git", True, "g", anywhere=True), "a/.GIT/b")
@example(ProtectedEntry("strict.yaml", False, "p"), "ﬅrict.yaml")
@example(ProtectedEntry(".codex", True, "x"), ".codeX/k")
def test_a_protected_entry_automaton_covers_exactly_what_the_entry_covers(
    entry: ProtectedEntry, path: str
) -> None:
    key = entry.path.casefold()
    alphabet = path_alphabet([folded_spellings(key), path])
    nfa = Nfa()
    start = add_protected(nfa, key, entry.folder, entry.anywhere, alphabet, 0)
    assert _run(nfa.compiled(), start, alphabet, path) == entry.covers(path), (entry, path)
