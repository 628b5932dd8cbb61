"""extends: chains of files ending at a built-in profile; cycles and unknowns at their line."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolpolicy.core.errors import PolicyLoadError
from toolpolicy.language import builtin_profiles, load_policy_chain


def _policy(path: Path, name: str, extends: str | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["apiVersion: toolpolicy/v1", "kind: Policy", f"name: {name}"]
    if extends is not None:
        lines.append(f"extends: {extends}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _problems(path: Path) -> list[str]:
    with pytest.raises(PolicyLoadError) as caught:
        load_policy_chain(path)
    return [f"{p.code} {p}" for p in caught.value.problems]


def test_a_policy_extending_a_built_in_profile_ends_with_it_first(tmp_path: Path) -> None:
    team = _policy(tmp_path / "team.yaml", "team", "P03")
    chain = load_policy_chain(team)
    assert [d.kind for d in chain] == ["Profile", "Policy"]
    assert chain[0] is builtin_profiles()["P03"]
    assert chain[1].path == str(team)


def test_a_policy_without_extends_is_a_chain_of_one(tmp_path: Path) -> None:
    alone = _policy(tmp_path / "alone.yaml", "alone")
    assert [d.path for d in load_policy_chain(alone)] == [str(alone)]


def test_relative_paths_resolve_against_the_extending_file(tmp_path: Path) -> None:
    base = _policy(tmp_path / "shared" / "base.yaml", "base", "P02")
    middle = _policy(tmp_path / "shared" / "teams" / "middle.yaml", "middle", "../base.yaml")
    top = _policy(tmp_path / "repo" / "top.yaml", "top", "../shared/teams/middle.yaml")
    chain = load_policy_chain(top)
    assert [d.model.name for d in chain] == ["P02", "base", "middle", "top"]
    assert [d.path for d in chain[1:]] == [str(base), str(middle), str(top)]


def test_a_file_extending_itself_is_a_cycle_at_the_extends_line(tmp_path: Path) -> None:
    me = _policy(tmp_path / "me.yaml", "me", "me.yaml")
    assert _problems(me) == [f"extends-cycle {me}:4:10: extends cycle: {me} -> {me}"]


def test_a_two_file_cycle_is_reported_where_it_closes(tmp_path: Path) -> None:
    a = _policy(tmp_path / "a.yaml", "a", "b.yaml")
    b = _policy(tmp_path / "b.yaml", "b", "./a.yaml")
    assert _problems(a) == [f"extends-cycle {b}:4:10: extends cycle: {a} -> {b} -> {a}"]


def test_a_cycle_through_a_symlink_is_still_a_cycle(tmp_path: Path) -> None:
    a = _policy(tmp_path / "a.yaml", "a", "alias.yaml")
    (tmp_path / "alias.yaml").symlink_to(a)
    assert [p.split(" ", 1)[0] for p in _problems(a)] == ["extends-cycle"]


def test_an_unknown_target_is_reported_at_the_extends_line(tmp_path: Path) -> None:
    team = _policy(tmp_path / "team.yaml", "team", "P07")
    assert _problems(team) == [
        f"extends-unknown {team}:4:10: extends 'P07' is neither a built-in profile "
        f"(P01, P02, P03) nor a file (looked for {tmp_path / 'P07'})"
    ]


def test_a_directory_target_is_unknown(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    team = _policy(tmp_path / "team.yaml", "team", "dir")
    assert [p.split(" ", 1)[0] for p in _problems(team)] == ["extends-unknown"]


def test_extending_a_preset_table_is_refused(tmp_path: Path) -> None:
    table = tmp_path / "presets.yaml"
    table.write_text(
        "apiVersion: toolpolicy/v1\nkind: PresetTable\ndefault: a\n"
        "presets: {a: {sandbox: read-only, approval: ask}}\n",
        encoding="utf-8",
    )
    team = _policy(tmp_path / "team.yaml", "team", "presets.yaml")
    assert _problems(team) == [
        f"extends-kind {team}:4:10: extends 'presets.yaml' reaches a PresetTable; a file can "
        "only extend a Policy (built-in profiles are extended by name)"
    ]


def test_a_preset_table_is_not_a_policy_chain(tmp_path: Path) -> None:
    table = tmp_path / "presets.yaml"
    table.write_text(
        "apiVersion: toolpolicy/v1\nkind: PresetTable\ndefault: a\n"
        "presets: {a: {sandbox: read-only, approval: ask}}\n",
        encoding="utf-8",
    )
    assert _problems(table) == [
        f"extends-kind {table}:1:1: expected a Policy or Profile document, found a PresetTable"
    ]


def test_a_broken_file_in_the_chain_reports_its_own_problems(tmp_path: Path) -> None:
    broken = tmp_path / "base.yaml"
    broken.write_text("apiVersion: toolpolicy/v1\nkind: Policy\nname: Base\n", encoding="utf-8")
    team = _policy(tmp_path / "team.yaml", "team", "base.yaml")
    assert _problems(team) == [f'schema {broken}:3:7: "Base" is not a valid policy name']


def test_a_very_long_chain_is_refused(tmp_path: Path) -> None:
    for i in range(40):
        _policy(tmp_path / f"p{i}.yaml", f"p{i}", f"p{i + 1}.yaml")
    _policy(tmp_path / "p40.yaml", "p40", "P03")
    problems = _problems(tmp_path / "p0.yaml")
    assert len(problems) == 1
    assert problems[0].startswith(f"extends-too-deep {tmp_path / 'p30.yaml'}:4:10: ")
    assert problems[0].endswith("the extends chain is longer than 32 documents")


def test_a_built_in_profile_file_is_a_chain_of_itself() -> None:
    p03 = builtin_profiles()["P03"]
    chain = load_policy_chain(p03.path)
    assert [d.model.name for d in chain] == ["P03"]
