"""The built-in profiles as singletons, and the built-in preset table.

Code that needs a built-in profile rejects a look-alike (same name or chapter, another
object): ``require_builtin`` is the identity check the composition root performs.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

from ..compile.policy import CompiledProfile, compile_profile
from ..compile.source import SourceDocument
from ..core.errors import ConfigurationError
from .presets import PresetTable
from .sources import to_source

__all__ = [
    "BUILTIN_PROFILE_NAMES",
    "builtin_preset_table",
    "builtin_profile",
    "builtin_profile_source",
    "require_builtin",
]

BUILTIN_PROFILE_NAMES = ("P01", "P02", "P03")


@functools.cache
def _profiles() -> Mapping[str, tuple[CompiledProfile, SourceDocument]]:
    from ..language import builtin_profiles

    table: dict[str, tuple[CompiledProfile, SourceDocument]] = {}
    for name, loaded in builtin_profiles().items():
        source = to_source(loaded)
        table[name] = (compile_profile(source), source)
    return MappingProxyType(table)


def builtin_profile(name: str) -> CompiledProfile:
    """The singleton of built-in profile ``name`` (``P01``, ``P02``, ``P03``)."""
    found = _profiles().get(name.upper())
    if found is None:
        known = ", ".join(BUILTIN_PROFILE_NAMES)
        raise ConfigurationError(f"unknown profile: {name} (built-in: {known})")
    return found[0]


def builtin_profile_source(name: str) -> SourceDocument:
    """The document a built-in profile was compiled from (its rules and examples)."""
    builtin_profile(name)
    return _profiles()[name.upper()][1]


def require_builtin(profile: CompiledProfile) -> CompiledProfile:
    """``profile`` itself if it is a built-in singleton; a look-alike is refused."""
    for candidate, _ in _profiles().values():
        if candidate is profile:
            return profile
    raise ConfigurationError(
        f"profile {profile.name} (chapter {profile.chapter}) is not a built-in profile object; "
        "select built-in profiles by name"
    )


@functools.cache
def builtin_preset_table() -> PresetTable:
    """The frozen default preset table (``policy/presets.yaml``)."""
    from ..language import builtin_presets

    loaded = builtin_presets()
    return PresetTable.from_data(to_source(loaded).data, loaded.path)
