"""The documents shipped with toolpolicy: the built-in profiles and the default preset table.

They are loaded through the same checks as any user file, once per process.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

from ..core.errors import ConfigurationError
from .document import LoadedDocument, load_document
from .models import PresetTableDoc, ProfileDoc
from .resources import data_dir

__all__ = ["builtin_presets", "builtin_profiles"]


@functools.cache
def builtin_profiles() -> Mapping[str, LoadedDocument]:
    """The built-in profiles by name (``P01``, ``P02``, ``P03``), as a read-only mapping."""
    found: dict[str, LoadedDocument] = {}
    for file in sorted(data_dir("profiles").glob("*.yaml")):
        document = load_document(file)
        if not isinstance(document.model, ProfileDoc):
            raise ConfigurationError(f"{file}: a built-in profile file holds a {document.kind}")
        found[document.model.name] = document
    return MappingProxyType(found)


@functools.cache
def builtin_presets() -> LoadedDocument:
    """The default preset table, ``policy/presets.yaml``."""
    document = load_document(data_dir("policy") / "presets.yaml")
    if not isinstance(document.model, PresetTableDoc):
        raise ConfigurationError(f"{document.path}: the preset table file holds a {document.kind}")
    return document
