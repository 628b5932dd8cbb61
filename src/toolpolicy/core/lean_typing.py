"""``NamedTuple`` and ``Protocol`` without importing ``typing`` at run time.

The hook starts a process for every tool call, and importing ``typing`` (with the modules it
pulls in) plus building each class through ``typing.NamedTuple`` costs it milliseconds. Type
checkers see ``typing``'s own classes here; at run time:

* ``class Point(NamedTuple): x: int; y: int = 0`` becomes the class that
  ``collections.namedtuple`` (and so ``typing.NamedTuple``) would build, with the class body's
  methods, properties, class methods and docstring. The annotations stay as written (every
  module of this package uses ``from __future__ import annotations``): they are never
  evaluated. It is built as ``collections.namedtuple`` builds it, except that the ``__new__``
  is not compiled from source for each class (an ``eval``: half the cost of a class, and the
  hook defines fifty): the same function, written out below for each number of fields and
  compiled with the package, is given each class's field names (``CodeType.replace``). The
  same bytecode runs; only the parameter names differ.
* ``Protocol`` is a plain base class. Only the protocols of ``core.protocols`` are checked with
  ``isinstance`` by users, and those keep ``typing.Protocol``; the others are documentation.

``TYPE_CHECKING`` is false at run time and true for a type checker (mypy treats any name
``TYPE_CHECKING`` so): ``if TYPE_CHECKING:`` guards imports needed by annotations alone.
"""

from __future__ import annotations

TYPE_CHECKING = False

__all__ = ["TYPE_CHECKING", "NamedTuple", "Protocol", "tuple_new"]

tuple_new = tuple.__new__
"""``tuple_new(Point, (x, y))`` builds a ``NamedTuple`` as the tuple it is, every field given in
order: where one is built on every call (a request, an audit record), without the Python
function its own constructor is."""

if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
    from typing import Protocol as Protocol
