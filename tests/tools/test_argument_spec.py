"""``ArgumentSpec.validate`` against its own definition, for any fields and any arguments.

What a handler receives is what ``validate`` returned: it must accept exactly the
arguments the fields allow (no unknown field, every required one, exact types, strings
within their limit and choices, integers from their minimum, pairs given together), and
return them as given with the defaults filled in. Its fast path for plain strings must not
let through what the full check refuses.
"""

from __future__ import annotations

from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.tools.arguments import ArgumentError, ArgumentSpec, Field

_NAMES = ("a", "b", "c")
_KINDS: tuple[type, ...] = (str, int, bool)


@st.composite
def _fields(draw: st.DrawFn) -> tuple[Field, ...]:
    fields: list[Field] = []
    for name in draw(st.lists(st.sampled_from(_NAMES), unique=True, max_size=3)):
        kind = draw(st.sampled_from(_KINDS))
        required = draw(st.booleans())
        default: object = None
        if not required and draw(st.booleans()):
            default = {str: "d", int: 7, bool: False}[kind]
        max_length = draw(st.none() | st.integers(0, 4)) if kind is str else None
        choices = tuple(draw(st.lists(st.sampled_from(("x", "yy")), unique=True, max_size=2)))
        minimum = draw(st.none() | st.integers(-2, 2)) if kind is int else None
        fields.append(
            Field(
                name,
                kind,
                "",
                required,
                default,
                max_length,
                choices if kind is str else (),
                minimum,
            )
        )
    return tuple(fields)


_values = st.sampled_from(
    (None, True, False, 0, -3, 3, "", "x", "yy", "zzzzz", "x\u2028", ["x"], {"x": 1})
)


def _allowed(spec: ArgumentSpec, raw: dict[str, object]) -> dict[str, object] | None:
    """What ``validate`` must return for ``raw``, written from the definition; ``None``:
    it must refuse."""
    if not set(raw) <= {f.name for f in spec.fields}:
        return None
    out: dict[str, object] = {}
    for f in spec.fields:
        if f.name not in raw:
            if f.required:
                return None
            if f.default is not None:
                out[f.name] = f.default
            continue
        value = raw[f.name]
        if type(value) is not f.kind:
            return None
        if isinstance(value, str) and (
            (f.max_length is not None and len(value) > f.max_length)
            or (f.choices and value not in f.choices)
        ):
            return None
        if isinstance(value, int) and f.minimum is not None and value < f.minimum:
            return None
        out[f.name] = value
    if any((first in out) != (second in out) for first, second in spec.together):
        return None
    return out


def _valid(f: Field) -> st.SearchStrategy[object]:
    """A value ``f`` accepts."""
    if f.kind is bool:
        return st.booleans()
    if f.kind is int:
        return st.integers(min_value=f.minimum if f.minimum is not None else -4, max_value=5)
    if f.choices:
        return st.sampled_from(f.choices)
    return st.text(max_size=f.max_length if f.max_length is not None else 6)


@settings(max_examples=600, deadline=None)
@given(fields=_fields(), together=st.booleans(), data=st.data())
def test_validate_accepts_exactly_what_the_fields_allow(
    fields: tuple[Field, ...], together: bool, data: st.DataObject
) -> None:
    pairs = ((fields[0].name, fields[1].name),) if together and len(fields) > 1 else ()
    spec = ArgumentSpec(fields, pairs)
    # Mostly arguments that are nearly right (each field given, most values valid), so that
    # one wrong value, a missing field or an unknown one is what decides.
    raw: dict[str, object] = {}
    for f in fields:
        if data.draw(st.integers(0, 5)) > 0:
            wrong = data.draw(st.integers(0, 3)) == 0
            raw[f.name] = data.draw(_values if wrong else _valid(f))
    if data.draw(st.integers(0, 7)) == 0:
        raw["z"] = data.draw(_values)
    expected = _allowed(spec, raw)
    if expected is None:
        with pytest.raises(ArgumentError):
            spec.validate(raw)
        return
    got = spec.validate(raw)
    assert isinstance(got, MappingProxyType)
    assert dict(got) == expected
    assert all(type(got[k]) is type(v) for k, v in expected.items())


def test_a_string_one_past_its_limit_is_refused_and_named() -> None:
    spec = ArgumentSpec((Field("path", str, "", max_length=3),))
    assert dict(spec.validate({"path": "abc"})) == {"path": "abc"}
    with pytest.raises(ArgumentError) as long:
        spec.validate({"path": "abcd"})
    assert str(long.value) == "path is longer than 3 characters"
    with pytest.raises(ArgumentError) as chosen:
        ArgumentSpec((Field("path", str, "", choices=("x",)),)).validate({"path": "y"})
    assert str(chosen.value) == "path must be one of: x"
