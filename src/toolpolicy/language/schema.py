"""The JSON Schema of the language: where it lives, and its errors as positioned problems.

Every error is reported (not just the first), each at the line and column of the node it is
about. For ``oneOf``/``anyOf`` only the best-matching branch's error is shown, the way
check-jsonschema does, instead of one error per branch.
"""

from __future__ import annotations

import copy
import difflib
import functools
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import Problem
from . import codes
from .resources import data_dir
from .yamltree import ParsedTree, escape_pointer, read_as

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError  # type: ignore[import-untyped]

__all__ = ["load_schema", "schema_path", "schema_problems"]

_SHOWN_CHARS = 60


def schema_path() -> Path:
    """Path of ``toolpolicy.schema.json`` (in the installed package or the source tree)."""
    return data_dir("policy") / "toolpolicy.schema.json"


def load_schema() -> dict[str, Any]:
    """The JSON Schema as a fresh dict (a copy: changing it changes nothing else)."""
    return copy.deepcopy(_schema())


@functools.cache
def _schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(schema_path().read_text(encoding="utf-8"))
    return loaded


def _is_integer(_checker: object, instance: object) -> bool:
    # JSON Schema would accept 3.0 as an integer; the models (and people) would not.
    return isinstance(instance, int) and not isinstance(instance, bool)


@functools.cache
def _validator() -> Any:
    """The schema's validator, built on the first refusal to explain: ``jsonschema`` (a
    tenth of a second to import) loads only then, never for a document the models accept."""
    from jsonschema import Draft202012Validator, validators  # type: ignore[import-untyped]

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer)
    return validators.extend(Draft202012Validator, type_checker=checker)(_schema())


def schema_problems(tree: ParsedTree, path: str, skip: Iterable[str] = ()) -> list[Problem]:
    """Every schema error of ``tree`` as a problem at its node, best match per branch.

    Errors about a pointer in ``skip`` (or below it) are left out: they were reported already
    with a more precise code.
    """
    skipped = tuple(skip)
    found: list[tuple[str, str, bool, bool]] = []
    for raw in _validator().iter_errors(tree.value):
        for error in _best(raw):
            is_type = error.validator == "type"
            found += [(p, m, k, is_type) for p, m, k in _describe(error, tree.unquoted)]
    # A value of the wrong type also fails its enum or pattern; saying so twice is noise.
    mistyped = {pointer for pointer, _, at_key, is_type in found if is_type and not at_key}
    problems: list[Problem] = []
    seen: set[tuple[str, str]] = set()
    for pointer, message, at_key, is_type in found:
        if (pointer, message) in seen or (pointer in mistyped and not is_type and not at_key):
            continue
        if any(pointer == s or pointer.startswith(s + "/") for s in skipped):
            continue
        seen.add((pointer, message))
        table = tree.key_positions if at_key else tree.positions
        line, column = table.get(pointer) or tree.position(pointer)
        problems.append(Problem(path, line, column, codes.SCHEMA, message, pointer))
    return problems


