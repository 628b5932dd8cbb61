"""A package's public names, each loaded with its module on first use (PEP 562).

``toolpolicy`` and ``toolpolicy.core`` export their names this way, so that a process that
needs few of them — ``toolpolicy hook``, a process per tool call — loads only those modules.
"""

from __future__ import annotations

from .lean_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["exported"]


def exported(namespace: dict[str, object], exports: Mapping[str, str]) -> Callable[[str], object]:
    """The ``__getattr__`` of the package whose globals are ``namespace``: each name of
    ``exports`` from its module (a full module name), kept in the package once loaded; any
    other name is an ``AttributeError``."""
    package = namespace["__name__"]

    def __getattr__(name: str) -> object:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        # ``__import__``, not ``importlib``: importing importlib (and warnings) costs the hook
        value = getattr(__import__(module, fromlist=[name]), name)
        namespace[name] = value
        return value

    return __getattr__
