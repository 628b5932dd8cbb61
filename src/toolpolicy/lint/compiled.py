"""The ``ToolPolicy`` a checked document selects, built without reading the file again.

``toolpolicy.load`` reads and checks a policy file itself; the linter has already checked
the bytes, so for the common case (a Policy with no ``extends`` or one naming a built-in
profile) it assembles the checked document on the built-in profile directly — what ``load``
does after reading, half the cost. A Policy that extends another file goes through
``load`` so the ``extends`` chain is followed exactly as at run time.
"""

from __future__ import annotations

import os

from ..engine.builtin import BUILTIN_PROFILE_NAMES, builtin_preset_source, builtin_profile_source
from ..engine.selection import PolicySources, ToolPolicy, assemble, gather_sources, load
from ..engine.sources import to_source
from ..language import LoadedDocument, PolicyDoc, ProfileDoc, builtin_profiles

__all__ = ["is_builtin_profile", "policy_of"]


def is_builtin_profile(document: LoadedDocument) -> bool:
    """True when ``document`` is byte for byte one of the shipped profiles."""
    if not isinstance(document.model, ProfileDoc):
        return False
    shipped = builtin_profiles().get(document.model.name)
    return shipped is not None and shipped.sha256 == document.sha256


def policy_of(
    document: LoadedDocument, workspace: str, *, salvaged: bool = False
) -> ToolPolicy | None:
    """The selection ``--profile <document>`` would load, or None for a preset table.

    Raises ``PolicyLoadError`` (patterns that do not compile, a broken ``extends`` chain)
    or ``ConfigurationError`` like ``load`` does. A Profile is only accepted when it is a
    shipped one: the caller reports any other Profile. A ``salvaged`` document (the rules
    that validated in a refused file) is layered on its parents as read from their files,
    since the file itself would be refused again.
    """
    model = document.model
    if isinstance(model, ProfileDoc):
        return load(profile=model.name, workspace=workspace)
    if not isinstance(model, PolicyDoc):
        return None
    target = model.extends or "P03"
    # exactly as load_policy_chain reads extends: built-in names are case-sensitive there
    if target in BUILTIN_PROFILE_NAMES:
        sources = PolicySources(
            profile=builtin_profile_source(target),
            layers=(to_source(document),),
            presets=builtin_preset_source(),
        )
    elif not salvaged:
        return load(profile=document.path, workspace=workspace)
    else:
        parent = os.path.join(os.path.dirname(document.path), target)
        below = gather_sources(profile=parent) if os.path.isfile(parent) else None
        if below is None:
            return None
        sources = below._replace(layers=(*below.layers, to_source(document)))
    return assemble(sources, workspace=workspace)
