"""``PrefixBest`` answers as a scan of every entry would: the least-ranked entry below a
position whose group is not the one excluded (what the diff's dominance scan joins)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from toolpolicy.diff.prefix_best import Entry, PrefixBest

SIZE = 8
entries = st.lists(
    st.tuples(
        st.integers(0, SIZE - 1),  # position
        st.tuples(st.integers(0, 5), st.sampled_from(["a", "b"])),  # rank
        st.integers(0, 3),  # group
    ),
    max_size=30,
)


@given(entries, st.integers(0, SIZE), st.integers(0, 4))
def test_the_best_entry_below_a_position_of_another_group_is_found(
    added: list[tuple[int, tuple[int, str], int]], stop: int, excluded: int
) -> None:
    tree = PrefixBest(SIZE)
    kept: list[tuple[int, Entry]] = []
    for value, (position, rank, group) in enumerate(added):
        entry: Entry = (rank, group, value)
        tree.add(position, entry)
        kept.append((position, entry))
    eligible = [e for position, e in kept if position < stop and e[1] != excluded]
    found = tree.best(stop, excluded)
    if not eligible:
        assert found is None
        return
    assert found is not None
    # The least rank; among equal ranks any of them (the scan keeps the first it meets).
    assert found[0] == min(e[0] for e in eligible)
    assert found in eligible


def test_an_excluded_group_is_passed_over_for_the_next_best() -> None:
    tree = PrefixBest(4)
    tree.add(0, ((1, "x"), "same", 0))
    tree.add(1, ((2, "x"), "other", 1))
    tree.add(3, ((0, "x"), "other", 2))  # at the stop: not below it
    assert tree.best(3, "same") == ((2, "x"), "other", 1)
    assert tree.best(3, "other") == ((1, "x"), "same", 0)
    assert tree.best(1, "same") is None
