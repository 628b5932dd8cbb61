"""A side of a diff: the text a user wrote, resolved to a profile and a preset.

Accepted, tried in this order: a built-in profile name (``P01``..``P03``, with the preset
table's default preset), a preset name (with the ``--profile`` profile, default ``P03``), a
policy file path (its ``extends`` chain names the profile; the default preset), and
``PROFILE@PRESET`` where ``PROFILE`` is a built-in profile name or a policy file path.
Anything else is an :class:`UnknownSide`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..core.errors import ConfigurationError
from ..engine.builtin import BUILTIN_PROFILE_NAMES, builtin_preset_table
from ..engine.cache import load_compiled, load_sources
from ..engine.presets import PresetTable
from ..engine.selection import CompiledSources, ToolPolicy, assemble

__all__ = ["Side", "UnknownSide", "load_sides", "parse_side"]

MAX_SIDE_LENGTH = 4096


class UnknownSide(ConfigurationError):
    """A side that names no preset, profile, ``PROFILE@PRESET`` or policy file."""


@dataclass(frozen=True, slots=True)
class Side:
    """What one side of a diff selects: ``spec`` as written, ``profile`` (a built-in name or a
    policy file path) and ``preset`` (a row of the preset table)."""

    spec: str
    profile: str
    preset: str

    @property
    def label(self) -> str:
        """``PROFILE@PRESET``, as shown in every output format."""
        return f"{self.profile}@{self.preset}"

    def load(self, workspace: str, compiled: CompiledSources | None = None) -> ToolPolicy:
        """Assemble this side on ``workspace``; ``PolicyLoadError`` or ``ConfigurationError``.

        ``compiled`` is this side's compiled policy (``load_compiled``: a warm diff neither
        validates nor compiles, as the hook does not), so two sides naming the same policy
        file read it once. The diff keeps ``workspace`` still while it decides, so the
        engine decides the rules' say on each command once (a line is decided plain and
        with each escalation) and each file a shell line names once (thousands of witness
        lines name the same few files).
        """
        found = compiled if compiled is not None else load_compiled(self.profile)
        policy = assemble(found, preset=self.preset, workspace=workspace, resolve_links=True)
        policy.engine.remember_arguments()
        return policy


def load_sides(left: Side, right: Side, workspace: str) -> tuple[ToolPolicy, ToolPolicy]:
    """Both sides assembled on the same ``workspace``; a shared profile is loaded once."""
    left_compiled = load_compiled(left.profile)
    right_compiled = left_compiled if right.profile == left.profile else None
    return left.load(workspace, left_compiled), right.load(workspace, right_compiled)


def parse_side(
    text: str, *, default_profile: str = "P03", presets: PresetTable | None = None
) -> Side:
    """Resolve ``text`` (see the module docstring); ``default_profile`` serves preset-only
    sides and must itself be a built-in profile or a policy file (``ConfigurationError``,
    even when no side uses it: a mistyped flag is never ignored). Raises
    :class:`UnknownSide` naming ``text``."""
    table = presets if presets is not None else _builtin_presets()
    base = _profile(default_profile)
    if base is None:
        known = ", ".join(BUILTIN_PROFILE_NAMES)
        raise ConfigurationError(
            f"unknown profile: {default_profile} (built-in: {known}, or a policy file)"
        )
    if not text or len(text) > MAX_SIDE_LENGTH:
        raise UnknownSide(_unknown(text[:200], "empty or too long", presets))
    if text.upper() in BUILTIN_PROFILE_NAMES:
        return Side(text, text.upper(), table.default)
    if text in table.names:
        return Side(text, base, text)
    if os.path.isfile(text):
        return Side(text, text, table.default)
    if "@" in text:
        head, preset = text.rsplit("@", 1)
        profile = _profile(head)
        if profile is None:
            raise UnknownSide(_unknown(text, f"no profile or policy file {head!r}", presets))
        if preset not in table.names:
            raise UnknownSide(_unknown(text, f"no preset {preset!r}", presets))
        return Side(text, profile, preset)
    raise UnknownSide(_unknown(text, None, presets))


def _builtin_presets() -> PresetTable:
    """The built-in preset table, through the compiled-policy cache (a warm start imports
    no YAML, schema or pydantic)."""
    source = load_sources().presets
    return PresetTable.from_data(source.data, source.path)


def _profile(text: str) -> str | None:
    """A built-in profile's canonical name, an existing file's path, else ``None``."""
    if text.upper() in BUILTIN_PROFILE_NAMES:
        return text.upper()
    if os.path.isfile(text):
        return text
    return None


def _unknown(text: str, detail: str | None, presets: PresetTable | None) -> str:
    """The message naming ``text``; the presets in table order (the cached table keeps
    their names, not their order)."""
    table = presets if presets is not None else builtin_preset_table()
    why = f": {detail}" if detail else ""
    return (
        f"unknown side {text!r}{why} (expected a preset: {', '.join(table.names)}; "
        f"a profile: {', '.join(BUILTIN_PROFILE_NAMES)}; PROFILE@PRESET; or a policy file)"
    )
