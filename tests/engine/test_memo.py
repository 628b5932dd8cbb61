"""``core.memo.remember``: the one way a memo stays bounded. A store returns what it stored;
a memo never holds more than its bound, and a full one is emptied before the new entry goes
in, so the entry just worked out is always found next."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from toolpolicy.core.memo import remember


@given(keys=st.lists(st.integers(0, 50), max_size=200), most=st.integers(1, 8))
def test_a_memo_never_outgrows_its_bound_and_keeps_the_last_entry(
    keys: list[int], most: int
) -> None:
    memo: dict[int, str] = {}
    for key in keys:
        value = f"v{key}"
        assert remember(memo, key, value, most) is value
        assert memo[key] is value  # what was just worked out is found next
        assert len(memo) <= most


def test_a_full_memo_is_emptied_whole_before_the_new_entry() -> None:
    memo = {1: "a", 2: "b"}
    remember(memo, 3, "c", 2)
    assert memo == {3: "c"}
    remember(memo, 4, "d", 2)
    assert memo == {3: "c", 4: "d"}  # not full yet: nothing emptied
