"""A run over many files forks workers; it must find exactly what linting each folder on
its own finds (the corpora copied six times: loader errors, extends chains and cycles,
failing examples, suppressions), in the same sorted order."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

from toolpolicy.lint import lint_paths
from toolpolicy.lint.linter import PARALLEL_FROM

from .conftest import INVALID, VALID


def test_many_files_in_workers_give_the_findings_of_each_folder_alone(tmp_path: Path) -> None:
    folders = []
    for copy in range(6):
        for corpus in (INVALID, VALID):
            folder = tmp_path / f"{corpus.name}-{copy}"
            shutil.copytree(corpus, folder)
            folders.append(folder)
    files = sorted(tmp_path.rglob("*.yaml"))
    assert len(files) >= 2 * PARALLEL_FROM  # two workers when two CPUs are usable
    assert all(len(list(folder.glob("*.yaml"))) < PARALLEL_FROM for folder in folders)
    assert threading.active_count() == 1 and len(os.sched_getaffinity(0)) >= 1

    together = lint_paths([str(tmp_path)])
    alone = [lint_paths([str(folder)]) for folder in folders]

    assert together.findings == tuple(sorted(f for result in alone for f in result.findings))
    assert sorted(together.files) == sorted(f for result in alone for f in result.files)
    assert len({f.code for f in together.findings}) >= 14
