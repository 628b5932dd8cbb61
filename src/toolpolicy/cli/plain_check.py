"""``toolpolicy check`` without click, for the plain spellings scripts and agents type.

``check TOOL [ARGS_JSON]`` with the selection flags and ``--format``, each spelled in full as
``--flag value`` or ``--flag=value`` and given at most once (``--policy`` may repeat), is
answered here, from the compiled-policy cache, without importing click. Anything else returns
``None`` and goes to the click command, which parses, reports and exits as documented: help,
an abbreviated or unknown flag, ``--``, a value or tool that starts with ``-`` (``-`` reads
the arguments from stdin), a ``TOOLPOLICY_PROFILE``/``TOOLPOLICY_PRESET`` in the environment,
and every error (an invalid policy, a folder given as a file, an unknown preset, ...).
Both print through ``check_output``; a property test compares the two.
"""

from __future__ import annotations

import os
import sys

from ..core.lean_typing import NamedTuple
from ..core.plain_flags import plain_flags
from ..core.vocabulary import ApprovalPolicy, SandboxMode

__all__ = ["CheckArgs", "plain_check_args", "run_plain_check"]

_SANDBOX = tuple(m.value for m in SandboxMode)
_APPROVAL = tuple(p.value for p in ApprovalPolicy)
_SINGLE = ("--profile", "--preset", "--sandbox", "--approval", "--presets", "--workspace")
_ENVIRONMENT = ("TOOLPOLICY_PROFILE", "TOOLPOLICY_PRESET")


class CheckArgs(NamedTuple):
    """A ``check`` command line, read without click."""

    tool: str
    arguments: str
    profile: str = "P03"
    preset: str | None = None
    sandbox: str | None = None
    approval: str | None = None
    policies: tuple[str, ...] = ()
    presets: str | None = None
    workspace: str = "."
    fmt: str = "text"


def plain_check_args(argv: list[str]) -> CheckArgs | None:
    """``argv`` (after ``check``) when it is a plain spelling, else ``None``."""
    if any(name in os.environ for name in _ENVIRONMENT):
        return None
    read = plain_flags(argv, (*_SINGLE, "--policy", "--format"))
    if read is None:
        return None
    positionals = read.positionals
    single: dict[str, str] = {}
    policies: list[str] = []
    for flag, value in read.values:
        if not value or flag in single:
            return None
        if flag == "--policy":
            policies.append(value)
        else:
            single[flag] = value
    if not 1 <= len(positionals) <= 2:
        return None
    found = CheckArgs(
        tool=positionals[0],
        arguments=positionals[1] if len(positionals) == 2 else "{}",
        profile=single.get("--profile", "P03"),
        preset=single.get("--preset"),
        sandbox=single.get("--sandbox"),
        approval=single.get("--approval"),
        policies=tuple(policies),
        presets=single.get("--presets"),
        workspace=single.get("--workspace", "."),
        fmt=single.get("--format", "text"),
    )
    if found.sandbox not in (None, *_SANDBOX) or found.approval not in (None, *_APPROVAL):
        return None
    if found.fmt not in ("text", "json"):
        return None
    return found


def run_plain_check(argv: list[str]) -> int | None:
    """Print the decision and return the exit code, or ``None`` to leave it to click."""
    args = plain_check_args(argv)
    if args is None:
        return None
    from ..core.errors import CallRejected
    from ..engine.cache import load_compiled
    from ..engine.selection import assemble
    from .check_output import check_lines, rejected_lines

    try:
        policy = assemble(
            load_compiled(args.profile, args.policies, args.presets),
            preset=args.preset,
            sandbox=args.sandbox,
            approval=args.approval,
            workspace=args.workspace,
        )
        try:
            evaluation = policy.evaluate(args.tool, args.arguments)
        except CallRejected as exc:
            lines, code = rejected_lines(exc, args.tool, args.fmt), 1  # the call fails
        else:
            lines, code = check_lines(args.tool, args.arguments, evaluation, args.fmt), 0
    except Exception:
        return None  # the click command reports it, exactly as documented
    sys.stdout.write("".join(f"{line}\n" for line in lines))
    sys.stdout.flush()
    return code
