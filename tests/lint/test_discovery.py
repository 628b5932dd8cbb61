"""``toolpolicy lint`` with no PATH lints the project's policy files: git's list of files
(so .gitignore counts), a careful .gitignore reading without git, and the exclude settings.
Real git repositories in temporary folders, the real CLI in a subprocess."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from toolpolicy.core.errors import ConfigurationError
from toolpolicy.lint import discover_project

from .conftest import INVALID, VALID, run_lint

CLEAN = (VALID / "team.yaml").read_bytes()
BROKEN = (INVALID / "examples-fail.yaml").read_bytes()
NOT_OURS = "not a toolpolicy document (no apiVersion: toolpolicy/...)"
CLEAN_REPORT = "1 file checked: 0 errors, 0 warnings, 0 infos\n"

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _tree(root: Path, files: dict[str, bytes | str]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content)
        else:
            path.write_bytes(content)
    return root


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=root,
        check=True,
        capture_output=True,
    )


def _project(tmp_path: Path, files: dict[str, bytes | str], *, commit: bool = True) -> Path:
    root = _tree(tmp_path / "project", files)
    _git(root, "init", "-q")
    if commit:
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", "start")
    return root


def _files(root: Path) -> list[str]:
    here = os.getcwd()
    os.chdir(root)
    try:
        return list(discover_project().files)
    finally:
        os.chdir(here)


@needs_git
def test_gitignored_policies_are_not_linted_and_untracked_ones_are(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        {
            ".gitignore": "build/\n*.local.yaml\n",
            "policy/team.yaml": CLEAN,
            "build/copy.yaml": BROKEN,
            "policy/mine.local.yaml": BROKEN,
            "notes/k8s.yaml": "apiVersion: apps/v1\nkind: Deployment\n",
        },
    )
    (root / "policy" / "new.yaml").write_bytes(CLEAN.replace(b"name: team", b"name: new"))
    assert _files(root) == ["policy/new.yaml", "policy/team.yaml"]
    done = run_lint(cwd=root)
    assert (done.code, done.stdout) == (0, "2 files checked: 0 errors, 0 warnings, 0 infos\n")


@needs_git
def test_verbose_says_how_files_were_found_and_why_each_other_was_skipped(
    tmp_path: Path,
) -> None:
    root = _project(
        tmp_path,
        {
            ".gitignore": "build/\n",
            "pyproject.toml": '[tool.toolpolicy]\nexclude = ["tests/"]\n',
            "policy/team.yaml": CLEAN,
            "build/copy.yaml": BROKEN,
            "tests/fixture.yaml": BROKEN,
            "notes/k8s.yaml": "apiVersion: apps/v1\n",
        },
    )
    done = run_lint("-v", cwd=root)
    assert done.code == 0
    assert done.stderr.splitlines() == [
        "toolpolicy: listed the files under . with git ls-files (.gitignore honoured)",
        "toolpolicy: settings from pyproject.toml [tool.toolpolicy]: exclude tests/",
        "toolpolicy: linting policy/team.yaml",
        f"toolpolicy: skipped notes/k8s.yaml: {NOT_OURS}",
        "toolpolicy: skipped tests/fixture.yaml: "
        "excluded by 'tests/' (pyproject.toml [tool.toolpolicy])",
        "toolpolicy: skipped build/: ignored by git (.gitignore)",
    ]
    assert run_lint(cwd=root).stderr == ""


@needs_git
def test_a_dot_toolpolicy_file_sets_exclude_and_wins_over_pyproject(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        {
            ".toolpolicy.yaml": "exclude:\n  - fixtures/\n  - '*.sample.yaml'\n",
            "pyproject.toml": '[tool.toolpolicy]\nexclude = ["policy/"]\n',
            "policy/team.yaml": CLEAN,
            "policy/team.sample.yaml": BROKEN,
            "a/fixtures/bad.yaml": BROKEN,
        },
    )
    assert _files(root) == ["policy/team.yaml"]


@needs_git
def test_in_a_subfolder_the_settings_above_apply_relative_to_their_folder(
    tmp_path: Path,
) -> None:
    root = _project(
        tmp_path,
        {
            "pyproject.toml": '[tool.toolpolicy]\nexclude = ["policy/old/"]\n',
            "policy/team.yaml": CLEAN,
            "policy/old/team.yaml": BROKEN,
            "other/team.yaml": BROKEN,
        },
    )
    assert _files(root / "policy") == ["team.yaml"]
    done = run_lint(cwd=root / "policy")
    assert done.stdout == "1 file checked: 0 errors, 0 warnings, 0 infos\n"


@needs_git
def test_a_named_path_is_linted_whatever_the_exclusions(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        {
            ".gitignore": "build/\n",
            "pyproject.toml": '[tool.toolpolicy]\nexclude = ["tests/"]\n',
            "tests/fixture.yaml": BROKEN,
            "build/copy.yaml": BROKEN,
        },
    )
    assert run_lint(cwd=root).stdout == "0 files checked: 0 errors, 0 warnings, 0 infos\n"
    assert run_lint("tests", cwd=root).code == 1
    assert run_lint("build/copy.yaml", cwd=root).code == 1


@needs_git
def test_a_tracked_file_deleted_from_the_work_tree_is_not_read(tmp_path: Path) -> None:
    root = _project(tmp_path, {"a.yaml": CLEAN, "b.yaml": BROKEN})
    (root / "b.yaml").unlink()
    assert _files(root) == ["a.yaml"]


@needs_git
def test_listing_the_files_runs_no_command_from_the_repository_config(tmp_path: Path) -> None:
    # plain `git ls-files` runs a configured core.fsmonitor command; lint must not
    root = _project(tmp_path, {"policy/team.yaml": CLEAN})
    ran = tmp_path / "RAN"
    _git(root, "config", "core.fsmonitor", f"touch {ran}; false")
    done = run_lint("-v", cwd=root)
    assert (done.code, done.stdout) == (0, CLEAN_REPORT)
    assert not ran.exists()


def test_without_git_the_gitignore_files_are_read_on_the_way_down(tmp_path: Path) -> None:
    root = _tree(
        tmp_path / "plain",
        {
            ".gitignore": "# generated\nbuild/\n",
            "sub/.gitignore": "*.local.yaml\n",
            "policy/team.yaml": CLEAN,
            "build/copy.yaml": BROKEN,
            "sub/x.local.yaml": BROKEN,
            "sub/team.yaml": CLEAN,
        },
    )
    done = run_lint("-v", cwd=root, env={"PATH": ""})  # no git to be found
    assert done.code == 0
    assert done.stderr.splitlines() == [
        "toolpolicy: no git work tree: walked ., reading its .gitignore files",
        "toolpolicy: linting policy/team.yaml",
        "toolpolicy: linting sub/team.yaml",
        "toolpolicy: skipped build/: ignored by 'build/' (.gitignore)",
        "toolpolicy: skipped sub/x.local.yaml: ignored by '*.local.yaml' (sub/.gitignore)",
    ]


def test_without_git_a_gitignore_with_a_negation_is_not_applied(tmp_path: Path) -> None:
    root = _tree(
        tmp_path / "plain",
        {".gitignore": "*.yaml\n!keep.yaml\n", "keep.yaml": CLEAN, "other.yaml": BROKEN},
    )
    done = run_lint("-v", cwd=root, env={"PATH": ""})
    assert done.code == 1  # other.yaml is linted: when in doubt, lint
    assert "toolpolicy: .gitignore not applied: it has a '!' negation, which needs git" in (
        done.stderr.splitlines()
    )


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        (
            ".toolpolicy.yaml",
            "exclude: [tests/]\nexlcude: [x]\n",
            ".toolpolicy.yaml:2:1: unknown key 'exlcude' (known: exclude)",
        ),
        (
            ".toolpolicy.yaml",
            "exclude: tests/\n",
            ".toolpolicy.yaml:1:10: exclude must be a list of glob strings",
        ),
        (
            "pyproject.toml",
            '[tool.toolpolicy]\nexclude = ["/etc/[z-a]"]\n',
            "pyproject.toml [tool.toolpolicy] exclude: invalid glob '/etc/[z-a]': "
            "reversed range 'z-a'",
        ),
        (
            "pyproject.toml",
            '[tool.toolpolicy]\nexcludes = ["tests/"]\n',
            "pyproject.toml [tool.toolpolicy]: unknown key 'excludes' (known: exclude)",
        ),
    ],
)
def test_a_wrong_setting_is_a_usage_error_naming_the_file(
    tmp_path: Path, name: str, content: str, message: str
) -> None:
    root = _tree(tmp_path / "p", {name: content, "team.yaml": CLEAN})
    done = run_lint(cwd=root)
    assert (done.code, done.stdout, done.stderr) == (2, "", f"toolpolicy: {message}\n")
    with pytest.raises(ConfigurationError):
        here = os.getcwd()
        os.chdir(root)
        try:
            discover_project()
        finally:
            os.chdir(here)


def test_a_pyproject_without_our_table_is_no_setting(tmp_path: Path) -> None:
    root = _tree(tmp_path / "p", {"pyproject.toml": "[tool.ruff]\nline-length = 1\n"})
    done = run_lint("-v", cwd=root, env={"PATH": ""})
    assert (done.code, done.stdout) == (0, "0 files checked: 0 errors, 0 warnings, 0 infos\n")
    assert "settings from" not in done.stderr
