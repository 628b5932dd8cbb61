"""The five built-in tool definitions (names, descriptions, arguments, effects)."""

from __future__ import annotations

from ..core.vocabulary import Effect, SandboxMode
from .arguments import ArgumentSpec, Field
from .registry import Handler, ToolDefinition

__all__ = ["BUILTIN_TOOL_NAMES", "builtin_definitions"]

MAX_PATH_CHARS = 4096
MAX_COMMAND_CHARS = 64 * 1024
MAX_CONTENT_CHARS = 4 * 1024 * 1024

_ESCALATION = (
    Field(
        "sandbox_permissions",
        str,
        "Ask for a wider sandbox mode for this call only (needs approval)",
        required=False,
        choices=tuple(m.value for m in SandboxMode),
    ),
    Field(
        "justification",
        str,
        "Why this call needs the wider sandbox mode",
        required=False,
        max_length=2000,
    ),
)
_TOGETHER = (("sandbox_permissions", "justification"),)
_PATH = Field("path", str, "Path relative to the workspace root", max_length=MAX_PATH_CHARS)

BUILTIN_TOOL_NAMES = ("shell", "read_file", "write_file", "edit_file", "glob")


def builtin_definitions(handlers: dict[str, Handler] | None = None) -> tuple[ToolDefinition, ...]:
    """The five built-in tools, with ``handlers`` attached by name where given."""
    h = handlers or {}
    return (
        ToolDefinition(
            name="shell",
            description="Run a command line in the workspace (bash on POSIX)",
            arguments=ArgumentSpec(
                (
                    Field("command", str, "The command line to run", max_length=MAX_COMMAND_CHARS),
                    *_ESCALATION,
                ),
                together=_TOGETHER,
            ),
            effect=Effect.EXECUTE,
            handler=h.get("shell"),
        ),
        ToolDefinition(
            name="read_file",
            description="Read a UTF-8 text file inside the workspace",
            arguments=ArgumentSpec((_PATH,)),
            effect=Effect.READ,
            path_argument="path",
            handler=h.get("read_file"),
        ),
        ToolDefinition(
            name="write_file",
            description="Create or replace a text file inside the workspace",
            arguments=ArgumentSpec(
                (
                    _PATH,
                    Field("content", str, "The whole new content", max_length=MAX_CONTENT_CHARS),
                    *_ESCALATION,
                ),
                together=_TOGETHER,
            ),
            effect=Effect.WRITE,
            path_argument="path",
            handler=h.get("write_file"),
        ),
        ToolDefinition(
            name="edit_file",
            description="Replace text in a file inside the workspace",
            arguments=ArgumentSpec(
                (
                    _PATH,
                    Field("old_string", str, "Exact text to replace", max_length=MAX_CONTENT_CHARS),
                    Field("new_string", str, "Replacement text", max_length=MAX_CONTENT_CHARS),
                    Field(
                        "replace_all",
                        bool,
                        "Replace every occurrence instead of exactly one",
                        required=False,
                        default=False,
                    ),
                    *_ESCALATION,
                ),
                together=_TOGETHER,
            ),
            effect=Effect.WRITE,
            path_argument="path",
            handler=h.get("edit_file"),
        ),
        ToolDefinition(
            name="glob",
            description="List workspace files matching a pattern (*, **, ?, [...])",
            arguments=ArgumentSpec(
                (Field("pattern", str, "Pattern relative to the workspace", max_length=1024),)
            ),
            effect=Effect.READ,
            handler=h.get("glob"),
        ),
    )
