"""A side is a preset, a profile, PROFILE@PRESET or a policy file; anything else is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from toolpolicy.core.errors import ConfigurationError
from toolpolicy.diff.sides import Side, UnknownSide, load_sides, parse_side

from .conftest import TEAM_POLICY

KNOWN = (
    "(expected a preset: workspace-write, danger-full-access, read-only; "
    "a profile: P01, P02, P03; PROFILE@PRESET; or a policy file)"
)


def test_a_preset_name_uses_the_profile_given_for_preset_only_sides() -> None:
    assert parse_side("danger-full-access") == Side(
        "danger-full-access", "P03", "danger-full-access"
    )
    assert parse_side("read-only", default_profile="p02") == Side("read-only", "P02", "read-only")


def test_a_profile_name_uses_the_tables_default_preset() -> None:
    assert parse_side("p01") == Side("p01", "P01", "workspace-write")
    assert parse_side("P02").label == "P02@workspace-write"


def test_profile_at_preset_names_both() -> None:
    assert parse_side("P02@danger-full-access") == Side(
        "P02@danger-full-access", "P02", "danger-full-access"
    )


def test_a_policy_file_is_a_side_alone_or_with_a_preset(team: Path) -> None:
    assert parse_side(str(team)) == Side(str(team), str(team), "workspace-write")
    side = parse_side(f"{team}@read-only")
    assert (side.profile, side.preset, side.label) == (str(team), "read-only", f"{team}@read-only")


def test_an_unknown_side_is_named_in_the_error() -> None:
    with pytest.raises(UnknownSide) as caught:
        parse_side("staging")
    assert str(caught.value) == f"unknown side 'staging' {KNOWN}"
    assert isinstance(caught.value, ConfigurationError)


def test_an_unknown_profile_or_preset_after_the_at_is_named() -> None:
    with pytest.raises(UnknownSide) as caught:
        parse_side("P09@read-only")
    assert (
        str(caught.value)
        == f"unknown side 'P09@read-only': no profile or policy file 'P09' {KNOWN}"
    )
    with pytest.raises(UnknownSide) as caught:
        parse_side("P02@custom")
    assert str(caught.value) == f"unknown side 'P02@custom': no preset 'custom' {KNOWN}"


def test_an_empty_side_is_refused() -> None:
    with pytest.raises(UnknownSide):
        parse_side("")


def test_a_directory_is_not_a_policy_file(tmp_path: Path) -> None:
    with pytest.raises(UnknownSide):
        parse_side(str(tmp_path))


def test_a_mistyped_profile_flag_is_refused_even_when_no_side_uses_it() -> None:
    with pytest.raises(ConfigurationError) as caught:
        parse_side("P02", default_profile="P3")
    assert str(caught.value) == "unknown profile: P3 (built-in: P01, P02, P03, or a policy file)"
    assert not isinstance(caught.value, UnknownSide)


def test_a_policy_files_side_comes_from_the_compiled_cache_until_the_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import toolpolicy.engine.cache as cache

    monkeypatch.setenv("TOOLPOLICY_CACHE_DIR", str(tmp_path / "cache"))
    compiled: list[str] = []
    compile_sources = cache.compile_sources

    def counted(sources: Any) -> Any:
        compiled.extend(layer.path for layer in sources.layers)
        return compile_sources(sources)

    monkeypatch.setattr(cache, "compile_sources", counted)
    policy = tmp_path / "team.yaml"
    policy.write_text(TEAM_POLICY, encoding="utf-8")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    side = parse_side(str(policy))
    call = {"path": "third_party/x/a.c", "content": "x"}

    def decided() -> str:
        left, _ = load_sides(side, parse_side("P03"), str(workspace))
        return left.evaluate("write_file", call).effective.source

    assert decided() == "no-vendored-c"
    assert compiled == [str(policy)]  # built once, then read from its entry
    assert decided() == "no-vendored-c"
    assert compiled == [str(policy)]
    policy.write_text(TEAM_POLICY.replace("third_party/**/*.c", "vendor/**"), encoding="utf-8")
    assert decided() == "confirm-file-write"
    assert compiled == [str(policy), str(policy)]
