"""Command patterns for dialects whose patterns are literal word prefixes (Codex, Gemini CLI).

toolpolicy's ``*`` is exactly one word; a literal-prefix dialect has no wildcard. A trailing
``*`` can be dropped from a deny or an ask (the prefix then also covers the bare command: a
wider deny is conservative) but not from an allow (it would allow more); a ``*`` before the
end cannot be said at all.
"""

from __future__ import annotations

from ..compile.commands import CommandPattern
from ..core.vocabulary import Behavior

__all__ = ["UntranslatablePattern", "literal_prefix", "prefix_matches"]

_WILDCARD = "*"


class UntranslatablePattern(ValueError):
    """A command pattern a literal-prefix dialect cannot express; the message says why."""


def literal_prefix(pattern: CommandPattern, behavior: Behavior) -> tuple[str, ...]:
    """The literal words that stand for ``pattern`` in a rule deciding ``behavior``."""
    pattern = pattern.as_written()
    if any(len(choice) > 1 for choice in pattern.alternatives):
        raise UntranslatablePattern("a literal prefix has no alternatives (a|b) for a word")
    words = list(pattern.words)
    if behavior is not Behavior.ALLOW:
        while words and words[-1] == _WILDCARD:
            words.pop()
    elif words[-1] == _WILDCARD:
        raise UntranslatablePattern(
            "a literal prefix has no one-word wildcard: without its trailing * the allow "
            "would also cover the bare command"
        )
    if not words:
        raise UntranslatablePattern("a literal prefix must start with the program's name")
    if _WILDCARD in words:
        raise UntranslatablePattern("a literal prefix has no wildcard for a word before the end")
    return tuple(words)


def prefix_matches(prefix: tuple[str, ...], argv: tuple[str, ...]) -> bool:
    """Whether ``argv`` starts with ``prefix``, token for token (how both dialects match)."""
    return len(argv) >= len(prefix) and argv[: len(prefix)] == prefix
