"""The preset table: names for (sandbox mode, approval policy) combinations.

``custom`` is reserved: a table naming it is refused at load, and ``custom`` is only ever
derived, when the current knobs match no row.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.errors import ConfigurationError
from ..core.lean_typing import TYPE_CHECKING, NamedTuple
from ..core.vocabulary import ApprovalPolicy, SandboxMode

if TYPE_CHECKING:
    from typing import Any

__all__ = ["CUSTOM", "Preset", "PresetTable"]

CUSTOM = "custom"


class Preset(NamedTuple):
    """One row of the table."""

    name: str
    sandbox: SandboxMode
    approval: ApprovalPolicy
    description: str = ""


class _PresetTableFields(NamedTuple):
    presets: tuple[Preset, ...]
    default: str
    path: str


class PresetTable(_PresetTableFields):
    """Rows in declaration order (the tie-break order) and the default row's name.

    A table naming ``custom``, naming a row twice or defaulting to a missing row is refused.
    """

    __slots__ = ()

    def __new__(cls, presets: tuple[Preset, ...], default: str, path: str = "") -> PresetTable:
        names = [p.name for p in presets]
        if CUSTOM in names:
            raise ConfigurationError("custom is reserved for the derived not-a-preset state")
        if len(set(names)) != len(names):
            raise ConfigurationError("preset names must be unique")
        if default not in names:
            raise ConfigurationError(f"default preset is not in the table: {default}")
        return super().__new__(cls, tuple(presets), default, path)

    @classmethod
    def from_data(cls, data: Mapping[str, Any], path: str = "") -> PresetTable:
        """Build from a validated ``PresetTable`` document's data."""
        rows = tuple(
            Preset(
                name=str(name),
                sandbox=SandboxMode(row["sandbox"]),
                approval=ApprovalPolicy(row["approval"]),
                description=str(row.get("description") or ""),
            )
            for name, row in dict(data["presets"]).items()
        )
        return cls(presets=rows, default=str(data["default"]), path=path)

    @property
    def names(self) -> tuple[str, ...]:
        """Preset names in table order."""
        return tuple(p.name for p in self.presets)

    def get(self, name: str) -> Preset:
        """The row called ``name``; ``custom`` and unknown names are configuration errors."""
        if name == CUSTOM:
            raise ConfigurationError(
                "custom cannot be selected: it is derived when the knobs match no preset"
            )
        for preset in self.presets:
            if preset.name == name:
                return preset
        known = ", ".join(self.names)
        raise ConfigurationError(f"unknown preset: {name} (known: {known})")

    def derive(self, sandbox: SandboxMode, approval: ApprovalPolicy, chosen: str | None) -> str:
        """The name shown for the knobs: the chosen preset if it still matches, else the
        first matching row in table order, else ``custom``."""
        first: str | None = None
        for preset in self.presets:
            if preset.sandbox is sandbox and preset.approval is approval:
                if preset.name == chosen:
                    return preset.name
                if first is None:
                    first = preset.name
        return first if first is not None else CUSTOM
