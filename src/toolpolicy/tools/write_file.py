"""The ``write_file`` tool: create or replace a text file inside the workspace.

Missing parent folders are created inside the workspace; the file is written to a temporary
name in its folder and renamed over the target, never through a symlink (see ``safefs``).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.errors import WorkspacePathError
from ..core.results import ToolResult, tool_error, tool_success
from ..core.vocabulary import Effect
from .opened import refuse_opened
from .registry import ToolContext
from .safefs import FileToolError, open_parent, replace_at
from .workspace import WorkspaceBoundary

__all__ = ["write_file"]


def write_file(arguments: Mapping[str, object], context: ToolContext) -> ToolResult:
    """Handler: write ``content`` to ``path`` atomically; report bytes written."""
    path = str(arguments["path"])
    try:
        data = str(arguments["content"]).encode("utf-8")
    except UnicodeEncodeError:
        return tool_error("invalid_arguments", "content is not valid Unicode text")
    try:
        with open_parent(
            WorkspaceBoundary(context.workspace),
            path,
            create=True,
            check=lambda opened: refuse_opened(context, "write_file", Effect.WRITE, opened),
        ) as parent:
            created = replace_at(parent, data)
    except (WorkspacePathError, FileToolError) as exc:
        return tool_error(exc.code, exc.message)
    verb = "Created" if created else "Wrote"
    return tool_success(f"{verb} {parent.relative} ({len(data)} bytes)")
