"""The ``ToolPolicy`` a checked document selects, built without reading the file again.

``toolpolicy.load`` reads and checks a policy file itself; the linter has already checked
the bytes, so for the common case (a Policy with no ``extends`` or one naming a built-in
profile) it compiles the checked document on the cached built-in profile directly — the
same steps ``load`` takes, half the cost. A Policy that extends another file goes through
``load`` so the ``extends`` chain is followed exactly as at run time.
"""

from __future__ import annotations

import functools

from ..compile.policy import compile_policy
from ..engine.builtin import (
    BUILTIN_PROFILE_NAMES,
    builtin_preset_table,
    builtin_profile,
    builtin_profile_source,
)
from ..engine.evaluate import DecisionEngine
from ..engine.knobs import Knobs
from ..engine.selection import ToolPolicy, load
from ..engine.session import SessionEvent
from ..engine.sources import to_source
from ..language import LoadedDocument, PolicyDoc, ProfileDoc, builtin_profiles
from ..tools.definitions import builtin_definitions
from ..tools.registry import ToolSnapshot
from ..tools.workspace import WorkspaceBoundary

__all__ = ["is_builtin_profile", "policy_of", "with_preset"]


def is_builtin_profile(document: LoadedDocument) -> bool:
    """True when ``document`` is byte for byte one of the shipped profiles."""
    if not isinstance(document.model, ProfileDoc):
        return False
    shipped = builtin_profiles().get(document.model.name)
    return shipped is not None and shipped.sha256 == document.sha256


def policy_of(document: LoadedDocument, workspace: str) -> ToolPolicy | None:
    """The selection ``--profile <document>`` would load, or None for a preset table.

    Raises ``PolicyLoadError`` (patterns that do not compile, a broken ``extends`` chain)
    or ``ConfigurationError`` like ``load`` does. A Profile is only accepted when it is a
    shipped one: the caller reports any other Profile.
    """
    model = document.model
    if isinstance(model, ProfileDoc):
        return load(profile=model.name, workspace=workspace)
    if not isinstance(model, PolicyDoc):
        return None
    target = model.extends or "P03"
    # exactly as load_policy_chain reads extends: built-in names are case-sensitive there
    if target not in BUILTIN_PROFILE_NAMES:
        return load(profile=document.path, workspace=workspace)
    base = builtin_profile(target)
    compiled = compile_policy(base, [builtin_profile_source(base.name), to_source(document)])
    boundary = WorkspaceBoundary(workspace)
    return ToolPolicy(
        compiled=compiled,
        presets=builtin_preset_table(),
        knob_events=_default_knob_events(),
        workspace=boundary.root,
        engine=DecisionEngine(compiled, boundary, enforces=True),
        tools=_tools(base.name),
    )


@functools.cache
def _default_knob_events() -> tuple[SessionEvent, ...]:
    return Knobs(builtin_preset_table()).log.events


@functools.cache
def _tools(profile: str) -> ToolSnapshot:
    names = builtin_profile(profile).tools
    return ToolSnapshot(d for d in builtin_definitions() if d.name in names)


def with_preset(policy: ToolPolicy, preset: str) -> ToolPolicy:
    """``policy`` with its knobs set by ``preset``; raises ``ConfigurationError`` if unknown."""
    knobs = Knobs(policy.presets)
    knobs.apply_preset(preset)
    return policy._replace(knob_events=knobs.log.events)
