"""``ToolRegistry``: look up, parse and validate a model's tool call, then run its handler.

``prepare`` never raises for bad model input: an unknown tool, arguments that are not JSON
and arguments that do not fit the tool's spec each become an error result. ``invoke`` treats
the handler as untrusted: a malformed result becomes ``invalid_tool_result`` and an unexpected
exception ``tool_execution_error``, with no stack trace in the model's context.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

from ..core.errors import PermissionContractError, WorkspacePathError
from ..core.json_text import loads
from ..core.lean_typing import TYPE_CHECKING, NamedTuple, tuple_new
from ..core.results import ToolResult, is_tool_result, tool_error
from ..core.text_checks import is_word
from ..core.vocabulary import Effect, SandboxMode
from .arguments import ArgumentError, ArgumentSpec
from .protected import FIXED_PROTECTED, ProtectedSet

if TYPE_CHECKING:
    from typing import Any

    from ..core.protocols import PathGuard

__all__ = [
    "MAX_ARGUMENTS_BYTES",
    "Handler",
    "PreparedCall",
    "ToolCall",
    "ToolContext",
    "ToolDefinition",
    "ToolRegistry",
    "ToolSnapshot",
]

MAX_ARGUMENTS_BYTES = 4 * 1024 * 1024


class ToolContext(NamedTuple):
    """What a handler knows about where and for whom it runs.

    ``protected`` is what no write may touch (the file tools refuse it, the sandbox binds it
    read-only); ``guard`` applies the policy's path rules to the path a file tool actually
    opened. ``decided`` are the paths the decision's path rules looked at: an ask there was
    answered by the decision, an ask on another path found at the open is refused. The gate
    fills all three. ``cwd`` is the folder a shell line runs in when it is not the workspace
    root (an agent's shell keeps its folder between calls): workspace-relative, or absolute
    when outside; the files the line names are relative to it.
    """

    workspace: str
    call_id: str = ""
    session_id: str = ""
    sandbox: SandboxMode = SandboxMode.WORKSPACE_WRITE
    protected: ProtectedSet = FIXED_PROTECTED
    guard: PathGuard | None = None
    decided: tuple[str, ...] = ()
    cwd: str = ""


Handler = Callable[[Mapping[str, object], ToolContext], ToolResult]


class _ToolDefinitionFields(NamedTuple):
    name: str
    description: str
    arguments: ArgumentSpec
    effect: Effect
    path_argument: str | None
    handler: Handler | None


class ToolDefinition(_ToolDefinitionFields):
    """A tool: name, description, strict arguments, effect, which argument is a path.

    Names are ``[A-Za-z0-9_]+``; the path argument must be one of the arguments.
    """

    __slots__ = ()

    def __new__(
        cls,
        name: str,
        description: str,
        arguments: ArgumentSpec,
        effect: Effect,
        path_argument: str | None = None,
        handler: Handler | None = None,
    ) -> ToolDefinition:
        if not isinstance(name, str) or not is_word(name):
            raise PermissionContractError(f"invalid tool name: {name!r}")
        if path_argument is not None and path_argument not in arguments.names:
            raise PermissionContractError(f"{name}: unknown path argument")
        return super().__new__(cls, name, description, arguments, effect, path_argument, handler)

    def openai_tool(self) -> dict[str, Any]:
        """Only what the model may see: name, description and the JSON Schema."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.arguments.json_schema(),
            },
        }


class ToolCall(NamedTuple):
    """A call as the model proposed it; ``arguments`` is a JSON string or an object."""

    id: str
    name: str
    arguments: str | Mapping[str, object]


class PreparedCall(NamedTuple):
    """The outcome of ``prepare``: either a definition and validated arguments, or an error."""

    call: ToolCall
    definition: ToolDefinition | None = None
    arguments: Mapping[str, object] | None = None
    error: ToolResult | None = None

    @property
    def ok(self) -> bool:
        """True when the call can be decided and run."""
        return self.error is None and self.definition is not None and self.arguments is not None


