"""Turn a validated ``LoadedDocument`` into the plain ``SourceDocument`` the compiler takes."""

from __future__ import annotations

from ..compile.source import SourceDocument
from ..core.lean_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from ..language import LoadedDocument

__all__ = ["to_source"]


def to_source(loaded: LoadedDocument) -> SourceDocument:
    """Plain JSON data plus the lines of every rule and example."""
    data: dict[str, Any] = loaded.model.model_dump(mode="json", by_alias=True, exclude_none=True)
    lines: dict[str, int] = {}
    for key in ("rules", "examples"):
        for i in range(len(data.get(key) or ())):
            pointer = f"/{key}/{i}"
            lines[pointer] = loaded.position(pointer)[0]
    return SourceDocument(path=loaded.path, sha256=loaded.sha256, data=data, lines=lines)
