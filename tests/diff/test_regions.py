"""Regions: the witnesses the symbolic search picks, the paths it refuses to use, what sets
a region apart besides the rules, and the bound that stops it from answering incompletely."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolpolicy import load
from toolpolicy.diff import AutomatonTooLarge, ProbeResult, Verdict, run_diff
from toolpolicy.diff.automaton import Nfa, explore
from toolpolicy.diff.path_language import PathDomain, add_glob, path_alphabet
from toolpolicy.tools.workspace import normalized_path


def _policy(path: Path, rules: list[dict[str, object]]) -> str:
    document = {
        "apiVersion": "toolpolicy/v1",
        "kind": "Policy",
        "name": path.stem,
        "extends": "P03",
        "rules": [
            {"name": f"r{i}", "behavior": r.pop("behavior"), "reason": f"Rule {i}", "match": r}
            for i, r in enumerate(rules)
        ],
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def _relative(result: ProbeResult) -> bool:
    arguments = result.probe.arguments
    return isinstance(arguments, dict) and not str(arguments.get("path", "")).startswith("/")


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


def test_a_device_name_is_never_a_witness_a_longer_valid_name_is(tmp_path: Path, ws: Path) -> None:
    right = _policy(tmp_path / "r.yaml", [{"behavior": "deny", "paths": ["nul*"]}])
    report = run_diff("P03", right, workspace=str(ws))
    reads = [r for r in report.differences if r.probe.tool == "read_file" and _relative(r)]
    assert len(reads) == 1
    path = reads[0].probe.arguments["path"]  # type: ignore[index]
    assert normalized_path(path) == path and path.lower() != "nul"
    assert (reads[0].left.behavior.label, reads[0].right.behavior.label) == ("allow", "deny")


def test_a_rule_on_device_names_decides_only_their_absolute_spellings(
    tmp_path: Path, ws: Path
) -> None:
    """A relative ``con`` is refused before any rule looks; ``/…/ws/con`` is an absolute
    path, which the engine matches against workspace rules as it is."""
    right = _policy(tmp_path / "r.yaml", [{"behavior": "deny", "paths": ["con", "aux.*"]}])
    report = run_diff("P03", right, workspace=str(ws))
    # (The shell's regions differ too: path rules decide the files a line names.)
    regions = [
        r for r in report.differences if r.probe.region is not None and r.probe.tool != "shell"
    ]
    assert not [r for r in regions if _relative(r)]
    root = load(right, workspace=ws).workspace
    assert {r.probe.arguments["path"] for r in regions} == {f"{root}/con"}  # type: ignore[index]
    assert report.verdict is Verdict.LESS_PERMISSIVE


def test_no_glob_matches_the_workspace_root(tmp_path: Path, ws: Path) -> None:
    right = _policy(
        tmp_path / "r.yaml", [{"behavior": "deny", "tools": ["read_file"], "paths": ["*"]}]
    )
    report = run_diff("P03", right, workspace=str(ws))
    root = next(
        r
        for r in report.results
        if r.probe.tool == "read_file" and r.probe.region and r.probe.region.special
    )
    assert root.probe.arguments == {"path": "."}
    assert root.probe.region is not None
    assert root.probe.region.describe() == "left: no rule; right: no rule; the workspace root"
    assert root.change.value == "none"
    reads = [
        r.probe.arguments
        for r in report.differences
        if r.probe.tool == "read_file" and _relative(r)
    ]
    assert reads == [{"path": "b"}]


def test_a_policy_file_inside_the_workspace_is_a_protected_region_for_writes(
    tmp_path: Path,
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    inside = _policy(ws / "team.yaml", [])
    report = run_diff("P03", inside, workspace=str(ws))
    regions = [r for r in report.differences if r.probe.origin == "region"]
    protected = [r for r in regions if r.probe.tool != "shell"]
    assert [(r.probe.tool, r.probe.arguments["path"]) for r in protected] == [  # type: ignore[index]
        ("write_file", "team.yaml"),
        ("edit_file", "team.yaml"),
    ]
    # a shell line writing it too: the boundary decides written files with or without rules
    shell = [r.probe.arguments["command"] for r in regions if r.probe.tool == "shell"]  # type: ignore[index]
    assert shell[0] == "w > team.yaml"
    assert protected[0].right.source == "workspace-boundary"
    assert protected[0].right.reason == "Policy files in use cannot be written"
    assert protected[0].probe.region.special == "protected: team.yaml"  # type: ignore[union-attr]
    assert not any(r.probe.tool == "read_file" for r in report.differences)


def test_a_deny_on_a_program_hits_wherever_its_words_follow(tmp_path: Path, ws: Path) -> None:
    right = _policy(
        tmp_path / "r.yaml", [{"behavior": "deny", "tools": ["shell"], "commands": ["git push"]}]
    )
    report = run_diff("P03", right, workspace=str(ws))
    shell = [r for r in report.differences if r.probe.origin == "region" and r.right.source == "r0"]
    assert shell[0].probe.arguments == {"command": "git push"}
    # the others join it with a write the left side's boundary refuses (``w > / ; git
    # push``), or with a read outside it asks for in a line it reads (a quoted one)
    commands = [str(r.probe.arguments["command"]) for r in shell[1:]]  # type: ignore[index]
    assert all(" > " in command or command.startswith("'") for command in commands)
    policy = load(right, workspace=ws)
    assert policy.check("shell", {"command": "git -C w push"}).source == "r0"
    assert policy.check("shell", {"command": "sudo /usr/bin/git x push"}).source == "r0"


def test_the_search_refuses_to_answer_past_its_bound() -> None:
    texts = [f"d{i}/**/*.c" for i in range(20)]
    alphabet = path_alphabet(texts)
    nfa = Nfa()
    starts = [add_glob(nfa, text, alphabet, i) for i, text in enumerate(texts)]
    compiled = nfa.compiled()
    assert len(explore(compiled, starts, PathDomain(alphabet))) > 20
    with pytest.raises(AutomatonTooLarge, match="too intricate to compare completely"):
        explore(compiled, starts, PathDomain(alphabet), limit=50)


def test_a_rule_reaching_into_a_protected_folder_is_witnessed_outside_it(
    tmp_path: Path, ws: Path
) -> None:
    """``.git*`` matches ``.git`` first, where every write is refused on both sides; the
    region where the rule decides is witnessed by a name beside it, not inside."""
    right = _policy(
        tmp_path / "r.yaml",
        [{"behavior": "deny", "tools": ["write_file"], "paths": [".git*", ".GIT/x"]}],
    )
    report = run_diff("P03", right, workspace=str(ws))
    writes = [
        r for r in report.differences if r.probe.tool == "write_file" and r.probe.origin == "region"
    ]
    assert [(r.probe.arguments["path"], r.change.value) for r in writes] == [  # type: ignore[index]
        (".gitb", "narrow")
    ]
    assert writes[0].right.source == "r0"
    policy = load(right, workspace=ws)
    for inside in (".git", ".GIT/x", "b/.Git/config"):
        decided = policy.check("write_file", {"path": inside, "content": "x"})
        assert (decided.behavior.label, decided.source) == ("deny", "workspace-boundary")


def test_forty_deny_programs_anywhere_are_compared_without_a_budget(
    tmp_path: Path, ws: Path
) -> None:
    """Each deny reads its program anywhere in a line; a search of every mix of started
    patterns grows exponentially with them, the joining of occurrence witnesses does not."""
    right = _policy(
        tmp_path / "r.yaml",
        [
            {"behavior": "deny" if i % 2 else "ask", "tools": ["shell"], "commands": [f"t{i} run"]}
            for i in range(40)
        ],
    )
    report = run_diff("P03", right, workspace=str(ws))
    assert report.incomplete is None
    witnessed = {
        str(r.probe.arguments["command"]): r.right.source  # type: ignore[index]
        for r in report.results
        if r.probe.tool == "shell" and r.probe.origin == "region"
    }
    assert all(witnessed.get(f"t{i} run") == f"r{i}" for i in range(40))
    policy = load(right, workspace=ws)
    assert policy.check("shell", {"command": "x t3 y run t4 run"}).source == "r3"


def test_an_option_no_word_spells_neutrally_leaves_the_regions_incomplete(
    tmp_path: Path, ws: Path
) -> None:
    """``-a``, ``-aa``, ... all run as a rule's program, and every letter a cluster may add
    is one a rule reads: the option of ``x -a`` cannot be given alone, so its regions are
    not proven complete and the verdict is inconclusive."""
    programs = ["a", "aa", "aaa", "aaaa"]
    right = _policy(
        tmp_path / "r.yaml",
        [{"behavior": "deny", "tools": ["shell"], "commands": ["x -a", "p --zyxqjk", *programs]}],
    )
    report = run_diff(right, right, workspace=str(ws))
    assert report.incomplete == "incomplete: the options of 'x -a' were not all spelled"
    assert report.verdict is Verdict.INCONCLUSIVE  # the same file: never called equivalent
