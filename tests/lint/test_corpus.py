"""The folders of valid and invalid policy files: each invalid file states its findings
(code and line) and gets exactly those; each valid file gets none at all."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from toolpolicy.lint import Finding, Severity, lint_paths, severity_of

from .conftest import INVALID, VALID, expected_findings, run_lint

INVALID_FILES = sorted(INVALID.glob("*.yaml"))
VALID_FILES = sorted(p for p in VALID.glob("*.yaml") if p.name != "README.yaml")


@pytest.fixture(scope="module")
def invalid_findings() -> dict[str, list[Finding]]:
    by_path: dict[str, list[Finding]] = defaultdict(list)
    for finding in lint_paths([str(INVALID)]).findings:
        by_path[str(Path(finding.path).resolve())].append(finding)
    return by_path


def test_the_corpora_are_not_empty() -> None:
    assert len(INVALID_FILES) >= 14
    assert len(VALID_FILES) >= 5
    assert all(expected_findings(p) for p in INVALID_FILES)


@pytest.mark.parametrize("path", INVALID_FILES, ids=lambda p: p.name)
def test_an_invalid_file_gets_exactly_the_findings_it_states(
    path: Path, invalid_findings: dict[str, list[Finding]]
) -> None:
    found = sorted((f.code, f.line) for f in invalid_findings[str(path.resolve())])
    assert found == expected_findings(path)


@pytest.mark.parametrize("path", VALID_FILES, ids=lambda p: p.name)
def test_a_valid_file_gets_no_finding_at_all(path: Path) -> None:
    result = lint_paths([str(path)])
    assert result.findings == ()
    assert result.files == (str(path),)


def test_the_folder_walk_skips_yaml_that_is_not_a_policy() -> None:
    result = lint_paths([str(VALID)])
    assert result.skipped == (str(VALID / "README.yaml"),)
    assert sorted(result.files) == sorted(str(p) for p in VALID_FILES)


def test_every_finding_code_of_the_corpus_is_a_registered_code() -> None:
    from toolpolicy.lint import REGISTRY

    codes = {code for path in INVALID_FILES for code, _ in expected_findings(path)}
    assert codes <= set(REGISTRY)
    assert {
        "example-failed",
        "unknown-tool",
        "shadowed-allow",
        "identical-rule",
        "outside-workspace",
        "never-matches",
        "allow-anything",
        "preset-tie",
        "invalid-pattern",
        "extends-cycle",
    } <= codes


def test_the_valid_folder_exits_0_and_the_invalid_folder_exits_1() -> None:
    valid = run_lint(str(VALID))
    invalid = run_lint(str(INVALID))
    assert (valid.code, valid.stderr) == (0, "")
    assert valid.stdout == "5 files checked: 0 errors, 0 warnings, 0 infos\n"
    assert invalid.code == 1
    stated = [severity_of(code) for path in INVALID_FILES for code, _ in expected_findings(path)]
    errors, warnings, infos = (
        stated.count(s) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)
    )
    assert (errors, warnings, infos) == (20, 25, 1)
    assert invalid.stdout.endswith(
        f"{len(INVALID_FILES)} files checked: {errors} errors, {warnings} warnings, 1 info\n"
    )
    assert "Traceback" not in invalid.stderr + invalid.stdout


def test_the_walk_finds_policies_by_their_apiversion_in_any_style(tmp_path: Path) -> None:
    from toolpolicy.lint import discover

    (tmp_path / "flow.yaml").write_text("{kind: Policy, apiVersion: toolpolicy/v1, name: x}\n")
    (tmp_path / "quoted.yml").write_text('"apiVersion": "toolpolicy/v1"\n')
    (tmp_path / "k8s.yaml").write_text("apiVersion: apps/v1\nkind: Deployment\n")
    (tmp_path / "notes.txt").write_text("apiVersion: toolpolicy/v1\n")
    found = discover([str(tmp_path)])
    assert found.files == (str(tmp_path / "flow.yaml"), str(tmp_path / "quoted.yml"))
    assert [s.path for s in found.skipped] == [str(tmp_path / "k8s.yaml")]
