"""``NamedTuple`` and ``Protocol`` without importing ``typing`` at run time.

The hook starts a process for every tool call, and importing ``typing`` (with the modules it
pulls in) plus building each class through ``typing.NamedTuple`` costs it milliseconds. Type
checkers see ``typing``'s own classes here; at run time:

* ``class Point(NamedTuple): x: int; y: int = 0`` becomes the ``collections.namedtuple`` that
  ``typing.NamedTuple`` would build, with the class body's methods, properties, class methods
  and docstring. The annotations stay as written (every module of this package uses
  ``from __future__ import annotations``): they are never evaluated.
* ``Protocol`` is a plain base class. Only the protocols of ``core.protocols`` are checked with
  ``isinstance`` by users, and those keep ``typing.Protocol``; the others are documentation.

``TYPE_CHECKING`` is false at run time and true for a type checker (mypy treats any name
``TYPE_CHECKING`` so): ``if TYPE_CHECKING:`` guards imports needed by annotations alone.
"""

from __future__ import annotations

TYPE_CHECKING = False

__all__ = ["TYPE_CHECKING", "NamedTuple", "Protocol"]

if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
    from typing import Protocol as Protocol
else:
    import collections

    # What typing.NamedTuple refuses to let a class body override, and what it never copies.
    _PROHIBITED = frozenset(
        {
            "__new__",
            "__init__",
            "__slots__",
            "__getnewargs__",
            "_fields",
            "_field_defaults",
            "_make",
            "_replace",
            "_asdict",
            "_source",
        }
    )
    _SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})

    class _NamedTupleMeta(type):
        def __new__(mcs, typename, bases, namespace):
            if bases != (_NamedTupleBase,):
                raise TypeError("a NamedTuple class can only inherit from NamedTuple")
            annotations = namespace.get("__annotations__", {})
            fields = tuple(annotations)
            defaults = []
            for name in fields:
                if name in namespace:
                    defaults.append(namespace[name])
                elif defaults:
                    raise TypeError(
                        f"Non-default namedtuple field {name} cannot follow default field(s)"
                    )
            built = collections.namedtuple(
                typename, fields, defaults=defaults, module=namespace["__module__"]
            )
            built.__annotations__ = annotations
            for key, value in namespace.items():
                if key in _PROHIBITED:
                    raise AttributeError(f"Cannot overwrite NamedTuple attribute {key}")
                if key not in _SPECIAL and key not in fields:
                    setattr(built, key, value)
            return built

    _NamedTupleBase = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})

    def NamedTuple(*args, **kwargs):
        """Only the class syntax is supported: ``class Name(NamedTuple): field: type``."""
        raise TypeError("write a NamedTuple as a class: class Name(NamedTuple): ...")

    NamedTuple.__mro_entries__ = lambda bases: (_NamedTupleBase,)

    class Protocol:
        """At run time, a protocol is a plain base class (see the module docstring)."""

        __slots__ = ()
