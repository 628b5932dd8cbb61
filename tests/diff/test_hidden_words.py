"""Words the deny and ask patterns read where the allow patterns read none: a redirection's
target (read in its place, or starting a new run of words) and the words of one quoted word.
Each line below is decided differently by the two sides through such words; the diff must
find a line with the same pair of decisions (found from outside: red team, round 31, third
look; the third case is the same kind, a run broken by ``&>``). Since a deny or ask reads its
plain words in any order (round 33), a plain line with the hidden words last shows the first
two cases' pairs too, and a blocker of that line blocks the hidden one as well: those cases
lost their blockers and stay as checks that the pair is found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolpolicy import load
from toolpolicy.diff import Verdict, run_diff
from toolpolicy.diff.command_regions import Command


def _policy(path: Path, name: str, rules: list[dict[str, object]]) -> str:
    document = {"apiVersion": "toolpolicy/v1", "kind": "Policy", "name": name}
    document |= {"extends": "P03", "rules": rules}
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def _rule(name: str, behavior: str, *commands: str) -> dict[str, object]:
    match = {"tools": ["shell"], "commands": list(commands)}
    return {"name": name, "behavior": behavior, "reason": name, "match": match}


_ALLOW_AC = _rule("allow-ac", "allow", "a c")
_DENY_AC = _rule("deny-ac", "deny", "a c")
_ALLOW_ANY_D = _rule("allow-a-any-d", "allow", "a * d")

CASES = [
    pytest.param(  # "a > b c": the allow reads "a c", the patterns "a b c"
        [_rule("ask-ab", "ask", "a b"), _ALLOW_AC], [_ALLOW_AC],
        "a > b c", ("ask", "ask-ab"), ("allow", "allow-ac"), id="target-before-an-allow-word",
    ),
    pytest.param(  # "a 'b c' d": the allow's * takes one word, the patterns read b and c
        [_rule("ask-abc", "ask", "a b c"), _ALLOW_ANY_D], [_ALLOW_ANY_D],
        "a 'b c' d", ("ask", "ask-abc"), ("allow", "allow-a-any-d"), id="words-in-a-quoted-word",
    ),
    pytest.param(  # "a &> b c": runs "a" and "b c"; deny-ac no longer hits, deny-b does
        [_DENY_AC, _rule("deny-b", "deny", "b"), _ALLOW_AC], [_DENY_AC, _ALLOW_AC],
        "a &> b c", ("deny", "deny-b"), ("allow", "allow-ac"), id="a-target-starts-a-new-run",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("left", "right", "line", "on_left", "on_right"), CASES)
def test_a_line_that_differs_through_hidden_words_is_reported(
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
    found = {
        ((r.left.behavior.label, r.left.source), (r.right.behavior.label, r.right.source)): r
        for r in report.differences
        if r.probe.tool == "shell" and r.probe.origin == "region"
    }
    assert report.verdict is not Verdict.EQUIVALENT
    assert report.incomplete is None
    witness = found[(on_left, on_right)]  # the same pair, on a line the search spelled
    arguments = witness.probe.arguments
    assert isinstance(arguments, dict)
    for file, expected in ((left_file, on_left), (right_file, on_right)):
        decided = load(file, workspace=ws).check("shell", arguments)
        assert (decided.behavior.label, decided.source) == expected


def test_a_command_writes_its_hidden_redirections_between_its_words() -> None:
    command = Command(("a", "c d"), hidden=((0, "<", "x"), (1, "&>", "b y"), (2, "<", "z")))
    assert command.text == "< x a &> 'b y' 'c d' < z"
    assert command.seen_words == ("x", "a", "b y", "c d", "z")
    assert command.read_words == ("a", "c d")  # the allow patterns' words
    ended = command._replace(redirect=">", target="t", background=True)
    assert ended.text == "< x a &> 'b y' 'c d' < z > t &"
    assert ended.seen_words == ("x", "a", "b y", "c d", "z", "t")
