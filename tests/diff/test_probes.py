"""Probes come from both sides so that every rule, boundary and escalation is exercised."""

from __future__ import annotations

import os
from pathlib import Path

from toolpolicy.diff.probes import Probe, generate_probes
from toolpolicy.diff.scratch import find_escape_link, scratch_workspace
from toolpolicy.engine.selection import load


def _calls(probes: tuple[Probe, ...]) -> list[tuple[str, object]]:
    return [(p.tool, p.arguments) for p in probes]


def test_every_tool_of_either_side_gets_a_call_per_region(tmp_path: Path) -> None:
    probes = generate_probes(load("P01", workspace=tmp_path), load("P03", workspace=tmp_path))
    plain = [
        (p.tool, p.arguments)
        for p in probes
        if p.origin == "region" and p.region is not None and p.region.special is None
    ]
    assert plain == [
        ("shell", {"command": "w"}),
        # P03 decides a written file with or without rules: outside, into the protected set
        ("shell", {"command": "w > /"}),
        ("shell", {"command": "w > .git"}),
        ("shell", {"command": "w > .codex"}),
        # P03 reads a quoted line's files (P01 never): reading outside asks there
        ("shell", {"command": "'w' '/'"}),
        ("read_file", {"path": "b"}),
        ("write_file", {"path": "b", "content": "x"}),
        ("edit_file", {"path": "b", "old_string": "a", "new_string": "b"}),
        ("glob", {"pattern": "**/*"}),
    ]
    specials = {(p.tool, p.region.special) for p in probes if p.region and p.region.special}
    protected = {
        "protected: .git",
        "protected: .codex",
        "protected: .claude/settings.json",
        "protected: .claude/settings.local.json",
        "protected: .gemini/settings.json",
        "protected: .github/hooks",
        "protected: .github/copilot/settings.json",
        "protected: .github/copilot/settings.local.json",
    }
    assert specials == {
        ("shell", "the empty command line"),
        ("read_file", "the workspace root"),
        ("read_file", "an absolute path"),
        *((tool, special) for tool in ("write_file", "edit_file") for special in protected),
        *((tool, "the workspace root") for tool in ("write_file", "edit_file")),
        *((tool, "an absolute path") for tool in ("write_file", "edit_file")),
    }


def test_path_tools_get_the_boundary_cases(tmp_path: Path) -> None:
    p03 = load("P03", workspace=tmp_path)
    calls = _calls(generate_probes(p03, p03, escape_link="link"))
    for path in ("../outside.txt", "link/escape.txt", "NUL"):
        assert ("write_file", {"path": path, "content": "x"}) in calls
        assert ("read_file", {"path": path}) in calls
    assert not any(tool == "shell" and "path" in args for tool, args in calls)  # type: ignore[operator]


def test_without_an_escape_link_there_is_no_symlink_probe(tmp_path: Path) -> None:
    p03 = load("P03", workspace=tmp_path)
    calls = _calls(generate_probes(p03, p03))
    assert ("write_file", {"path": "link/escape.txt", "content": "x"}) not in calls


def test_calls_are_probed_with_and_without_an_escalation_request(tmp_path: Path) -> None:
    p03 = load("P03", workspace=tmp_path)
    calls = _calls(generate_probes(p03, p03))
    assert ("shell", {"command": "w"}) in calls
    # every request: one no wider than a side's mode is refused there (a region of its own)
    for mode in ("read-only", "workspace-write", "danger-full-access"):
        escalated = {"command": "w", "sandbox_permissions": mode, "justification": "probe"}
        assert ("shell", escalated) in calls


