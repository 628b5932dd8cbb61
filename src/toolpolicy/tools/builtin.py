"""``builtin_registry()``: the five built-in tool definitions with their real handlers."""

from __future__ import annotations

from .definitions import builtin_definitions
from .edit_file import edit_file
from .glob_tool import GlobTool
from .read_file import read_file
from .registry import Handler, ToolRegistry
from .shell import ShellRunner
from .write_file import write_file

__all__ = ["builtin_handlers", "builtin_registry"]


def builtin_handlers(
    *, shell: ShellRunner | None = None, glob: GlobTool | None = None
) -> dict[str, Handler]:
    """The handler of each built-in tool by name; ``shell``/``glob`` replace the defaults."""
    return {
        "shell": shell or ShellRunner(),
        "read_file": read_file,
        "write_file": write_file,
        "edit_file": edit_file,
        "glob": glob or GlobTool(),
    }


def builtin_registry(
    *, shell: ShellRunner | None = None, glob: GlobTool | None = None
) -> ToolRegistry:
    """A registry of the five built-in tools, ready to prepare and invoke calls."""
    return ToolRegistry(builtin_definitions(handlers=builtin_handlers(shell=shell, glob=glob)))
