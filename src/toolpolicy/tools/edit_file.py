"""The ``edit_file`` tool: replace exact text in a file inside the workspace.

``old_string`` must occur exactly once unless ``replace_all`` is set. Codes: ``edit_no_match``
(no occurrence), ``edit_ambiguous`` (several, without ``replace_all``), ``invalid_arguments``
(empty ``old_string``), plus every code of ``read_file``. The file is read and replaced
through the same open directory, atomically.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.errors import WorkspacePathError
from ..core.results import ToolResult, tool_error, tool_success
from ..core.vocabulary import Effect
from .opened import refuse_opened
from .registry import ToolContext
from .safefs import FileToolError, open_parent, read_text_at, replace_at
from .workspace import WorkspaceBoundary

__all__ = ["MAX_EDIT_BYTES", "edit_file"]

MAX_EDIT_BYTES = 4 * 1024 * 1024


def edit_file(arguments: Mapping[str, object], context: ToolContext) -> ToolResult:
    """Handler: replace ``old_string`` by ``new_string`` once (or everywhere)."""
    path = str(arguments["path"])
    old = str(arguments["old_string"])
    new = str(arguments["new_string"])
    replace_all = arguments.get("replace_all") is True
    if not old:
        return tool_error("invalid_arguments", "old_string must not be empty")
    try:
        with open_parent(
            WorkspaceBoundary(context.workspace),
            path,
            create=False,
            check=lambda opened: refuse_opened(context, "edit_file", Effect.WRITE, opened),
        ) as parent:
            text = read_text_at(parent, MAX_EDIT_BYTES)
            count = text.count(old)
            if count == 0:
                return tool_error("edit_no_match", f"old_string was not found in {parent.relative}")
            if count > 1 and not replace_all:
                return tool_error(
                    "edit_ambiguous",
                    f"old_string occurs {count} times in {parent.relative}; "
                    "add surrounding context or set replace_all",
                )
            updated = text.replace(old, new) if replace_all else text.replace(old, new, 1)
            try:
                data = updated.encode("utf-8")
            except UnicodeEncodeError:
                return tool_error("invalid_arguments", "new_string is not valid Unicode text")
            replace_at(parent, data)
    except (WorkspacePathError, FileToolError) as exc:
        return tool_error(exc.code, exc.message)
    noun = "replacement" if count == 1 else "replacements"
    return tool_success(f"Edited {parent.relative} ({count} {noun})")
