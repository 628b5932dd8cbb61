"""``python -m toolpolicy lint`` as a real subprocess: exit codes, options, never a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from .conftest import INVALID, VALID, run_lint

WARNING_ONLY = INVALID / "allow-anything.yaml"
ERRORS = INVALID / "examples-fail.yaml"


def test_clean_files_exit_0() -> None:
    done = run_lint(str(VALID / "team.yaml"))
    assert (done.code, done.stdout, done.stderr) == (
        0,
        "1 file checked: 0 errors, 0 warnings, 0 infos\n",
        "",
    )


def test_warnings_pass_unless_strict() -> None:
    assert run_lint(str(WARNING_ONLY)).code == 0
    assert run_lint(str(WARNING_ONLY), "--strict").code == 1


def test_infos_pass_even_when_strict() -> None:
    assert run_lint(str(INVALID / "preset-tie.yaml"), "--strict").code == 0


def test_errors_exit_1() -> None:
    done = run_lint(str(ERRORS))
    assert done.code == 1
    assert done.stdout.endswith("1 file checked: 5 errors, 0 warnings, 0 infos\n")


def test_a_missing_path_is_a_usage_error_and_nothing_is_linted() -> None:
    done = run_lint(str(VALID), "no/such/file.yaml")
    assert (done.code, done.stdout) == (2, "")
    assert done.stderr == "toolpolicy: no such file or folder: no/such/file.yaml\n"


def test_an_unknown_format_is_a_usage_error() -> None:
    done = run_lint(str(VALID), "--format", "xml")
    assert done.code == 2
    assert "Invalid value for '--format'" in done.stderr
    assert "Traceback" not in done.stderr


def test_output_writes_the_report_to_a_file(tmp_path: Path) -> None:
    report = tmp_path / "lint.json"
    done = run_lint(str(ERRORS), "--format", "json", "--output", str(report))
    assert (done.code, done.stdout) == (1, "")
    assert json.loads(report.read_text())["summary"]["errors"] == 5


def test_an_output_file_that_cannot_be_written_is_a_usage_error(tmp_path: Path) -> None:
    done = run_lint(str(VALID), "--output", str(tmp_path / "missing" / "out.txt"))
    assert done.code == 2
    assert done.stderr.startswith("toolpolicy: cannot write ")


def test_builtin_lints_the_shipped_profiles_and_presets() -> None:
    done = run_lint("--builtin", "--format", "json")
    assert done.code == 0
    assert json.loads(done.stdout) == {
        "findings": [],
        "summary": {"files": 4, "errors": 0, "warnings": 0, "infos": 0},
    }


def test_verbose_says_which_yaml_was_skipped() -> None:
    quiet = run_lint(str(VALID))
    loud = run_lint(str(VALID), "--verbose")
    assert quiet.stderr == ""
    skipped = VALID / "README.yaml"
    assert loud.stderr == "".join(
        f"toolpolicy: linting {VALID / name}.yaml\n"
        for name in ("base", "child", "presets", "suppressed", "team")
    ) + (
        f"toolpolicy: skipped {skipped}: "
        "not a toolpolicy document (no apiVersion: toolpolicy/...)\n"
    )
    assert loud.stdout == quiet.stdout


def test_no_path_lints_the_current_folder(tmp_path: Path) -> None:
    (tmp_path / "deep" / "er").mkdir(parents=True)
    (tmp_path / "deep" / "er" / "p.yml").write_bytes((INVALID / "never-matches.yaml").read_bytes())
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "p.yaml").write_bytes(ERRORS.read_bytes())
    done = run_lint("--strict", cwd=tmp_path)
    assert done.code == 1
    assert done.stdout.splitlines()[0].startswith("deep/er/p.yml:8:5: warning never-matches ")
    assert done.stdout.endswith("1 file checked: 0 errors, 3 warnings, 0 infos\n")


def test_a_named_file_is_linted_even_without_apiversion(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("")
    done = run_lint(str(path))
    assert done.code == 1
    assert done.stdout.startswith(f"{path}:1:1: error empty ")


def test_a_folder_named_as_a_file_path_is_a_read_error_finding(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    done = run_lint(str(fifo))
    assert done.code == 1
    assert done.stdout.startswith(
        f"{fifo}:1:1: error read-error cannot read the file: not a regular file"
    )


def test_symlinked_folders_are_not_followed(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "p.yaml").write_bytes(ERRORS.read_bytes())
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "link").symlink_to(real, target_is_directory=True)
    done = run_lint(str(tree))
    assert (done.code, done.stdout) == (0, "0 files checked: 0 errors, 0 warnings, 0 infos\n")


@pytest.mark.parametrize("name", ["loader-all-at-once.yaml", "examples-fail.yaml"])
def test_errors_never_print_a_traceback(name: str) -> None:
    done = run_lint(str(INVALID / name), "--format", "sarif")
    assert done.code == 1
    assert "Traceback" not in done.stdout + done.stderr
    assert json.loads(done.stdout)["version"] == "2.1.0"


def test_the_pre_commit_hooks_run_the_lint_command() -> None:
    import yaml

    root = Path(__file__).resolve().parents[2]
    hooks = yaml.safe_load((root / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in hooks] == ["toolpolicy-lint", "toolpolicy-lint-strict"]
    for hook in hooks:
        assert hook["language"] == "python"
        assert hook["pass_filenames"] is False
        assert hook["entry"].split()[:2] == ["toolpolicy", "lint"]
    strict = run_lint(*hooks[1]["entry"].split()[2:], cwd=VALID)
    assert strict.code == 0


def test_agent_names_the_agents_whose_tool_names_are_known(tmp_path: Path) -> None:
    policy = tmp_path / "web.yaml"
    policy.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: web\nextends: P03\nrules:\n"
        "  - {name: web, behavior: ask, reason: Web, match: {tools: [WebFetch, TodoWrit]}}\n"
    )
    done = run_lint("--strict", "--agent", "claude-code", str(policy))
    assert done.code == 1
    assert done.stdout.splitlines() == [
        f"{policy}:6:71: warning unknown-tool rule 'web' names unknown tool 'TodoWrit', so it "
        "never matches that name; did you mean 'TodoWrite'?",
        "1 file checked: 0 errors, 1 warning, 0 infos",
    ]
    unknown_agent = run_lint("--agent", "nobody", str(policy))
    assert unknown_agent.code == 2
    assert "Invalid value for '--agent'" in unknown_agent.stderr