class ToolSnapshot:
    """An immutable set of tool definitions: what one turn of the loop works with."""

    __slots__ = ("_definitions",)

    def __init__(self, definitions: Iterable[ToolDefinition] = ()) -> None:
        table: dict[str, ToolDefinition] = {}
        for definition in definitions:
            if definition.name in table:
                raise PermissionContractError(f"duplicate tool name: {definition.name}")
            table[definition.name] = definition
        self._definitions: Mapping[str, ToolDefinition] = MappingProxyType(table)

    @property
    def names(self) -> tuple[str, ...]:
        """Tool names in registration order."""
        return tuple(self._definitions)

    def get(self, name: str) -> ToolDefinition | None:
        """The definition called ``name``, if any."""
        return self._definitions.get(name)

    def openai_tools(self) -> list[dict[str, Any]]:
        """The tool list sent to a Chat Completions model."""
        return [d.openai_tool() for d in self._definitions.values()]

    def prepare(self, call: ToolCall) -> PreparedCall:
        """Look up, parse and validate ``call``; errors become ``PreparedCall.error``."""
        definition = self._definitions.get(call.name)
        if definition is None:
            return PreparedCall(
                call, error=tool_error("unknown_tool", f"Unknown tool: {call.name}")
            )
        raw: object = call.arguments
        if isinstance(raw, str):
            if len(raw) > MAX_ARGUMENTS_BYTES:
                return PreparedCall(
                    call, error=tool_error("invalid_json", "Tool arguments are too large")
                )
            try:
                raw = loads(raw) if raw.strip() else {}
            except (ValueError, RecursionError):
                return PreparedCall(
                    call, error=tool_error("invalid_json", "Tool arguments are not valid JSON")
                )
        elif raw.__class__ is not dict and isinstance(raw, Mapping):
            raw = dict(raw)  # ``validate`` reads a dict and builds its own copy
        try:
            arguments = definition.arguments.validate(raw)
        except ArgumentError as exc:
            return PreparedCall(call, error=tool_error("invalid_arguments", str(exc)))
        return tuple_new(PreparedCall, (call, definition, arguments, None))

    def invoke(self, prepared: PreparedCall, context: ToolContext) -> ToolResult:
        """Run the handler of a prepared call; never raises for handler faults."""
        if prepared.error is not None:
            return prepared.error
        definition = self._definitions.get(prepared.call.name)
        if definition is None or definition is not prepared.definition:
            raise PermissionContractError("the call was prepared by another registry")
        if definition.handler is None:
            return tool_error("tool_unavailable", f"Tool has no handler: {definition.name}")
        try:
            # Validate again: a caller that skipped prepare still cannot feed the handler
            # unvalidated input.
            arguments = definition.arguments.validate(dict(prepared.arguments or {}))
            result = definition.handler(arguments, context)
        except ArgumentError as exc:
            return tool_error("invalid_arguments", str(exc))
        except WorkspacePathError as exc:
            return tool_error(exc.code, exc.message)
        except Exception:
            return tool_error("tool_execution_error", f"Tool execution failed: {definition.name}")
        if not is_tool_result(result):
            return tool_error("invalid_tool_result", "Tool handler returned an invalid result")
        return result


class ToolRegistry:
    """A registry of tools; ``snapshot()`` freezes the current set for one turn."""

    __slots__ = ("_snapshot",)

    def __init__(self, definitions: Iterable[ToolDefinition] = ()) -> None:
        self._snapshot = ToolSnapshot(definitions)

    def register(self, definition: ToolDefinition) -> None:
        """Add a tool; names are unique."""
        current = [d for n in self._snapshot.names if (d := self._snapshot.get(n)) is not None]
        self._snapshot = ToolSnapshot([*current, definition])

    def snapshot(self) -> ToolSnapshot:
        """The current tools, immutable."""
        return self._snapshot

    def get(self, name: str) -> ToolDefinition | None:
        """The definition called ``name``, if any."""
        return self._snapshot.get(name)

    def prepare(self, call: ToolCall) -> PreparedCall:
        """See ``ToolSnapshot.prepare``."""
        return self._snapshot.prepare(call)

    def invoke(self, prepared: PreparedCall, context: ToolContext) -> ToolResult:
        """See ``ToolSnapshot.invoke``."""
        return self._snapshot.invoke(prepared, context)

    def openai_tools(self) -> list[dict[str, Any]]:
        """See ``ToolSnapshot.openai_tools``."""
        return self._snapshot.openai_tools()
