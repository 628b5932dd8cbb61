"""The path search with its symmetry (a place alike one searched apart already is not
searched again: what was found there is renamed) finds what the search without it finds: the same
sets, the same witnesses, in the same order. Property-tested over random globs, most of
them in families that differ only by a folder's name (``d0/…``, ``d1/…``: the places the
symmetry shares), beside random ones that reach into every folder."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.diff import regions
from toolpolicy.diff.automaton import (
    ALIKE_TRIES,
    MAX_STATES,
    AutomatonTooLarge,
    _Search,
    explore,
)
from toolpolicy.diff.path_language import PathDomain
from toolpolicy.diff.sides import load_sides, parse_side
from toolpolicy.diff.symmetry import Shapes

from .test_completeness import _valid_glob, _write, globs


def _work(top: str, patterns: list[str]) -> regions._Work:
    """The path search's automaton for one deny rule per pattern, as ``diff`` builds it."""
    rules = [{"behavior": "deny", "tools": ["read_file"], "paths": [p]} for p in patterns]
    path = _write(Path(top) / "policy.yaml", rules)
    sides = load_sides(parse_side(path), parse_side(path), top)
    entries = tuple(sides[0].engine.protected.entries)
    inputs = regions._Inputs(entries, frozenset(e for e in entries if e.folder), top, "/home/u")
    return regions._work(sides, inputs)


def _unshared(work: regions._Work, relative: bool) -> dict[frozenset[int], tuple[int, ...]]:
    """The search without the symmetry (the oracle)."""
    if relative:
        domain = PathDomain(work.alphabet)
        return explore(
            work.compiled,
            work.relative_starts,
            domain,
            stop=work.stop,
            below=work.alphabet.slash,
        )
    return explore(work.compiled, work.absolute_starts, PathDomain(work.alphabet, devices=False))


suffixes = st.sampled_from(("**/*.c", "*.md", "**", "x/**/y", "*", "**/.git/**", ".env", "a?/b"))
families = st.builds(
    lambda name, count, suffix: [f"{name}{i}/{suffix}" for i in range(count)],
    st.sampled_from(("d", "src/m", "a")),
    st.integers(min_value=1, max_value=4),
    st.one_of(suffixes, globs.filter(lambda g: not g.startswith("/") and not g.startswith("~"))),
).filter(lambda texts: all(_valid_glob(text) for text in texts))


@settings(max_examples=60, deadline=None)
@given(
    grouped=st.lists(families, min_size=1, max_size=3),
    loose=st.lists(globs, max_size=3),
)
def test_the_symmetric_search_finds_what_the_whole_search_finds(
    grouped: list[list[str]], loose: list[str]
) -> None:
    patterns = list(dict.fromkeys([*(text for family in grouped for text in family), *loose]))
    with tempfile.TemporaryDirectory() as top:
        work = _work(top, patterns)
        relative = regions._relative(work, None)
        absolute = regions._absolute(work)
        assert list(relative.items()) == list(_unshared(work, relative=True).items())
        assert list(absolute.items()) == list(_unshared(work, relative=False).items())


def test_alike_folders_are_not_searched_again(tmp_path: Path) -> None:
    """A hundred folders alike: the search with the symmetry stays within a bound the
    search without it passes (it visits every folder's states), and finds the same."""
    work = _work(str(tmp_path), [f"dir{i}/**/*.c" for i in range(100)])
    domain = PathDomain(work.alphabet)
    search = {"stop": work.stop, "below": work.alphabet.slash, "limit": 1_000}
    with pytest.raises(AutomatonTooLarge):
        explore(work.compiled, work.relative_starts, domain, **search)  # type: ignore[arg-type]
    shared = explore(
        work.compiled,
        work.relative_starts,
        domain,
        symmetry=work.symmetry,
        **search,  # type: ignore[arg-type]
    )
    assert list(shared.items()) == list(_unshared(work, relative=True).items())
    found = {work.alphabet.text(symbols) for symbols in shared.values()}
    assert {f"dir{i}/.c" for i in range(100)} <= found


def test_a_part_reaching_another_pattern_has_a_shape_of_its_own(tmp_path: Path) -> None:
    """Parts alike have one shape; a part whose automaton is not its pattern's alone (the
    chain every workspace pattern follows in an absolute path) is never alike another."""
    work = _work(str(tmp_path), ["dir1/**/*.c", "dir2/**/*.c"])
    shapes = Shapes(work.compiled, work.symmetry.owner, work.symmetry.at)
    steps = [work.alphabet.symbols(f"dir{i}/") for i in (1, 2)]
    parts = [
        tuple(
            sorted(
                s
                for s in work.compiled.advance(work.relative_starts, symbols)
                if work.symmetry.owner[s] == pattern
            )
        )
        for pattern, symbols in zip((0, 1), steps, strict=True)
    ]
    assert parts[0] and parts[1] and parts[0] != parts[1]
    assert shapes.shape(parts[0]) == shapes.shape(parts[1])
    before = len(shapes.ids)
    # a part made of a state of each pattern belongs to no one pattern
    mixed = tuple(sorted((parts[0][0], parts[1][0])))
    assert shapes.shape(mixed) == before and len(shapes.ids) == before + 1
    assert shapes.shape((parts[0][0], parts[1][0])) != shapes.shape(parts[0])


def test_a_search_whose_folders_are_not_alike_stops_telling_their_kinds(
    tmp_path: Path,
) -> None:
    """Folders each with a glob of its own (``area5/**/*.c5``): no place is renamed, so
    after :data:`ALIKE_TRIES` places the search stops telling kinds (their shapes cost
    what the search saves nothing for), and finds what the whole search finds."""
    work = _work(str(tmp_path), [f"area{i}/**/*.c{i}" for i in range(200)])
    domain = PathDomain(work.alphabet)
    search = _Search(
        work.compiled,
        domain,
        work.stop,
        work.alphabet.slash,
        frozenset(),
        MAX_STATES,
        work.symmetry,
    )
    root = (domain.start, work.compiled.start_set(work.relative_starts))
    found = search.search(root, None)
    assert list(found.items()) == list(_unshared(work, relative=True).items())
    assert search.renamed == 0
    assert search.tried == ALIKE_TRIES
    # the same folders alike are renamed all along
    alike = _work(str(tmp_path), [f"area{i}/**/*.c" for i in range(200)])
    search = _Search(
        alike.compiled,
        PathDomain(alike.alphabet),
        alike.stop,
        alike.alphabet.slash,
        frozenset(),
        MAX_STATES,
        alike.symmetry,
    )
    search.search((domain.start, alike.compiled.start_set(alike.relative_starts)), None)
    assert search.renamed >= 190 and search.tried > ALIKE_TRIES
