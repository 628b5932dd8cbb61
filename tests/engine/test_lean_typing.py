"""``core.lean_typing`` and ``core.sha256``: what the hook uses instead of typing and hashlib.

The run-time ``NamedTuple`` must build what ``typing.NamedTuple`` builds (fields, defaults,
methods, pickling by name), and ``core.sha256`` must give ``hashlib``'s digests.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import keyword
import pickle
import subprocess
import sys
import types
import typing

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.core import sha256 as sha256_module
from toolpolicy.core.lean_typing import NamedTuple, Protocol
from toolpolicy.core.sha256 import sha256


class Point(NamedTuple):
    """A point."""

    x: int
    y: int = 0
    label: str = ""

    @property
    def norm(self) -> int:
        return abs(self.x) + abs(self.y)

    def moved(self, dx: int) -> Point:
        return self._replace(x=self.x + dx)

    @classmethod
    def origin(cls) -> Point:
        return cls(0)


class TypingPoint(typing.NamedTuple):
    x: int
    y: int = 0
    label: str = ""


class Outer:
    class Inner(NamedTuple):
        value: int


def test_a_lean_named_tuple_is_the_named_tuple_typing_builds() -> None:
    point = Point(3, y=-4)
    assert point == (3, -4, "") and point.norm == 7 and point.moved(1) == Point(4, -4)
    assert Point.origin() == Point(0, 0, "")
    assert Point._fields == TypingPoint._fields == ("x", "y", "label")
    assert Point._field_defaults == TypingPoint._field_defaults == {"y": 0, "label": ""}
    assert (Point.__doc__, Point.__module__, Point.__qualname__) == ("A point.", __name__, "Point")
    assert Point.__mro__[1:] == TypingPoint.__mro__[1:] == (tuple, object)
    assert repr(point) == "Point(x=3, y=-4, label='')"
    assert point._asdict() == TypingPoint(3, -4)._asdict()
    with pytest.raises(AttributeError):
        point.x = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]


def test_a_lean_named_tuple_pickles_by_name_even_nested() -> None:
    assert Outer.Inner.__qualname__ == "Outer.Inner"
    for value in (Point(1, 2, "a"), Outer.Inner(5)):
        assert pickle.loads(pickle.dumps(value)) == value
        assert type(pickle.loads(pickle.dumps(value))) is type(value)


def _built(base: object, name: str, fields: list[str], defaults: list[int]) -> type:
    def body(namespace: dict[str, object]) -> None:
        namespace["__module__"] = __name__
        namespace["__annotations__"] = dict.fromkeys(fields, "int")
        namespace.update(zip(fields[len(fields) - len(defaults) :], defaults, strict=True))

    return types.new_class(name, (base,), exec_body=body)


def _outcome(make: typing.Callable[[], object]) -> object:
    try:
        return make()
    except (TypeError, ValueError) as exc:
        return (type(exc), str(exc))


def _parameters(cls: type) -> list[tuple[str, object, object]]:
    return [(p.name, p.default, p.kind) for p in inspect.signature(cls).parameters.values()]


FIELD = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True).filter(
    lambda name: not keyword.iskeyword(name)
)


@settings(max_examples=80, deadline=None)
@given(
    fields=st.lists(FIELD, max_size=7, unique=True),
    defaults=st.lists(st.integers(), max_size=7),
    given=st.lists(st.integers(), max_size=9),
)
def test_a_lean_named_tuple_behaves_as_typings_for_any_fields(
    fields: list[str], defaults: list[int], given: list[int]
) -> None:
    # The lean class compiles no ``__new__`` of its own: one per field count, renamed. Every
    # field count and name must give typing's class: signature, defaults, errors, methods.
    defaults = defaults[: len(fields)]
    lean = _built(NamedTuple, "Lean", fields, defaults)
    typed = _built(typing.NamedTuple, "Lean", fields, defaults)
    for attr in ("_fields", "_field_defaults", "__match_args__", "__doc__", "__slots__"):
        assert getattr(lean, attr) == getattr(typed, attr)
    # (typing turns the annotations into ForwardRefs; the lean class keeps them as written)
    assert _parameters(lean) == _parameters(typed)
    assert lean.__new__.__defaults__ == typed.__new__.__defaults__
    assert lean.__new__.__code__.co_code == typed.__new__.__code__.co_code
    for method in ("__new__", "_make", "_replace", "__repr__", "_asdict", "__getnewargs__"):
        ours, theirs = getattr(lean, method), getattr(typed, method)
        assert (ours.__qualname__, ours.__doc__) == (theirs.__qualname__, theirs.__doc__)
    made = _outcome(lambda: lean(*given))
    assert made == _outcome(lambda: typed(*given))
    keywords = dict(zip(fields, given, strict=False))
    assert _outcome(lambda: lean(**keywords)) == _outcome(lambda: typed(**keywords))
    assert _outcome(lambda: lean._make(given)) == _outcome(lambda: typed._make(given))
    if isinstance(made, lean):
        assert repr(made) == repr(typed(*given))
        assert made._asdict() == typed(*given)._asdict()  # type: ignore[attr-defined]
        replaced = _outcome(lambda: made._replace(**keywords))  # type: ignore[attr-defined]
        assert replaced == _outcome(lambda: typed(*given)._replace(**keywords))
        wrong = _outcome(lambda: made._replace(zz_not_a_field=1))  # type: ignore[attr-defined]
        assert wrong == _outcome(lambda: typed(*given)._replace(zz_not_a_field=1))


@pytest.mark.parametrize("count", range(21))
def test_every_field_count_runs_the_new_that_namedtuple_compiles(count: int) -> None:
    # 0 to 16 fields use the templates compiled with the package, more compile theirs at run
    # time: either way the bytecode is namedtuple's own, with the fields as parameters.
    fields = [f"field{index}" for index in range(count)]
    lean = _built(NamedTuple, "Wide", fields, list(range(count // 2)))
    typed = _built(typing.NamedTuple, "Wide", fields, list(range(count // 2)))
    ours, theirs = lean.__new__.__code__, typed.__new__.__code__
    for attr in ("co_code", "co_varnames", "co_names", "co_argcount", "co_stacksize"):
        assert getattr(ours, attr) == getattr(theirs, attr)
    assert lean.__new__.__defaults__ == typed.__new__.__defaults__
    assert lean(*range(count)) == typed(*range(count)) == tuple(range(count))
    assert lean(**dict(zip(fields, range(count), strict=True)))._asdict() == dict(
        zip(fields, range(count), strict=True)
    )


def test_what_typing_refuses_is_refused() -> None:
    with pytest.raises(TypeError, match="cannot follow default"):

        class Bad(NamedTuple):
            a: int = 0
            b: int  # type: ignore[misc]

    with pytest.raises(AttributeError, match="Cannot overwrite NamedTuple attribute _replace"):

        class Replacing(NamedTuple):
            a: int

            def _replace(self) -> None:  # type: ignore[override]
                pass

    with pytest.raises(TypeError, match="as a class"):
        NamedTuple("Functional", [("a", int)])

    with pytest.raises(ValueError, match="cannot start with an underscore: '_a'"):

        class Private(NamedTuple):
            _a: int


def test_a_lean_protocol_is_a_plain_base() -> None:
    class Speaker(Protocol):
        def speak(self) -> str: ...

    class Dog(Speaker):
        def speak(self) -> str:
            return "woof"

    assert Dog().speak() == "woof"


def _cpython_sha256() -> typing.Any:
    try:
        from _sha256 import sha256 as cpython
    except ImportError:  # pragma: no cover - Python 3.12 and later
        from _sha2 import sha256 as cpython  # type: ignore[import-not-found,no-redef]
    return cpython


@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=5000))
def test_core_sha256_gives_hashlibs_digests_with_either_implementation(data: bytes) -> None:
    """CPython's own sha256 (a process's start) and OpenSSL's (after ``prefer_openssl``):
    the same digests, whole or fed in two parts."""
    saved = sha256_module._implementation
    try:
        for implementation in (_cpython_sha256(), hashlib.sha256):
            sha256_module._implementation = implementation
            assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
            assert sha256(data).digest() == hashlib.sha256(data).digest()
            fed = sha256(data[:7])
            fed.update(data[7:])
            assert fed.hexdigest() == hashlib.sha256(data).hexdigest()
    finally:
        sha256_module._implementation = saved


_GATE_SCRIPT = """
import json, sys, tempfile
import toolpolicy
from toolpolicy.core import sha256 as module
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.audit import JsonlAuditSink
folder = tempfile.mkdtemp()
policy = toolpolicy.load("P03", workspace=folder)
policy.check("read_file", {"path": "a.txt"})
before = module._implementation.__module__
policy.gate(approval=ApprovalService(), audit=[JsonlAuditSink(folder + "/audit.jsonl")])
after = module._implementation.__module__
print(json.dumps([before, after]))
"""


def test_only_building_a_gate_loads_openssl_for_sha256() -> None:
    """Deciding hashes with CPython's sha256 (the hook never loads OpenSSL: see
    ``tests/hooks/test_warm_path_imports.py``); a gate, which hashes every call, switches the
    process to OpenSSL's once."""
    ran = subprocess.run(
        [sys.executable, "-c", _GATE_SCRIPT], capture_output=True, text=True, check=True
    )
    before, after = json.loads(ran.stdout)
    assert (before, after) == (_cpython_sha256().__module__, "_hashlib")
