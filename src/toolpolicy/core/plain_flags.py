"""Reading a command line's flags without argparse or click, when they are written plainly.

The hook and ``toolpolicy check`` start a process per call; they answer the plain spellings
an installer or a script writes without building a parser, and hand everything else to the
full parser. ``plain_flags`` reads the shared part: each flag spelled in full as ``--flag
value`` or ``--flag=value``, or a bare switch. A word that starts with ``-`` and is none of
those, a missing value, or a value that starts with ``-`` gives ``None``: the full parser
then reads the line and reports what it must.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .lean_typing import NamedTuple

__all__ = ["PlainFlags", "plain_flags"]


class PlainFlags(NamedTuple):
    """A command line read plainly: its positionals, its valued flags in order, its switches."""

    positionals: list[str]
    values: list[tuple[str, str]]
    switches: set[str]


def plain_flags(
    argv: Sequence[str], valued: Collection[str], switches: Collection[str] = ()
) -> PlainFlags | None:
    """``argv`` read when every word is a positional, a valued flag of ``valued`` or a
    switch of ``switches``, each spelled in full; else ``None``."""
    found = PlainFlags([], [], set())
    words = iter(argv)
    for word in words:
        if not word.startswith("-"):
            found.positionals.append(word)
            continue
        flag, equals, value = word.partition("=")
        if flag in switches and not equals:
            found.switches.add(flag)
            continue
        if flag not in valued:
            return None
        if not equals:
            following = next(words, None)
            if following is None:
                return None
            value = following
        if value.startswith("-"):
            return None
        found.values.append((flag, value))
    return found
