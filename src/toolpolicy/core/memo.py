"""The one way a memo of this package stays bounded: emptied whole when it is full.

Memos here hold values worked out from their keys alone (a normalized path, a compiled glob,
a decision made on a call's text, an audit line's middle): any entry may go at any time, and
the next look-up works it out again. A look-up is the caller's own ``dict.get`` (the hot
path); only a miss comes here, to store what it worked out. Emptying the whole memo, rather
than the oldest entry, costs nothing per look-up and is rare: a memo fills only when its keys
keep changing, and then it would not help anyway.
"""

from __future__ import annotations

from .lean_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypeVar

    K = TypeVar("K")
    V = TypeVar("V")

__all__ = ["remember"]


def remember(memo: dict[K, V], key: K, value: V, most: int) -> V:
    """Store ``value`` under ``key`` in ``memo`` (emptied first when it holds ``most``
    entries) and return it."""
    if len(memo) >= most:
        memo.clear()
    memo[key] = value
    return value
