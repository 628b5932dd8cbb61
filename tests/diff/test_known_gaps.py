"""Known gaps in the diff's completeness, not yet closed: each is ``xfail(strict=True)``, so
the day one is fixed its test fails until the mark is removed. SECURITY.md lists them; the
README's diff section says what they miss. Both miss pairs of decisions that differ by
source only. (Closed: a write through ``&>`` whose target the patterns do not read, and the
words the deny and ask patterns read where the allow patterns read none — a redirection's
target before an allow's next word, the words of one quoted word: ``test_hidden_words.py``
and the completeness property hold them.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from toolpolicy import load
from toolpolicy.diff import run_diff


@pytest.mark.xfail(strict=True, reason="known gap: see the module docstring and SECURITY.md")
def test_a_folder_argument_names_the_rule_that_decides_the_witness() -> None:
    """Found by the completeness property (a CI run at the end of stop 31; with or without
    files in the workspace): a program given several arguments may copy into the last, a
    folder (``w a w`` writes below ``w``), and those writes are decided after every other
    file of the line, so in ``w a w ; w /`` the boundary's ask on ``/`` decides, while the
    diff's model keeps them in their command's place and the region names the rule on
    ``?/``. The decisions shown are the engine's; the region's deciding rule is not."""
    from .test_completeness import _diff_and_check

    left = [
        {"behavior": "deny", "paths": ["//?"], "tools": None},
        {"behavior": "ask", "paths": ["?/"], "tools": ["write_file"]},
        {"behavior": "deny", "tools": None, "commands": ["b"]},
    ]
    right = [
        {"behavior": "deny", "tools": None, "paths": ["?-"]},
        {"behavior": "allow", "tools": None, "commands": ["* a *"]},
    ]
    _diff_and_check(left, right)


@pytest.mark.xfail(strict=True, reason="known gap: see the module docstring and SECURITY.md")
def test_a_side_that_reads_files_only_on_some_lines_shows_its_boundary_pairs(
    tmp_path: Path,
) -> None:
    """A profile without rules of its own decides a line's files only on some lines (a
    quote, a ``$``, a glob, a protected name, ``rm -r``, ``curl``); the search never spells
    one, so P02 → P03 misses ``rm -r /tmp/x`` (the same behavior, another source)."""
    ws = tmp_path / "ws"
    ws.mkdir()
    line = "rm -r /tmp/x"
    p02 = load("P02", workspace=ws).check("shell", {"command": line})
    p03 = load("P03", workspace=ws).check("shell", {"command": line})
    assert (p02.behavior.label, p02.source) == ("ask", "shell-default")
    assert (p03.behavior.label, p03.source) == ("ask", "workspace-boundary")
    report = run_diff("P02", "P03", workspace=str(ws))
    pairs = {
        ((r.left.behavior.label, r.left.source), (r.right.behavior.label, r.right.source))
        for r in report.differences
        if r.probe.tool == "shell"
    }
    assert (("ask", "shell-default"), ("ask", "workspace-boundary")) in pairs
