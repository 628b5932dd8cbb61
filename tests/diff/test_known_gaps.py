"""Known gaps in the diff's completeness, found from outside (red team, round 31, third
look) and not yet closed: each is ``xfail(strict=True)``, so the day one is fixed its test
fails until the mark is removed. SECURITY.md lists them; the README's diff section says what
they miss. The first two are false ``equivalent`` verdicts (exit 0, also under
``--fail-on widen``); the third misses pairs that differ by source only. (A fourth, a write
through ``&>`` whose target the patterns do not read, is closed: the completeness property
holds its example.)

The kind of the first two: the deny and ask patterns read words of a line that the allow
patterns do not read in that place — a redirection's target or fd number before an allow's
next word, and the words inside one quoted word."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolpolicy import load
from toolpolicy.diff import Verdict, run_diff


def _policy(path: Path, name: str, rules: list[dict[str, object]]) -> str:
    document = {"apiVersion": "toolpolicy/v1", "kind": "Policy", "name": name}
    document |= {"extends": "P03", "rules": rules}
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def _rule(name: str, behavior: str, **match: object) -> dict[str, object]:
    return {"name": name, "behavior": behavior, "reason": name, "match": match}


_ALLOW_AC = _rule("allow-ac", "allow", tools=["shell"], commands=["a c"])
_DENY_ACB = _rule("deny-acb", "deny", tools=["shell"], commands=["a c b"])
_ASK_AB = _rule("ask-ab", "ask", tools=["shell"], commands=["a b"])
_ALLOW_ANY_D = _rule("allow-a-any-d", "allow", tools=["shell"], commands=["a * d"])

GAPS = [
    pytest.param(  # "a > b c": the allow reads "a c", the patterns "a b c"
        [_ASK_AB, _DENY_ACB, _ALLOW_AC], [_DENY_ACB, _ALLOW_AC], "a > b c",
        ("ask", "ask-ab"), ("allow", "allow-ac"), id="target-before-an-allow-word",
    ),
    pytest.param(  # "a 'b c' d": the allow's * takes one word, the patterns read b and c
        [_rule("ask-abc", "ask", tools=["shell"], commands=["a b c"]), _ALLOW_ANY_D],
        [_rule("ask-abc", "ask", tools=["shell"], commands=["a b d c", "a d b c"]), _ALLOW_ANY_D],
        "a 'b c' d", ("ask", "ask-abc"), ("allow", "allow-a-any-d"), id="words-in-a-quoted-word",
    ),
]  # fmt: skip


@pytest.mark.xfail(strict=True, reason="known gap: see the module docstring and SECURITY.md")
@pytest.mark.parametrize(("left", "right", "line", "on_left", "on_right"), GAPS)
def test_a_line_the_search_does_not_spell_is_still_reported(
    tmp_path: Path,
    left: list[dict[str, object]],
    right: list[dict[str, object]],
    line: str,
    on_left: tuple[str, str],
    on_right: tuple[str, str],
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    left_file = _policy(tmp_path / "left.yaml", "side-a", left)
    right_file = _policy(tmp_path / "right.yaml", "side-b", right)
    for file, expected in ((left_file, on_left), (right_file, on_right)):
        decided = load(file, workspace=ws).check("shell", {"command": line})
        assert (decided.behavior.label, decided.source) == expected  # the call differs
    report = run_diff(left_file, right_file, workspace=str(ws))
    pairs = {
        ((r.left.behavior.label, r.left.source), (r.right.behavior.label, r.right.source))
        for r in report.differences
        if r.probe.tool == "shell"
    }
    assert report.verdict is not Verdict.EQUIVALENT
    assert (on_left, on_right) in pairs


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
