"""Commands a twin decided ahead (the search's first batch, the background lines of the parts
known early) are taken as the engine's decisions only when the search signs them: one that
goes unused leaves no trace, and one taken brings the command rules its lines showed
deciding with another source, as deciding it here would have."""

from __future__ import annotations

from pathlib import Path

from toolpolicy.diff.command_regions import Command

from .test_read_redirection import _engine, _search

RULES: list[dict[str, object]] = [
    {"behavior": "deny", "commands": ["rm -rf"]},
    {"behavior": "allow", "commands": ["git status"]},
]


def test_a_command_decided_ahead_counts_only_once_taken(tmp_path: Path) -> None:
    search, _ = _search(tmp_path, RULES, RULES)
    taken = Command((search.neutral, "a"))
    unused = Command((search.neutral, "b"))
    # what the twin would have said, and made-up rules seen deciding with another source
    said = (
        search.sides[0].signature(taken, taken.text),
        search.sides[1].signature(taken, taken.text),
    )
    assert not search.sides[0].foreign and not search.sides[1].foreign
    search.early[taken] = (said, (frozenset({"left-rule"}), frozenset()))
    search.early[unused] = (said, (frozenset({"never"}), frozenset({"never"})))
    search.prefetch([taken])
    assert search.cache[taken] == said == _engine(search, taken)
    assert unused not in search.cache
    assert search.sides[0].foreign == {"left-rule"}
    assert search.sides[1].foreign == set()
    search.prefetch([Command((search.neutral, "c"))])  # decided here: nothing more
    assert search.sides[0].foreign == {"left-rule"}
    assert search.sides[1].foreign == set()
