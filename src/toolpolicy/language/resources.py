"""Where the shipped data lives: the JSON Schema, the preset table and the built-in profiles.

An installed wheel carries them at ``toolpolicy/_data/{policy,profiles}`` (hatch
``force-include``); an editable install reads them from the repository root.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from ..core.errors import ConfigurationError

__all__ = ["data_dir"]

_PACKAGE_ROOT = Path(__file__).resolve().parent.parent


def data_dir(name: Literal["policy", "profiles"]) -> Path:
    """The folder of shipped data called ``name``: the package copy first, then the source tree."""
    for candidate in (_PACKAGE_ROOT / "_data" / name, _PACKAGE_ROOT.parent.parent / name):
        if candidate.is_dir():
            return candidate
    raise ConfigurationError(
        f"toolpolicy's shipped data folder {name!r} is missing; reinstall the package"
    )
