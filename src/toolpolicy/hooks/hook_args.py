"""The hook's flags, read without argparse when they are written the plain way.

A hook process starts for every tool call, and importing argparse and building its parser cost
more than reading the handful of flags the installer writes. ``plain_hook_args`` reads only
the exact forms: the agent first, then each flag spelled in full as ``--flag value``,
``--flag=value`` or a bare switch. Anything else — help, an unknown or abbreviated flag, a
missing value, a value that starts with ``-``, a choice out of range, a second positional —
gives None, and argparse (``entry.hook_parser``) parses it and reports any error, so both
readings agree wherever the plain one answers.
"""

from __future__ import annotations

import os

from ..core.lean_typing import TYPE_CHECKING, NamedTuple
from ..core.plain_flags import plain_flags

if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

__all__ = ["HookArgs", "plain_hook_args"]


class HookArgs(NamedTuple):
    """The parsed command line of ``toolpolicy hook AGENT`` (argparse's names)."""

    agent: str
    profile: str
    preset: str | None
    sandbox: str | None
    approval: str | None
    policies: list[str]
    presets: str | None
    workspace: str | None
    explicit_allow: bool
    audit: str | None
    audit_arguments: bool


_VALUES = {
    "--profile": "profile",
    "--preset": "preset",
    "--sandbox": "sandbox",
    "--approval": "approval",
    "--presets": "presets",
    "--workspace": "workspace",
    "--audit": "audit",
}
_SWITCHES = {"--explicit-allow": "explicit_allow", "--audit-arguments": "audit_arguments"}


def _choices(name: str) -> frozenset[str] | None:
    """The values a knob flag takes (``None``: any), read from the vocabulary only when
    such a flag is given."""
    if name not in ("sandbox", "approval"):
        return None
    from ..core.vocabulary import ApprovalPolicy, SandboxMode

    values = SandboxMode if name == "sandbox" else ApprovalPolicy
    return frozenset(m.value for m in values)


def plain_hook_args(argv: Sequence[str], agents: Collection[str]) -> HookArgs | None:
    """``argv`` read when it is written the plain way, else None (argparse reads it)."""
    if not argv or argv[0] not in agents:
        return None
    read = plain_flags(argv[1:], (*_VALUES, "--policy"), _SWITCHES)
    if read is None or read.positionals:
        return None
    texts: dict[str, str] = {}
    policies: list[str] = []
    for flag, value in read.values:
        if flag == "--policy":
            policies.append(value)
            continue
        name = _VALUES[flag]
        choices = _choices(name)
        if choices is not None and value not in choices:
            return None
        texts[name] = value
    switches = {_SWITCHES[flag] for flag in read.switches}
    return HookArgs(
        agent=argv[0],
        profile=texts.get("profile", os.environ.get("TOOLPOLICY_PROFILE", "P03")),
        preset=texts.get("preset", os.environ.get("TOOLPOLICY_PRESET")),
        sandbox=texts.get("sandbox"),
        approval=texts.get("approval"),
        policies=policies,
        presets=texts.get("presets"),
        workspace=texts.get("workspace"),
        explicit_allow="explicit_allow" in switches,
        audit=texts.get("audit"),
        audit_arguments="audit_arguments" in switches,
    )