def _best(error: ValidationError) -> list[ValidationError]:
    """The errors worth showing for ``error``: for oneOf/anyOf, those of the branch that fits.

    A branch fits when the instance has the type the branch wants; among fitting branches the
    one with the fewest errors wins. When no branch fits, the oneOf error itself is shown.
    """
    if not error.context:
        return [error]
    branches: dict[object, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [
        errors
        for errors in branches.values()
        if not any(e.validator == "type" and not e.relative_path for e in errors)
    ]
    if not fitting:
        return [error]
    chosen = min(fitting, key=len)
    return [shown for sub in chosen for shown in _best(sub)]


def _pointer(parts: Sequence[str | int]) -> str:
    return "".join(f"/{escape_pointer(str(p))}" for p in parts)


def _shown(value: object) -> str:
    """A value as it would be written in JSON (``null``, ``"text"``), cut when long."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 3] + "..."


_TYPE_NAMES = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
}


def _describe(
    error: ValidationError, unquoted: Mapping[str, str]
) -> Iterator[tuple[str, str, bool]]:
    """(pointer, human message, position-at-key?) for one error; some errors give several.

    ``unquoted`` holds the text of plain scalars YAML read as non-strings, by pointer.
    """
    pointer = _pointer(list(error.absolute_path))
    kind, expected, instance, schema = (
        error.validator,
        error.validator_value,
        error.instance,
        error.schema if isinstance(error.schema, dict) else {},
    )
    if kind == "additionalProperties" and expected is False and isinstance(instance, dict):
        allowed = sorted(schema.get("properties", {}))
        for key in instance:
            if key not in allowed:
                listed = ", ".join(allowed)
                close = _did_you_mean(key, allowed)
                hint = f"{close} (allowed keys: {listed})" if close else f"; allowed keys: {listed}"
                message = f"unknown key {_shown(key)}{hint if allowed else ''}"
                yield f"{pointer}/{escape_pointer(key)}", message, True
        return
    if "propertyNames" in error.relative_schema_path and isinstance(instance, str):
        key_pointer = f"{pointer}/{escape_pointer(instance)}"
        yield key_pointer, _message(kind, expected, instance, schema, error.message), True
        return
    if kind == "uniqueItems" and isinstance(instance, list):
        for index, item in enumerate(instance):
            if item in instance[:index]:
                yield f"{pointer}/{index}", f"{_shown(item)} is listed more than once", False
                return
    written = unquoted.get(pointer)
    if kind == "type" and "string" in _listed(expected) and written and instance is not None:
        yield pointer, _unquoted_message(written, instance), False
        return
    yield pointer, _message(kind, expected, instance, schema, error.message), False


def _listed(expected: object) -> list[object]:
    return list(expected) if isinstance(expected, list) else [expected]


def _unquoted_message(written: str, value: object) -> str:
    """A string was expected, and YAML read the plain text ``written`` as a bool or number."""
    quoted = json.dumps(written, ensure_ascii=False)
    what = read_as(written, value)
    return f"YAML reads the unquoted {written} as {what}, not a string; write {quoted} in quotes"


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``; did you mean "x"?`` for the closest of ``choices``, or nothing."""
    close = difflib.get_close_matches(word, [c for c in choices if isinstance(c, str)], 1, 0.7)
    return f"; did you mean {_shown(close[0])}?" if close else ""


def _message(
    kind: object, expected: Any, instance: object, schema: dict[str, Any], fallback: str
) -> str:
    shown = _shown(instance)
    if kind == "required":
        missing = [name for name in expected if isinstance(instance, dict) and name not in instance]
        listed = ", ".join(_shown(name) for name in missing)
        return f"missing required key{'s' if len(missing) > 1 else ''} {listed}"

    if kind == "type":
        return f"{shown} should be {_TYPE_NAMES.get(str(expected), expected)}"
    if kind == "enum":
        hint = _did_you_mean(instance, expected) if isinstance(instance, str) else ""
        return f"{shown} is not one of {', '.join(str(v) for v in expected)}{hint}"
    if kind == "const":
        return f"{shown} should be {_shown(expected)}"
    if kind == "pattern":
        return f"{shown} is not a valid {schema.get('title', 'value')}"
    if kind in ("oneOf", "anyOf"):
        return f"{shown} should be {schema.get('title', 'one of the allowed forms')}"
    if kind == "minLength":
        return "should not be empty"
    if kind == "maxLength":
        return f"{shown} is longer than {expected} characters"
    if kind == "minItems":
        return f"should list at least {expected} item{'s' if expected != 1 else ''}"
    if kind == "maxItems":
        return f"should list at most {expected} items"
    if kind == "minProperties":
        return f"should have at least {expected} key{'s' if expected != 1 else ''}"
    if kind == "maxProperties":
        return f"should have at most {expected} keys"
    if kind == "minimum":
        return f"{shown} is less than {expected}"
    if kind == "maximum":
        return f"{shown} is greater than {expected}"
    return fallback