else:
    import collections
    from types import FunctionType

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
            built = _named_tuple(typename, fields, tuple(defaults), namespace["__module__"])
            built.__annotations__ = built.__new__.__annotations__ = annotations
            for key, value in namespace.items():
                if key in _PROHIBITED:
                    raise AttributeError(f"Cannot overwrite NamedTuple attribute {key}")
                if key not in _SPECIAL and key not in fields:
                    setattr(built, key, value)
            return built

    _NamedTupleBase = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})

    _tuplegetter = collections._tuplegetter  # the C property namedtuple gives each field
    _tuple_new = tuple.__new__

    # The ``__new__`` that ``collections.namedtuple`` compiles from source (``lambda _cls, f0,
    # f1: _tuple_new(_cls, (f0, f1))``) for 0 to 16 fields, written out so that it is compiled
    # with the package (its ``.pyc``), not on every start: each class gets a copy of its code
    # with the field names as parameters. More fields compile their template at run time.
    def _new0(_cls):
        return _tuple_new(_cls, ())

    def _new1(_cls, f0):
        return _tuple_new(_cls, (f0,))

    def _new2(_cls, f0, f1):
        return _tuple_new(_cls, (f0, f1))

    def _new3(_cls, f0, f1, f2):
        return _tuple_new(_cls, (f0, f1, f2))

    def _new4(_cls, f0, f1, f2, f3):
        return _tuple_new(_cls, (f0, f1, f2, f3))

    def _new5(_cls, f0, f1, f2, f3, f4):
        return _tuple_new(_cls, (f0, f1, f2, f3, f4))

    def _new6(_cls, f0, f1, f2, f3, f4, f5):
        return _tuple_new(_cls, (f0, f1, f2, f3, f4, f5))

    def _new7(_cls, f0, f1, f2, f3, f4, f5, f6):
        return _tuple_new(_cls, (f0, f1, f2, f3, f4, f5, f6))

    def _new8(_cls, f0, f1, f2, f3, f4, f5, f6, f7):
        return _tuple_new(_cls, (f0, f1, f2, f3, f4, f5, f6, f7))

    def _new9(_cls, f0, f1, f2, f3, f4, f5, f6, f7, f8):
        return _tuple_new(_cls, (f0, f1, f2, f3, f4, f5, f6, f7, f8))

    def _new10(_cls, f0, f1, f2, f3, f4, f5, f6, f7, f8, f9):
        return _tuple_new(_cls, (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9))

    def _new11(_cls, f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10):
        return _tuple_new(_cls, (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10))

    def _new12(_cls, f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11):
        return _tuple_new(_cls, (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11))

    def _new13(_cls, f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12):
        return _tuple_new(_cls, (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12))

    def _new14(_cls, f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13):
        return _tuple_new(_cls, (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13))

    def _new15(_cls, f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14):
        return _tuple_new(_cls, (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14))

    def _new16(_cls, f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15):
        return _tuple_new(
            _cls, (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15)
        )

    _NEW_CODE = {
        len(template.__code__.co_varnames) - 1: template.__code__
        for template in (
            _new0,
            _new1,
            _new2,
            _new3,
            _new4,
            _new5,
            _new6,
            _new7,
            _new8,
            _new9,
            _new10,
            _new11,
            _new12,
            _new13,
            _new14,
            _new15,
            _new16,
        )
    }
    """Number of fields -> the code of namedtuple's ``__new__`` for that many fields."""

    def _new_code(fields):
        """The code ``collections.namedtuple`` compiles for ``fields``' ``__new__``: the
        template for that many fields, with the fields as its parameters."""
        code = _NEW_CODE.get(len(fields))
        if code is None:
            names = [f"f{index}" for index in range(len(fields))]
            arg_list = ", ".join(names) + ("," if len(names) == 1 else "")
            source = f"lambda _cls, {arg_list}: _tuple_new(_cls, ({arg_list}))"
            code = _NEW_CODE[len(fields)] = eval(source, {"__builtins__": {}}).__code__
        return code.replace(co_varnames=("_cls", *fields), co_name="__new__")

    def _named_tuple(typename, fields, defaults, module):
        """``collections.namedtuple(typename, fields, defaults=defaults, module=module)`` for
        field names that are identifiers, unique and not keywords (a class body's
        annotations), built without compiling source (see the module docstring)."""
        for name in fields:
            if name.startswith("_"):
                raise ValueError(f"Field names cannot start with an underscore: {name!r}")
        if len(defaults) > len(fields):
            raise TypeError("Got more default values than field names")
        field_defaults = dict(zip(fields[len(fields) - len(defaults) :], defaults, strict=True))
        num_fields = len(fields)
        arg_list = ", ".join(fields) + ("," if num_fields == 1 else "")
        repr_fmt = "(" + ", ".join(f"{name}=%r" for name in fields) + ")"
        tuple_new = tuple.__new__
        globals_ = {
            "_tuple_new": tuple_new,
            "__builtins__": {},
            "__name__": f"namedtuple_{typename}",
        }
        __new__ = FunctionType(_new_code(fields), globals_, "__new__", defaults)
        __new__.__doc__ = f"Create new instance of {typename}({arg_list})"

        @classmethod
        def _make(cls, iterable):
            result = tuple_new(cls, iterable)
            if len(result) != num_fields:
                raise TypeError(f"Expected {num_fields} arguments, got {len(result)}")
            return result

        _make.__func__.__doc__ = f"Make a new {typename} object from a sequence or iterable"

        def _replace(self, /, **kwds):
            result = self._make(map(kwds.pop, fields, self))
            if kwds:
                raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
            return result

        _replace.__doc__ = (
            f"Return a new {typename} object replacing specified fields with new values"
        )

        def __repr__(self):
            "Return a nicely formatted representation string"
            return self.__class__.__name__ + repr_fmt % self

        def _asdict(self):
            "Return a new dict which maps field names to their values."
            return dict(zip(self._fields, self, strict=False))

        def __getnewargs__(self):
            "Return self as a plain tuple.  Used by copy and pickle."
            return tuple(self)

        for method in (__new__, _make.__func__, _replace, __repr__, _asdict, __getnewargs__):
            method.__qualname__ = f"{typename}.{method.__name__}"
        class_namespace = {
            "__doc__": f"{typename}({arg_list})",
            "__slots__": (),
            "_fields": fields,
            "_field_defaults": field_defaults,
            "__new__": __new__,
            "_make": _make,
            "_replace": _replace,
            "__repr__": __repr__,
            "_asdict": _asdict,
            "__getnewargs__": __getnewargs__,
            "__match_args__": fields,
        }
        for index, name in enumerate(fields):
            class_namespace[name] = _tuplegetter(index, f"Alias for field number {index}")
        built = type(typename, (tuple,), class_namespace)
        built.__module__ = module
        return built

    def NamedTuple(*args, **kwargs):
        """Only the class syntax is supported: ``class Name(NamedTuple): field: type``."""
        raise TypeError("write a NamedTuple as a class: class Name(NamedTuple): ...")

    NamedTuple.__mro_entries__ = lambda bases: (_NamedTupleBase,)

    class Protocol:
        """At run time, a protocol is a plain base class (see the module docstring)."""

        __slots__ = ()
