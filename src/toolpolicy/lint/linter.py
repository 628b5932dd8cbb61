"""The linter: find the policy files, run every check on each, stamp code and severity.

Folders are walked recursively (symlinked folders are not followed; VCS and virtualenv
folders are skipped) for ``*.yaml`` / ``*.yml`` files that declare
``apiVersion: toolpolicy/...``; other YAML is skipped. A file named explicitly is always
linted. Examples run in one temporary workspace per run. A finding is dropped when its line
or the line before carries ``# toolpolicy: ignore[CODE]`` — except the loader's, which the
loader would refuse at run time anyway.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..core.errors import PolicyLoadError
from ..language.document import read_bounded
from ..language.resources import data_dir
from .context import LintFile, prepare
from .finding import Finding, Hit, Severity
from .registry import CHECKS, INTERNAL_ERROR, LOADER_CODES, Check
from .suppression import suppressed_codes

__all__ = [
    "SKIPPED_FOLDERS",
    "LintResult",
    "builtin_paths",
    "discover",
    "lint_bytes",
    "lint_paths",
]

SKIPPED_FOLDERS = frozenset(
    {".git", ".hg", ".svn", ".tox", ".nox", ".venv", "venv", "node_modules", "__pycache__"}
)
"""Folder names a walk never enters."""

_SUFFIXES = (".yaml", ".yml")
_SNIFF_BYTES = 64 * 1024
_OURS = re.compile(
    rb"(?:^|[{,])[ \t]*[\"']?apiVersion[\"']?[ \t]*:[ \t]*[\"']?toolpolicy/", re.MULTILINE
)


@dataclass(frozen=True, slots=True)
class LintResult:
    """The findings of one run (sorted), and which files were linted or skipped."""

    findings: tuple[Finding, ...]
    files: tuple[str, ...]
    skipped: tuple[str, ...]

    def count(self, severity: Severity) -> int:
        """How many findings have ``severity``."""
        return sum(1 for f in self.findings if f.severity is severity)


def builtin_paths() -> list[str]:
    """The shipped profiles and the preset table."""
    profiles = sorted(str(p) for p in data_dir("profiles").glob("*.yaml"))
    return [*profiles, str(data_dir("policy") / "presets.yaml")]


def discover(paths: Iterable[str]) -> tuple[list[str], list[str]]:
    """The files to lint and the YAML files skipped as not toolpolicy documents.

    Every path must exist (the caller checks). Files named explicitly are always linted.
    """
    files: list[str] = []
    skipped: list[str] = []
    for path in paths:
        if not os.path.isdir(path):
            files.append(path)
            continue
        for folder, subfolders, names in os.walk(path):
            subfolders[:] = sorted(d for d in subfolders if d not in SKIPPED_FOLDERS)
            for name in sorted(names):
                if not name.endswith(_SUFFIXES):
                    continue
                candidate = os.path.normpath(os.path.join(folder, name))
                (files if _is_ours(candidate) else skipped).append(candidate)
    return _unique(files), _unique(skipped)


def lint_paths(
    paths: Sequence[str],
    *,
    on_skip: Callable[[str], None] | None = None,
) -> LintResult:
    """Lint ``paths`` (files, or folders walked for policy files) in one run."""
    files, skipped = discover(paths)
    for path in skipped:
        if on_skip is not None:
            on_skip(path)
    findings: set[Finding] = set()
    with tempfile.TemporaryDirectory(prefix="toolpolicy-lint-") as workspace:
        for path in files:
            findings.update(_lint_file(path, workspace))
    return LintResult(tuple(sorted(findings)), tuple(files), tuple(skipped))


def lint_bytes(data: bytes, path: str, workspace: str) -> list[Finding]:
    """The sorted findings for ``data``, labelled ``path``, with examples run in
    ``workspace`` (an existing folder). ``path`` is also used to resolve ``extends``."""
    try:
        target = prepare(data, path, workspace)
    except Exception as exc:  # same contract as a file on disk
        return [_internal(path, "loader", exc)]
    return sorted(set(_run(target)))


def _lint_file(path: str, workspace: str) -> list[Finding]:
    try:
        data = read_bounded(path)
    except PolicyLoadError as exc:
        return [
            Finding(p.path, p.line, p.column, p.code, Severity.ERROR, p.message)
            for p in exc.problems
        ]
    try:
        target = prepare(data, path, workspace)
    except Exception as exc:  # a loader bug must fail the run, never pass it or crash it
        return [_internal(path, "loader", exc)]
    return list(_run(target))


def _internal(path: str, what: str, exc: Exception) -> Finding:
    return Finding(
        path,
        1,
        1,
        INTERNAL_ERROR,
        Severity.ERROR,
        f"the {what} check failed ({type(exc).__name__}: {exc}); the file was not fully checked",
    )


def _run(target: LintFile) -> Iterator[Finding]:
    for check in CHECKS:
        try:
            hits = list(check.check(target))
        except Exception as exc:  # a broken check must fail the run, never pass it
            yield _internal(target.path, check.CODE, exc)
            continue
        for hit in hits:
            finding = _stamp(check, hit, target.path)
            if not _suppressed(finding, target):
                yield finding


def _suppressed(finding: Finding, target: LintFile) -> bool:
    if finding.code in LOADER_CODES or finding.path != target.path:
        return False
    return finding.code in suppressed_codes(target.lines, finding.line)


def _stamp(check: Check, hit: Hit, path: str) -> Finding:
    return Finding(
        path=hit.path or path,
        line=max(hit.line, 1),
        column=max(hit.column, 1),
        code=hit.code or check.CODE,
        severity=check.SEVERITY,
        message=hit.message,
        end_line=hit.end_line,
        end_column=hit.end_column,
    )


def _is_ours(path: str) -> bool:
    try:
        # O_NONBLOCK: a FIFO named *.yaml must not hang the walk
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return True  # unreadable: lint it, so the read error is reported, not hidden
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return True
        head = handle.read(_SNIFF_BYTES)
    return _OURS.search(head) is not None


def _unique(paths: list[str]) -> list[str]:
    seen: set[str] = set()
    kept: list[str] = []
    for path in paths:
        key = os.path.normpath(path)
        if key not in seen:
            seen.add(key)
            kept.append(path)
    return kept
