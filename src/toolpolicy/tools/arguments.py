"""Strict argument models for tools, in the standard library only.

A tool's arguments are a flat JSON object. ``ArgumentSpec.validate`` refuses unknown fields,
missing required fields, wrong types, over-long strings and values outside ``choices``; the
same spec renders the JSON Schema the model sees, so the two cannot drift.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from types import MappingProxyType

from ..core.lean_typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any

__all__ = ["ArgumentError", "ArgumentSpec", "Field"]

_JSON_TYPES: dict[type, str] = {str: "string", bool: "boolean", int: "integer"}


class ArgumentError(ValueError):
    """Arguments that do not fit the spec; the message is shown to the model."""


class Field(NamedTuple):
    """One argument."""

    name: str
    kind: type
    description: str
    required: bool = True
    default: object = None
    max_length: int | None = None
    choices: tuple[str, ...] = ()
    minimum: int | None = None


class _Step(NamedTuple):
    """How ``validate`` reads one field: a string of at most ``plain_limit`` characters is
    kept as it is (``-1``: no value is, the field is another kind or has choices); any other
    value is checked against ``field``."""

    name: str
    required: bool
    default: object
    plain_limit: int
    field: Field


class _ArgumentSpecFields(NamedTuple):
    fields: tuple[Field, ...]
    together: tuple[tuple[str, str], ...]
    by_name: Mapping[str, Field]
    names: frozenset[str]  # every accepted field name
    steps: tuple[_Step, ...]


_MISSING = object()


class ArgumentSpec(_ArgumentSpecFields):
    """The fields of a tool, plus pairs of fields that must be given together."""

    __slots__ = ()

    def __new__(
        cls, fields: tuple[Field, ...], together: tuple[tuple[str, str], ...] = ()
    ) -> ArgumentSpec:
        by_name = MappingProxyType({f.name: f for f in fields})
        steps = tuple(_Step(f.name, f.required, f.default, _plain_limit(f), f) for f in fields)
        return super().__new__(
            cls, tuple(fields), tuple(together), by_name, frozenset(by_name), steps
        )

    def validate(self, raw: object) -> Mapping[str, object]:
        """The validated arguments (defaults filled in), read-only; else ``ArgumentError``."""
        if not isinstance(raw, dict):
            raise ArgumentError("arguments must be a JSON object")
        if not raw.keys() <= self.names:
            extra = sorted(str(k) for k in raw if k not in self.names)
            raise ArgumentError(f"unexpected argument: {', '.join(extra)}")
        out: dict[str, object] = {}
        get = raw.get
        for name, required, default, plain_limit, spec in self.steps:
            value = get(name, _MISSING)
            if value is _MISSING:
                if required:
                    raise ArgumentError(f"missing required argument: {name}")
                if default is not None:
                    out[name] = default
            # The common case, a string within its limit and no choices, without a call.
            elif value.__class__ is str and len(value) <= plain_limit:
                out[name] = value
            else:
                out[name] = _check_value(spec, value)
        for first, second in self.together:
            if (first in out) != (second in out):
                raise ArgumentError(f"{first} and {second} must be given together")
        return MappingProxyType(out)

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema of the arguments, as sent to the model."""
        properties: dict[str, Any] = {}
        for spec in self.fields:
            prop: dict[str, Any] = {"type": _JSON_TYPES[spec.kind], "description": spec.description}
            if spec.choices:
                prop["enum"] = list(spec.choices)
            if spec.max_length is not None:
                prop["maxLength"] = spec.max_length
            if spec.minimum is not None:
                prop["minimum"] = spec.minimum
            if spec.default is not None:
                prop["default"] = spec.default
            properties[spec.name] = prop
        return {
            "type": "object",
            "properties": properties,
            "required": [f.name for f in self.fields if f.required],
            "additionalProperties": False,
        }


def _plain_limit(spec: Field) -> int:
    """``_Step.plain_limit`` of a field."""
    if spec.kind is not str or spec.choices:
        return -1
    return sys.maxsize if spec.max_length is None else spec.max_length


def _check_value(spec: Field, value: object) -> object:
    # bool is a subclass of int: check exact types so True is never an integer.
    if type(value) is not spec.kind:
        raise ArgumentError(f"{spec.name} must be a {_JSON_TYPES[spec.kind]}")
    if isinstance(value, str):
        if spec.max_length is not None and len(value) > spec.max_length:
            raise ArgumentError(f"{spec.name} is longer than {spec.max_length} characters")
        if spec.choices and value not in spec.choices:
            raise ArgumentError(f"{spec.name} must be one of: {', '.join(spec.choices)}")
    if isinstance(value, int) and spec.minimum is not None and value < spec.minimum:
        raise ArgumentError(f"{spec.name} must be at least {spec.minimum}")
    return value
