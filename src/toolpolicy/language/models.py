"""Frozen pydantic models of the three document kinds, mirroring the JSON Schema.

The models are built only from documents the schema accepted, but they enforce the same
constraints on their own (a test feeds a corpus through both and requires equal verdicts),
so a model can never hold something the schema would refuse.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    JsonValue,
    SerializerFunctionWrapHandler,
    StringConstraints,
    TypeAdapter,
    ValidationInfo,
    WrapSerializer,
    model_validator,
)

__all__ = [
    "CallDoc",
    "DefaultsDoc",
    "DocumentModel",
    "ExampleDoc",
    "ExpectDoc",
    "MatchDoc",
    "PolicyDoc",
    "PresetDoc",
    "PresetTableDoc",
    "ProfileDoc",
    "RuleDoc",
    "validate_document",
]

_NAME_FORM = r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$(?!\n)"
_DOCUMENT: dict[str, bool] = {"document": True}
_MODEL_CONFIG = ConfigDict(frozen=True, extra="forbid", regex_engine="python-re")

T = TypeVar("T")


def _unique(items: tuple[T, ...]) -> tuple[T, ...]:
    if len(set(items)) != len(items):
        raise ValueError("items must be unique")
    return items


def _read_only(mapping: Mapping[str, T]) -> Mapping[str, T]:
    return MappingProxyType(dict(mapping))


def _as_dict(mapping: Mapping[str, Any], serialize: SerializerFunctionWrapHandler) -> Any:
    return serialize(dict(mapping))


Name = Annotated[str, StringConstraints(strict=True, max_length=64, pattern=_NAME_FORM)]
Text = Annotated[str, StringConstraints(strict=True, max_length=1000, pattern=r"\S")]
# A path glob: workspace-relative, absolute ("//etc/shadow") or home ("~/.ssh/**"); the
# compiler checks the pattern itself (compile/globs.py).
Glob = Annotated[str, StringConstraints(strict=True, max_length=1024, pattern=r"\S")]
ToolName = Annotated[
    str, StringConstraints(strict=True, max_length=128, pattern=r"^[^\s*]+$(?!\n)")
]
ToolPattern = Annotated[str, StringConstraints(strict=True, max_length=128, pattern=r"^\S+$(?!\n)")]
Source = Annotated[str, StringConstraints(strict=True, max_length=128, pattern=r"^\S+$(?!\n)")]
Behavior = Literal["allow", "ask", "deny"]
Effect = Literal["read", "write", "execute"]
Capability = Literal["loop", "powershell", "tool_registry", "files", "policy"]
ApiVersion = Literal["toolpolicy/v1"]


# Length constraints before the uniqueness check, so pydantic-core checks them natively.
_UNIQUE = AfterValidator(_unique)
ToolPatterns = Annotated[tuple[ToolPattern, ...], Field(min_length=1, max_length=256), _UNIQUE]
Effects = Annotated[tuple[Effect, ...], Field(min_length=1, max_length=3), _UNIQUE]
Globs = Annotated[tuple[Glob, ...], Field(min_length=1, max_length=256), _UNIQUE]
ToolNames = Annotated[tuple[ToolName, ...], Field(min_length=1, max_length=256), _UNIQUE]
Capabilities = Annotated[tuple[Capability, ...], Field(min_length=1), _UNIQUE]


class _Doc(BaseModel):
    """Shared configuration: frozen, closed; in a document an optional key is omitted, not null."""

    model_config = _MODEL_CONFIG

    @model_validator(mode="before")
    @classmethod
    def _no_nulls(cls, data: Any, info: ValidationInfo) -> Any:
        # Only documents are held to this; Python callers may pass None for "not given".
        if isinstance(data, dict) and info.context is _DOCUMENT:
            for key, value in data.items():
                if value is None:
                    raise ValueError(f"{key} must not be null; leave the key out instead")
        return data


class MatchDoc(_Doc):
    """Which calls a rule applies to; every given field must match, at least one is given."""

    tools: ToolPatterns | None = None
    effects: Effects | None = None
    paths: Globs | None = None
    commands: Globs | None = None

    @model_validator(mode="before")
    @classmethod
    def _not_empty(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data:
            raise ValueError("match needs at least one of tools, effects, paths, commands")
        return data


class RuleDoc(_Doc):
    """One rule: a name, a behavior, a reason and what it matches."""

    name: Name
    behavior: Behavior
    reason: Text
    description: Text | None = None
    match: MatchDoc


class CallDoc(_Doc):
    """A tool call as the model would propose it."""

    tool: ToolName
    arguments: Annotated[dict[str, JsonValue], Field(strict=True, max_length=64)]


class ExpectDoc(_Doc):
    """The decision an example must get; ``source`` is None when any source will do."""

    behavior: Behavior
    source: Source | None = None


def _expectation(value: Any) -> Any:
    return {"behavior": value} if isinstance(value, str) else value


class ExampleDoc(_Doc):
    """A self-test: ``call``, decided under ``preset`` (None: the default), gives ``expect``."""

    call: CallDoc
    expect: ExpectDoc
    preset: Name | None = None
    description: Text | None = None

    @model_validator(mode="before")
    @classmethod
    def _short_expect(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("expect"), str):
            return {**data, "expect": _expectation(data["expect"])}
        return data


class DefaultsDoc(_Doc):
    """The behavior for each effect when every participant passes."""

    read: Behavior
    write: Behavior
    execute: Behavior


Rules = Annotated[tuple[RuleDoc, ...], Field(max_length=50_000)]
Examples = Annotated[tuple[ExampleDoc, ...], Field(max_length=10_000)]


class ProfileDoc(_Doc):
    """A frozen built-in chapter profile (P01, P02, P03)."""

    api_version: ApiVersion = Field(alias="apiVersion")
    kind: Literal["Profile"]
    name: Annotated[str, StringConstraints(strict=True, pattern=r"^P[0-9]{2}$(?!\n)")]
    chapter: Annotated[int, Field(strict=True, ge=1, le=99)]
    description: Text
    capabilities: Capabilities
    tools: ToolNames
    defaults: DefaultsDoc
    rules: Rules = ()
    examples: Examples = ()


class PolicyDoc(_Doc):
    """Rules a user writes, layered on a profile through ``extends``."""

    api_version: ApiVersion = Field(alias="apiVersion")
    kind: Literal["Policy"]
    name: Name
    extends: (
        Annotated[
            str,
            StringConstraints(strict=True, max_length=1024, pattern=r"^(?![/\\]|[A-Za-z]:)\S"),
        ]
        | None
    ) = None
    description: Text | None = None
    rules: Rules = ()
    examples: Examples = ()


class PresetDoc(_Doc):
    """One named combination of the sandbox and approval knobs."""

    sandbox: Literal["read-only", "workspace-write", "danger-full-access"]
    approval: Literal["ask", "never"]
    description: Text | None = None


class PresetTableDoc(_Doc):
    """Preset names to knob combinations, in declaration order; ``default`` names a row."""

    api_version: ApiVersion = Field(alias="apiVersion")
    kind: Literal["PresetTable"]
    description: Text | None = None
    default: Name
    presets: Annotated[
        Mapping[Name, PresetDoc],
        Field(strict=True, min_length=1, max_length=64),
        AfterValidator(_read_only),
        WrapSerializer(_as_dict),
    ]


DocumentModel = Annotated[ProfileDoc | PolicyDoc | PresetTableDoc, Discriminator("kind")]
_ADAPTER: TypeAdapter[ProfileDoc | PolicyDoc | PresetTableDoc] = TypeAdapter(DocumentModel)


def validate_document(data: object) -> ProfileDoc | PolicyDoc | PresetTableDoc:
    """Build the model of one document; raises ``pydantic.ValidationError`` if it is invalid."""
    return _ADAPTER.validate_python(data, context=_DOCUMENT)
