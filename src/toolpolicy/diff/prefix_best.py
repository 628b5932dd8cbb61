"""The best entry before a position whose group is not a given one, in logarithmic time.

Entries ``(rank, group, value)`` are added at positions ``0 .. n-1``; a query asks for the
least-ranked entry at a position below ``stop`` whose group differs from ``excluded``. A
Fenwick tree keeps, in each node, the best two entries of its range that differ in group:
the best entry of a group other than any ``excluded`` is one of them.
"""

from __future__ import annotations

from collections.abc import Hashable

__all__ = ["Entry", "PrefixBest", "best_two"]

Entry = tuple[tuple[int, str], Hashable, int]
"""``(rank, group, value)``: a rank orders entries (least is best)."""


def best_two(kept: tuple[Entry, ...], entry: Entry) -> tuple[Entry, ...]:
    """``kept`` (at most two entries of different groups, best first) with ``entry``."""
    if not kept:
        return (entry,)
    rank, group = entry[0], entry[1]
    first = kept[0]
    if group == first[1]:
        return (entry, *kept[1:]) if rank < first[0] else kept
    if rank < first[0]:
        return (entry, first)
    if len(kept) == 1 or rank < kept[1][0]:
        return (first, entry)
    return kept


class PrefixBest:
    """Entries at positions ``0 .. size-1``; the best one below a position, of another
    group than one given."""

    __slots__ = ("_tree",)

    def __init__(self, size: int) -> None:
        self._tree: list[tuple[Entry, ...]] = [() for _ in range(size + 1)]

    def add(self, position: int, entry: Entry) -> None:
        """Add ``entry`` at ``position``."""
        tree = self._tree
        index = position + 1
        while index < len(tree):
            tree[index] = best_two(tree[index], entry)
            index += index & -index

    def best(self, stop: int, excluded: Hashable) -> Entry | None:
        """The least-ranked entry at a position below ``stop`` whose group is not
        ``excluded`` (``None``: none)."""
        tree = self._tree
        found: Entry | None = None
        index = stop
        while index > 0:
            for entry in tree[index]:
                if entry[1] != excluded:
                    if found is None or entry[0] < found[0]:
                        found = entry
                    break
            index -= index & -index
        return found