def test_a_user_deny_on_a_glob_yields_its_region_on_the_tools_it_names(
    tmp_path: Path, team: Path
) -> None:
    probes = generate_probes(load("P03", workspace=tmp_path), load(str(team), workspace=tmp_path))
    inside = [
        p
        for p in probes
        if isinstance(p.arguments, dict) and p.arguments.get("path") == "third_party/.c"
    ]
    assert [p.tool for p in inside if p.origin == "region"] == ["write_file", "edit_file"]
    region = inside[0].region
    assert region is not None and region.right is not None
    assert region.right.label == f"no-vendored-c ({team}:6)"
    assert region.describe() == (
        "left: confirm-file-write (ask); right: no-vendored-c (deny: third_party/**/*.c)"
    )
    assert not any(
        isinstance(p.arguments, dict) and p.arguments.get("path", "").startswith("third_party")
        for p in probes
        if p.tool == "read_file"
    )


def test_a_command_rule_yields_its_region_and_the_rest(tmp_path: Path, git_status: Path) -> None:
    probes = generate_probes(
        load("P03", workspace=tmp_path), load(str(git_status), workspace=tmp_path)
    )
    commands = [
        p.arguments["command"]
        for p in probes
        if p.tool == "shell"
        and isinstance(p.arguments, dict)
        and "sandbox_permissions" not in p.arguments
    ]
    # With a command rule the engine also decides the files a line names: reading outside,
    # writing outside, writing into .git, into an agent's settings and into the policy file
    # in use (here inside the workspace; any case spelling) are regions of their own.
    assert commands == [
        "w",
        "w /",
        "w > /",
        "w > .git",
        "w > .codex",
        "w > 'git-\ufb05atus.yaml'",
        "git status",
        "'w' '/'",  # P03 reads a quoted line's files: the boundary's ask, not shell-default
        "",
        # the policy file is one side's only: written first, it decides there, while the
        # other side's boundary decides the second write (/, .git, .codex: lines of one
        # class, deny on both sides, shown by one)
        "w > 'git-\ufb05atus.yaml' ; w > /",
        "'w' '/' ; 'w' > 'git-\ufb05atus.yaml'",
    ]
    joined = [p.region for p in probes if p.arguments == {"command": commands[-2]}]
    assert joined[0] is not None and joined[0].special == (
        "2 simple commands, stands for every line that mixes deciders: "
        "deny on the left, deny on the right"
    )


def test_probes_are_deduplicated_first_origin_kept(tmp_path: Path, team: Path) -> None:
    side = load(str(team), workspace=tmp_path)
    once = generate_probes(side, side)
    assert len({p.key for p in once}) == len(once)
    recorded = Probe("read_file", {"path": "b"}, "recorded calls.jsonl:1")
    again = generate_probes(side, side, recorded=[recorded])
    assert len(again) == len(once)
    assert [p.origin for p in again if p.arguments == {"path": "b"}] == ["region"]


def test_the_scratch_workspace_has_a_real_escape_link_and_is_removed() -> None:
    with scratch_workspace() as ws:
        root = ws.root
        link = os.path.join(root, "link")
        assert os.path.islink(link)
        assert os.path.dirname(os.readlink(link)) == os.path.dirname(root)
        assert find_escape_link(root) == "link"
    assert not os.path.exists(os.path.dirname(root))


def test_a_given_workspace_offers_its_own_escaping_symlink(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "inner").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (root / "a-inside").symlink_to(root / "inner")
    assert find_escape_link(str(root)) is None
    (root / "b-out").symlink_to(tmp_path / "elsewhere")
    assert find_escape_link(str(root)) == "b-out"


def test_a_probes_key_is_its_call_whatever_the_order_and_never_another_call() -> None:
    region = Probe("read_file", {"path": "README.md", "limit": "9"}, "region")
    assert Probe("read_file", {"limit": "9", "path": "README.md"}, "recorded").key == region.key
    spelled = Probe("read_file", '{"limit": "9", "path": "README.md"}', "recorded")
    assert spelled.key != region.key  # raw string arguments, rejected by both sides
    assert Probe("t", {"a": True}, "x").key != Probe("t", {"a": 1}, "x").key
    assert Probe("t", {"a": 1.0}, "x").key != Probe("t", {"a": 1}, "x").key
    assert Probe("t", {"a": "1"}, "x").key != Probe("t", {"a": 1}, "x").key
    assert Probe("t", {"a": [1]}, "x").key == Probe("t", {"a": [1]}, "y").key
