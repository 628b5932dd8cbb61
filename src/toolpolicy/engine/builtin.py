"""The built-in profiles as singletons, and the built-in preset table.

Code that needs a built-in profile rejects a look-alike (same name or chapter, another
object): ``require_builtin`` is the identity check the composition root performs. A
singleton is compiled once per process, either from the shipped YAML (through the loaders)
or, on the hook's fast path, from a cached copy whose sha256 matches the shipped file.
"""

from __future__ import annotations

import os
from _thread import allocate_lock  # threading.Lock itself, without importing threading

from ..compile.policy import CompiledProfile, compile_profile
from ..compile.source import SourceDocument
from ..core.errors import ConfigurationError
from .presets import PresetTable

__all__ = [
    "BUILTIN_LAYER_NAMES",
    "BUILTIN_PROFILE_NAMES",
    "adopt_builtin_source",
    "builtin_preset_source",
    "builtin_preset_table",
    "builtin_profile",
    "builtin_profile_source",
    "layer_path",
    "require_builtin",
]

BUILTIN_PROFILE_NAMES = ("P01", "P02", "P03")
BUILTIN_LAYER_NAMES = ("read-only-commands",)
"""Policy layers shipped with toolpolicy, added by name (``--policy read-only-commands``)."""

_lock = allocate_lock()
_profiles: dict[str, tuple[CompiledProfile, SourceDocument]] = {}
_presets: list[tuple[PresetTable, SourceDocument]] = []


def _known(name: str) -> str:
    upper = name.upper()
    if upper not in BUILTIN_PROFILE_NAMES:
        known = ", ".join(BUILTIN_PROFILE_NAMES)
        raise ConfigurationError(f"unknown profile: {name} (built-in: {known})")
    return upper


def adopt_builtin_source(source: SourceDocument) -> CompiledProfile:
    """The singleton for a built-in profile's document (compiled from it if not yet made).

    The caller vouches that ``source`` is the shipped file's content (the cache checks the
    file's sha256 before handing it over).
    """
    name = _known(str(source.data.get("name", "")))
    with _lock:
        found = _profiles.get(name)
        if found is None:
            found = (compile_profile(source), source)
            _profiles[name] = found
    return found[0]


def layer_path(policy: str | os.PathLike[str]) -> str | os.PathLike[str]:
    """The shipped file of a built-in layer named ``policy``; any other value as given (a
    file of that name, if one exists, wins over the built-in)."""
    if str(policy) not in BUILTIN_LAYER_NAMES or os.path.exists(policy):
        return policy
    from ..language.resources import data_dir

    return data_dir("policy") / "layers" / f"{policy}.yaml"


def builtin_profile(name: str) -> CompiledProfile:
    """The singleton of built-in profile ``name`` (``P01``, ``P02``, ``P03``)."""
    upper = _known(name)
    found = _profiles.get(upper)
    if found is not None:
        return found[0]
    from ..language import builtin_profiles
    from .sources import to_source

    return adopt_builtin_source(to_source(builtin_profiles()[upper]))


def builtin_profile_source(name: str) -> SourceDocument:
    """The document a built-in profile was compiled from (its rules and examples)."""
    builtin_profile(name)
    return _profiles[_known(name)][1]


def require_builtin(profile: CompiledProfile) -> CompiledProfile:
    """``profile`` itself if it is a built-in singleton; a look-alike is refused."""
    found = _profiles.get(profile.name.upper())
    if found is None or found[0] is not profile:
        raise ConfigurationError(
            f"profile {profile.name} (chapter {profile.chapter}) is not the built-in profile "
            "object; select built-in profiles by name"
        )
    return profile


def builtin_preset_source() -> SourceDocument:
    """The document of the frozen default preset table (``policy/presets.yaml``)."""
    if not _presets:
        from ..language import builtin_presets
        from .sources import to_source

        source = to_source(builtin_presets())
        with _lock:
            if not _presets:
                _presets.append((PresetTable.from_data(source.data, source.path), source))
    return _presets[0][1]


def builtin_preset_table() -> PresetTable:
    """The frozen default preset table."""
    builtin_preset_source()
    return _presets[0][0]
