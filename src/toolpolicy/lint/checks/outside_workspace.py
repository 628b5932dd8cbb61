"""``outside-workspace``: a rule whose ``paths`` can only name places outside the workspace.

Rule paths are workspace-relative globs, and a write outside the workspace is denied by the
hard-coded workspace boundary whatever any rule says. A rule whose every pattern climbs out
(``..``), starts at the home folder (``~``) or a drive (``C:``), or spells an absolute
system path (``/etc/...``, ``/home/...``, ``/Users/...``) can never allow such a write: the
workspace boundary cannot be relaxed. (Write ``etc/**`` for the workspace's own ``etc``
folder: a pattern with a slash inside is anchored at the workspace root already.)

FAIL::

    rules:
      - name: system-config
        behavior: allow
        reason: Let the agent fix the hosts file
        match: {tools: [write_file], paths: ["/etc/hosts"]}

PASS::

    rules:
      - name: local-config
        behavior: allow
        reason: The project's own config folder
        match: {tools: [read_file], paths: ["etc/**"]}
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...language import PolicyDoc, ProfileDoc
from ..context import LintFile
from ..finding import Hit, Severity

__all__ = ["CODE", "SEVERITY", "check", "points_outside"]

CODE = "outside-workspace"
SEVERITY = Severity.WARNING

SYSTEM_ROOTS = frozenset(
    {
        "Library", "System", "Users", "Volumes", "Windows", "boot", "dev", "etc", "home",
        "media", "mnt", "opt", "private", "proc", "root", "run", "srv", "sys", "tmp", "usr",
        "var",
    }
)  # fmt: skip
"""First segments that make a leading-slash pattern read as an absolute system path."""

_DRIVE = re.compile(r"^[A-Za-z]:")


def points_outside(pattern: str) -> bool:
    """True when ``pattern`` reads as a path outside the workspace."""
    if pattern.startswith("~") or _DRIVE.match(pattern) or pattern.startswith("\\\\"):
        return True
    segments = pattern.replace("\\", "/").split("/")
    if ".." in segments:
        return True
    return pattern.startswith("/") and len(segments) > 2 and segments[1] in SYSTEM_ROOTS


def check(target: LintFile) -> Iterator[Hit]:
    """One warning per own rule whose every ``paths`` entry points outside the workspace."""
    document = target.document
    if document is None or not isinstance(document.model, PolicyDoc | ProfileDoc):
        return
    for i, rule in enumerate(document.model.rules):
        paths = rule.match.paths
        if not paths or not all(points_outside(p) for p in paths):
            continue
        line, column = document.position(f"/rules/{i}/match/paths")
        shown = ", ".join(repr(p) for p in paths[:3]) + (", ..." if len(paths) > 3 else "")
        yield Hit(
            line,
            column,
            f"rule {rule.name!r} only names paths outside the workspace ({shown}); rule paths "
            "are relative to the workspace root, and the workspace boundary cannot be "
            "relaxed: writes outside the workspace are always denied",
        )
