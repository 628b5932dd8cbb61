"""Shell regions whose lines mix two deciders are listed by class (``diff/command_classes.py``):
one witness stands for every line of the same behaviors, the verdict is unchanged, and a
rule's own regions are still listed one by one."""

from __future__ import annotations

import json
from pathlib import Path

from toolpolicy import load
from toolpolicy.diff import DiffReport, Verdict, run_diff

_ASKED = ("c1", "c2", "c3", "c4", "c5")


def _policy(path: Path, rules: list[tuple[str, str, dict[str, object]]]) -> str:
    document = {
        "apiVersion": "toolpolicy/v1",
        "kind": "Policy",
        "name": path.stem,
        "extends": "P03",
        "rules": [
            {"name": name, "behavior": behavior, "reason": f"{name} says {behavior}", "match": m}
            for name, behavior, m in rules
        ],
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def _sides(tmp_path: Path, right_secret: str) -> tuple[str, str, Path]:
    """Both sides ask before five programs; the left denies reading ``secret``, the right
    ``right_secret``s it."""
    ws = tmp_path / "ws"
    ws.mkdir()
    asked = [(f"ask-{p}", "ask", {"tools": ["shell"], "commands": [p]}) for p in _ASKED]
    files = {"tools": ["read_file", "write_file"], "paths": ["secret"]}
    left = _policy(tmp_path / "left.yaml", [("secret", "deny", files), *asked])
    right = _policy(tmp_path / "right.yaml", [("secret", right_secret, files), *asked])
    return left, right, ws


def _shell(report: DiffReport) -> list[tuple[str, str, str, str | None]]:
    """The shell differences without an escalation: (line, left, right, special)."""
    out = []
    for r in report.differences:
        arguments = r.probe.arguments
        if r.probe.tool != "shell" or not isinstance(arguments, dict):
            continue
        if "sandbox_permissions" in arguments or r.probe.region is None:
            continue
        line = str(arguments["command"])
        out.append((line, r.left.source, r.right.source, r.probe.region.special))
    return out


def test_lines_joining_a_changed_rule_with_unchanged_ones_stand_for_their_class(
    tmp_path: Path,
) -> None:
    left, right, ws = _sides(tmp_path, "allow")
    report = run_diff(left, right, workspace=str(ws))
    assert report.verdict is Verdict.MORE_PERMISSIVE
    shell = _shell(report)
    # The rule's own region, alone: the left denies reading secret, the right asks (no rule).
    assert ("w secret", "secret", "shell-default", None) in shell
    # Six lines join it with an ask (``w secret ; c1`` ... ``c5``, and ``w secret ; w /``,
    # where the boundary asks): the left denies them by "secret", the right asks by each
    # program's rule or the boundary. One class, one witness, checked for all six below.
    joined = [entry for entry in shell if " ; " in entry[0]]
    assert [entry[3] for entry in joined if entry[1] == "secret"] == [
        "2 simple commands, stands for every line that mixes deciders: "
        "deny on the left, ask on the right",
        # writing / , .git, .codex beside it: the boundary denies on the right
        "2 simple commands, stands for every line that mixes deciders: "
        "deny on the left, deny on the right",
    ], joined
    # Every region of the class is decided as its witness is: the same change, every time.
    a, b = load(left, workspace=ws), load(right, workspace=ws)
    for program in _ASKED:
        for line in (f"w secret ; {program}", f"{program} ; w secret"):
            assert a.check("shell", {"command": line}).behavior.label == "deny"
            decided = b.check("shell", {"command": line})
            assert (decided.behavior.label, decided.source) == ("ask", f"ask-{program}")
    decided = b.check("shell", {"command": "w secret ; w /"})
    assert (decided.behavior.label, decided.source) == ("ask", "workspace-boundary")


def test_the_output_grows_with_the_rules_that_change_not_with_their_product(
    tmp_path: Path,
) -> None:
    """Twice the unchanged rules beside a change: not one more region."""
    counts = []
    for programs in (3, 6):
        ws = tmp_path / f"ws{programs}"
        ws.mkdir()
        asked = [
            (f"ask-p{i}", "ask", {"tools": ["shell"], "commands": [f"p{i}"]})
            for i in range(programs)
        ]
        files = {"tools": ["read_file", "write_file"], "paths": ["secret"]}
        left = _policy(ws.parent / f"l{programs}.yaml", [("s", "deny", files), *asked])
        right = _policy(ws.parent / f"r{programs}.yaml", [("s", "ask", files), *asked])
        report = run_diff(left, right, workspace=str(ws))
        assert report.verdict is Verdict.MORE_PERMISSIVE
        counts.append(len(_shell(report)))
    assert counts[0] == counts[1]


def test_a_rule_that_changes_its_behavior_keeps_its_own_region(tmp_path: Path) -> None:
    """A flipped command rule: its own line is a region of its own (one rule, both sides),
    never folded into a class."""
    ws = tmp_path / "ws"
    ws.mkdir()
    others = [(f"ask-{p}", "ask", {"tools": ["shell"], "commands": [p]}) for p in _ASKED]
    flipped = {"tools": ["shell"], "commands": ["make deploy"]}
    left = _policy(tmp_path / "left.yaml", [("deploy", "deny", flipped), *others])
    right = _policy(tmp_path / "right.yaml", [("deploy", "allow", flipped), *others])
    report = run_diff(left, right, workspace=str(ws))
    assert report.verdict is Verdict.MORE_PERMISSIVE
    shell = _shell(report)
    assert ("make deploy", "deploy", "deploy", None) in shell
    assert ("make deploy &", "deploy", "shell-default", None) in shell
    # Joined with an ask, the left denies (deploy) and the right asks (ask-c..., or the
    # boundary reading /): a class; so are the writes the boundary denies on the right.
    joined = [entry for entry in shell if " ; " in entry[0]]
    assert sorted(entry[3] or "" for entry in joined if entry[1] == "deploy") == [
        "2 simple commands, stands for every line that mixes deciders: "
        "deny on the left, ask on the right",
        "2 simple commands, stands for every line that mixes deciders: "
        "deny on the left, deny on the right",
    ], joined
