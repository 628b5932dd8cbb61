"""The linter: run every check on each file found, stamp code and severity.

Which files (``discovery.py``): the files named, the policy files in the folders named, or
with nothing named the project's policy files. Examples run in one temporary workspace per
run. Many files are spread over forked worker processes, one per usable CPU (files are
independent: each is read, checked and compiled on its own); the findings are the same set
either way, sorted at the end. A finding is dropped when its line or the line before carries
``# toolpolicy: ignore[CODE]`` — except the loader's, which the loader would refuse at run
time anyway.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import tempfile
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..core.errors import PolicyLoadError
from ..language.document import read_bounded
from ..language.resources import data_dir
from .context import LintFile, prepare
from .discovery import Discovery, discover
from .finding import Finding, Hit, Severity
from .registry import CHECKS, INTERNAL_ERROR, LOADER_CODES, Check
from .suppression import suppressed_codes

__all__ = [
    "PARALLEL_FROM",
    "LintResult",
    "builtin_paths",
    "lint_bytes",
    "lint_discovered",
    "lint_paths",
]


PARALLEL_FROM = 64
"""From this many files on, a run forks workers; fewer are linted faster in this process."""
_CHUNKS_PER_WORKER = 4


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


def lint_paths(paths: Sequence[str], agents: tuple[str, ...] | None = None) -> LintResult:
    """Lint ``paths`` (files, or folders walked for policy files) in one run."""
    return lint_discovered(discover(paths), agents)


def lint_discovered(found: Discovery, agents: tuple[str, ...] | None = None) -> LintResult:
    """Lint the files ``found`` in one run (``toolpolicy lint`` with no PATH lints
    ``discover_project()``); ``agents`` limits the agent tool names that count as known
    (``lint --agent``; None: every agent's)."""
    findings: set[Finding] = set()
    with tempfile.TemporaryDirectory(prefix="toolpolicy-lint-") as workspace:
        for chunk in _lint_chunks(found.files, workspace, agents):
            findings.update(chunk)
    skipped = tuple(s.path for s in found.skipped)
    return LintResult(tuple(sorted(findings)), found.files, skipped)


def _workers(files: int) -> int:
    """How many processes lint ``files`` files: one per usable CPU, but only with enough
    files to pay for the forks, where ``fork`` exists, and never from a process with other
    threads (a fork copies their held locks)."""
    if files < PARALLEL_FROM or threading.active_count() > 1:
        return 1
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(len(os.sched_getaffinity(0)), files // PARALLEL_FROM))


def _lint_chunks(
    paths: Sequence[str], workspace: str, agents: tuple[str, ...] | None
) -> Iterator[list[Finding]]:
    """The findings of ``paths``, one list per chunk of files, in any order."""
    workers = _workers(len(paths))
    if workers == 1:
        yield _lint_chunk((paths, workspace, agents))
        return
    count = workers * _CHUNKS_PER_WORKER
    size = -(-len(paths) // count)
    chunks = [(paths[i : i + size], workspace, agents) for i in range(0, len(paths), size)]
    with multiprocessing.get_context("fork").Pool(workers, _leave_interrupts) as pool:
        yield from pool.imap_unordered(_lint_chunk, chunks)


def _leave_interrupts() -> None:
    """A worker ignores Ctrl-C: the run stops in the parent, which ends the workers, and
    no worker prints a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _lint_chunk(
    job: tuple[Sequence[str], str, tuple[str, ...] | None],
) -> list[Finding]:
    paths, workspace, agents = job
    return [finding for path in paths for finding in _lint_file(path, workspace, agents)]


def lint_bytes(data: bytes, path: str, workspace: str) -> list[Finding]:
    """The sorted findings for ``data``, labelled ``path``, with examples run in
    ``workspace`` (an existing folder). ``path`` is also used to resolve ``extends``."""
    try:
        target = prepare(data, path, workspace)
    except Exception as exc:  # same contract as a file on disk
        return [_internal(path, "loader", exc)]
    return sorted(set(_run(target)))


def _lint_file(path: str, workspace: str, agents: tuple[str, ...] | None) -> list[Finding]:
    try:
        data = read_bounded(path)
    except PolicyLoadError as exc:
        return [
            Finding(p.path, p.line, p.column, p.code, Severity.ERROR, p.message)
            for p in exc.problems
        ]
    try:
        target = prepare(data, path, workspace, agents)
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
