"""``CapabilitySet``: the frozen capabilities of a profile."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

__all__ = ["CAPABILITIES", "CapabilitySet"]

CAPABILITIES = ("loop", "powershell", "tool_registry", "files", "policy")


class CapabilitySet:
    """An immutable set of capability names.

    Only membership, iteration and size are exposed; the backing ``frozenset`` cannot be
    mutated, and there is no inner ``set`` to reach for.
    """

    __slots__ = ("_values",)
    _values: frozenset[str]

    def __init__(self, values: Iterable[str]) -> None:
        items = tuple(values)
        unknown = sorted(set(items) - set(CAPABILITIES))
        if unknown:
            raise ValueError(f"unknown capability: {', '.join(unknown)}")
        object.__setattr__(self, "_values", frozenset(items))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CapabilitySet is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("CapabilitySet is immutable")

    def has(self, capability: str) -> bool:
        """True when the profile has ``capability``."""
        return capability in self._values

    def __contains__(self, capability: object) -> bool:
        return capability in self._values

    def __iter__(self) -> Iterator[str]:
        return iter(c for c in CAPABILITIES if c in self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CapabilitySet) and other._values == self._values

    def __hash__(self) -> int:
        return hash(self._values)

    def __reduce__(self) -> tuple[type[CapabilitySet], tuple[tuple[str, ...]]]:
        return (CapabilitySet, (tuple(self),))

    def __repr__(self) -> str:
        return f"CapabilitySet({list(self)!r})"
