"""The ``read_file`` tool: the UTF-8 text of one file inside the workspace.

Codes: ``path_escape`` and ``invalid_path`` (the boundary), ``file_not_found``, ``not_a_file``
(directories, FIFOs, devices), ``file_too_large`` (over ``MAX_READ_BYTES``),
``binary_file`` (NUL bytes or not UTF-8) and ``permission_denied`` (the path actually opened
is refused, see ``opened``).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.errors import WorkspacePathError
from ..core.results import ToolResult, tool_error, tool_success
from ..core.vocabulary import Effect
from .opened import refuse_opened
from .registry import ToolContext
from .safefs import FileToolError, open_parent, read_text_at
from .workspace import WorkspaceBoundary

__all__ = ["MAX_READ_BYTES", "read_file"]

MAX_READ_BYTES = 1024 * 1024


def read_file(arguments: Mapping[str, object], context: ToolContext) -> ToolResult:
    """Handler: return the file's text verbatim."""
    path = str(arguments["path"])
    try:
        with open_parent(
            WorkspaceBoundary(context.workspace),
            path,
            create=False,
            check=lambda opened: refuse_opened(context, "read_file", Effect.READ, opened),
        ) as parent:
            return tool_success(read_text_at(parent, MAX_READ_BYTES))
    except (WorkspacePathError, FileToolError) as exc:
        return tool_error(exc.code, exc.message)
