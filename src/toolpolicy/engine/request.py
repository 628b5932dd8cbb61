"""``PermissionRequest``: a successfully prepared call plus the context it would run in."""

from __future__ import annotations

from collections.abc import Mapping

from ..core.errors import PermissionContractError
from ..core.vocabulary import Effect
from ..tools.registry import PreparedCall, ToolContext, ToolDefinition

__all__ = ["PermissionRequest"]


class PermissionRequest:
    """Only a call that passed ``ToolRegistry.prepare`` can be asked about."""

    __slots__ = ("arguments", "context", "definition", "prepared")

    prepared: PreparedCall
    context: ToolContext
    definition: ToolDefinition
    arguments: Mapping[str, object]

    def __init__(self, prepared: PreparedCall, context: ToolContext) -> None:
        definition, arguments = prepared.definition, prepared.arguments
        if prepared.error is not None or definition is None or arguments is None:
            raise PermissionContractError("permission request requires a valid prepared tool call")
        _SET_PREPARED(self, prepared)
        _SET_CONTEXT(self, context)
        _SET_DEFINITION(self, definition)
        _SET_ARGUMENTS(self, arguments)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("PermissionRequest is immutable")

    @property
    def tool(self) -> str:
        """The tool's name."""
        return self.definition.name

    @property
    def effect(self) -> Effect:
        """The tool's effect, from the trusted local definition."""
        return self.definition.effect

    @property
    def call_id(self) -> str:
        """The model's call id."""
        return self.prepared.call.id

    @property
    def path(self) -> str | None:
        """The raw path argument, when the tool has one."""
        name = self.definition.path_argument
        if name is None:
            return None
        value = self.arguments.get(name)
        return value if isinstance(value, str) else None


# Each slot's own setter, past the ``__setattr__`` that refuses: faster than
# ``object.__setattr__`` by name, on every request.
_SET_PREPARED, _SET_CONTEXT, _SET_DEFINITION, _SET_ARGUMENTS = (
    PermissionRequest.__dict__[name].__set__
    for name in ("prepared", "context", "definition", "arguments")
)
