"""Tool-name patterns: exact names, or names with ``*`` wildcards (``mcp__*``, ``*``)."""

from __future__ import annotations

from ..core.lean_typing import NamedTuple

__all__ = ["NamePattern"]


class NamePattern(NamedTuple):
    """A tool name where ``*`` matches any run of characters."""

    text: str

    @property
    def is_exact(self) -> bool:
        """True when the pattern has no wildcard."""
        return "*" not in self.text

    def matches(self, name: str) -> bool:
        """True when ``name`` fits the pattern."""
        pieces = self.text.split("*")
        if len(pieces) == 1:
            return name == self.text
        first, last = pieces[0], pieces[-1]
        if not name.startswith(first) or len(name) < len(first) + len(last):
            return False
        if not name.endswith(last):
            return False
        position = len(first)
        end = len(name) - len(last)
        for middle in pieces[1:-1]:
            found = name.find(middle, position, end)
            if found < 0:
                return False
            position = found + len(middle)
        return True
