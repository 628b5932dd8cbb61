"""``outside-workspace``: a rule about paths outside the workspace that cannot do what it says.

Rule paths may name files outside the workspace: ``//`` starts an absolute path
(``//etc/shadow``) and ``~/`` the home folder (``~/.ssh/**``). A read rule there is fine — it
closes (or opens) those files wherever they are read from. Two things are reported:

* an **allow that can apply to writes** and names an outside path: the workspace boundary
  denies every write outside the workspace whatever a rule says, so the allow never opens
  one (limit the rule to reads);
* a rule whose every pattern *reads* as an outside path but is not written as one: a single
  leading ``/`` before a system folder (``/etc/hosts`` is the workspace's own ``etc/hosts``),
  ``..``, a drive (``C:``) or ``~user``.

FAIL::

    rules:
      - name: system-config
        behavior: allow
        reason: Let the agent fix the hosts file
        match: {tools: [write_file], paths: ["//etc/hosts"]}

PASS::

    rules:
      - name: no-keys
        behavior: deny
        reason: SSH keys stay private
        match: {effects: [read], paths: ["~/.ssh/**"]}
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...language import PolicyDoc, ProfileDoc, RuleDoc
from ..context import LintFile
from ..finding import Hit, Severity

__all__ = ["CODE", "SEVERITY", "check", "looks_outside", "names_outside"]

CODE = "outside-workspace"
SEVERITY = Severity.WARNING

SYSTEM_ROOTS = frozenset(
    {
        "Library", "System", "Users", "Volumes", "Windows", "boot", "dev", "etc", "home",
        "media", "mnt", "opt", "private", "proc", "root", "run", "srv", "sys", "tmp", "usr",
        "var",
    }
)  # fmt: skip
"""First segments that make a single-slash pattern read as an absolute system path."""

_DRIVE = re.compile(r"^[A-Za-z]:")
_WRITE_TOOLS = frozenset({"write_file", "edit_file"})


def names_outside(pattern: str) -> bool:
    """True when ``pattern`` is written as an absolute (``//``) or home (``~/``) path."""
    return pattern.startswith(("//", "~/"))


def looks_outside(pattern: str) -> bool:
    """True when ``pattern`` reads as a path outside the workspace but is not written as one."""
    if names_outside(pattern):
        return False
    if pattern.startswith("~") or _DRIVE.match(pattern) or pattern.startswith("\\\\"):
        return True
    segments = pattern.replace("\\", "/").split("/")
    if ".." in segments:
        return True
    return pattern.startswith("/") and len(segments) > 2 and segments[1] in SYSTEM_ROOTS


def check(target: LintFile) -> Iterator[Hit]:
    """One warning per own rule of either kind above."""
    document = target.document
    if document is None or not isinstance(document.model, PolicyDoc | ProfileDoc):
        return
    for i, rule in enumerate(document.model.rules):
        paths = rule.match.paths
        if not paths:
            continue
        outside = [p for p in paths if names_outside(p)]
        if outside and rule.behavior == "allow" and _may_write(rule):
            line, column = document.position(f"/rules/{i}/match/paths")
            yield Hit(
                line,
                column,
                f"rule {rule.name!r} allows writes to paths outside the workspace "
                f"({_shown(outside)}); the workspace boundary denies every write outside the "
                "workspace whatever a rule says: limit the rule to reads (effects: [read])",
            )
        elif all(looks_outside(p) for p in paths):
            line, column = document.position(f"/rules/{i}/match/paths")
            yield Hit(
                line,
                column,
                f"rule {rule.name!r} only names paths outside the workspace ({_shown(paths)}) "
                "in a form rule paths do not read that way: a leading '/' anchors at the "
                "workspace root; write '//' for an absolute path ('//etc/hosts') and '~/' for "
                "the home folder",
            )


def _may_write(rule: RuleDoc) -> bool:
    effects = rule.match.effects
    if effects is not None:
        return "write" in effects
    tools = rule.match.tools
    return tools is None or any("*" in t or t in _WRITE_TOOLS for t in tools)


def _shown(paths: tuple[str, ...] | list[str]) -> str:
    return ", ".join(repr(p) for p in paths[:3]) + (", ..." if len(paths) > 3 else "")
