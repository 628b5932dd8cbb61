"""``SourceDocument``: a validated document as plain data, the input of the compiler.

The compiler never sees pydantic models: the language layer hands over plain JSON-shaped
data plus the lines of the rules and examples, which is also what the compiled-policy cache
stores, so a cached start-up needs neither YAML nor pydantic nor jsonschema.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.lean_typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any

__all__ = ["SourceDocument"]


class SourceDocument(NamedTuple):
    """One document: where it came from, its content hash, its data, and key positions.

    ``lines`` maps JSON pointers such as ``/rules/0`` and ``/examples/2`` to 1-based lines.
    """

    path: str
    sha256: str
    data: Mapping[str, Any]
    lines: Mapping[str, int]

    @property
    def kind(self) -> str:
        """``Profile``, ``Policy`` or ``PresetTable``."""
        return str(self.data.get("kind", ""))

    def line_of(self, pointer: str) -> int:
        """The line of ``pointer`` (0 when unknown)."""
        return self.lines.get(pointer, 0)

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable form (for the compiled-policy cache)."""
        return {
            "path": self.path,
            "sha256": self.sha256,
            "data": self.data,
            "lines": dict(self.lines),
        }

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> SourceDocument:
        """The inverse of ``to_json``; raises ``ValueError`` on a malformed value."""
        path, sha, data, lines = value["path"], value["sha256"], value["data"], value["lines"]
        if not (isinstance(path, str) and isinstance(sha, str) and isinstance(data, dict)):
            raise ValueError("malformed source document")
        if not isinstance(lines, dict) or not all(isinstance(v, int) for v in lines.values()):
            raise ValueError("malformed source document lines")
        return cls(path=path, sha256=sha, data=data, lines=lines)
