"""``toolpolicy init``: a commented starter policy that passes ``lint --strict``, written
without ever replacing a file unless asked. The real CLI in a subprocess, real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolpolicy.cli.init_cmd import STARTERS

from .conftest import Run, run_lint, run_toolpolicy

CLEAN_REPORT = "1 file checked: 0 errors, 0 warnings, 0 infos\n"


def run_init(*args: str, cwd: Path) -> Run:
    return run_toolpolicy("init", *args, cwd=cwd)


@pytest.mark.parametrize("agent", sorted(STARTERS))
def test_the_starter_is_written_linted_and_passes_strict_lint(agent: str, tmp_path: Path) -> None:
    done = run_init("--agent", agent, cwd=tmp_path)
    assert (done.code, done.stdout) == (0, CLEAN_REPORT)
    assert done.stderr.startswith("toolpolicy: wrote toolpolicy.yaml\n")
    written = tmp_path / "toolpolicy.yaml"
    text = written.read_text()
    assert text.startswith("# yaml-language-server: $schema=toolpolicy.schema.json\n")
    strict = run_lint("--strict", "--format", "json", str(written))
    assert strict.code == 0
    assert json.loads(strict.stdout)["findings"] == []
    assert text.count("\n  - call:") + text.count("\n    call:") >= 6  # examples, run above


def test_the_examples_are_really_decided(tmp_path: Path) -> None:
    written = tmp_path / "toolpolicy.yaml"
    written.write_text(STARTERS["generic"].replace("source: confirm-push", "source: look-around"))
    done = run_lint(str(written))
    assert done.code == 1
    assert "error example-failed example shell" in done.stdout


def test_the_claude_code_starter_speaks_in_claude_codes_tool_names(tmp_path: Path) -> None:
    done = run_init("--agent", "claude-code", cwd=tmp_path)
    assert done.stderr == (
        "toolpolicy: wrote toolpolicy.yaml\n"
        "toolpolicy: to use it in Claude Code: "
        "toolpolicy hook install claude-code --project --policy toolpolicy.yaml\n"
    )
    text = (tmp_path / "toolpolicy.yaml").read_text()
    for mapping in (
        "Bash -> shell",
        "Read -> read_file",
        "Write -> write_file",
        "Edit and MultiEdit -> edit_file",
        "Grep, Glob and LS are reads",
    ):
        assert mapping in text
    install = "toolpolicy hook install claude-code --project --policy toolpolicy.yaml"
    assert f"#   {install}\n" in text
    assert ".claude/settings.json" in text
    assert "claude" not in STARTERS["generic"].lower()


def test_the_file_name_is_used_in_the_comments(tmp_path: Path) -> None:
    assert run_init("team.yaml", cwd=tmp_path).code == 0
    assert "#   toolpolicy lint team.yaml " in (tmp_path / "team.yaml").read_text()
    assert not (tmp_path / "toolpolicy.yaml").exists()


def test_a_folder_gets_a_toolpolicy_yaml_inside(tmp_path: Path) -> None:
    (tmp_path / "policy").mkdir()
    done = run_init("policy", cwd=tmp_path)
    assert (done.code, done.stderr) == (0, "toolpolicy: wrote policy/toolpolicy.yaml\n")
    assert (tmp_path / "policy" / "toolpolicy.yaml").is_file()


def test_an_existing_file_is_never_replaced_without_force(tmp_path: Path) -> None:
    existing = tmp_path / "toolpolicy.yaml"
    existing.write_text("mine\n")
    done = run_init(cwd=tmp_path)
    assert (done.code, done.stdout, done.stderr) == (
        2,
        "",
        "toolpolicy: toolpolicy.yaml exists; pass --force to replace it\n",
    )
    assert existing.read_text() == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["toolpolicy.yaml"]  # no leftovers


def test_force_replaces_the_file(tmp_path: Path) -> None:
    existing = tmp_path / "toolpolicy.yaml"
    existing.write_text("mine\n")
    done = run_init("--force", cwd=tmp_path)
    assert (done.code, done.stdout) == (0, CLEAN_REPORT)
    assert existing.read_text() == STARTERS["generic"].replace("{name}", "toolpolicy.yaml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["toolpolicy.yaml"]


def test_a_symlink_is_neither_followed_nor_replaced_without_force(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    link = tmp_path / "toolpolicy.yaml"
    link.symlink_to(target)  # dangling: creating through it would create elsewhere.txt
    assert run_init(cwd=tmp_path).code == 2
    assert not target.exists()
    target.write_text("keep\n")
    assert run_init("--force", cwd=tmp_path).code == 0
    assert target.read_text() == "keep\n"  # the link was replaced, not what it points to
    assert not link.is_symlink()


def test_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    done = run_init("no/such/p.yaml", cwd=tmp_path)
    assert (done.code, done.stdout, done.stderr) == (2, "", "toolpolicy: no such folder: no/such\n")


def test_a_place_that_cannot_be_written_is_a_usage_error(tmp_path: Path) -> None:
    done = run_init("/proc/toolpolicy.yaml", cwd=tmp_path)
    assert done.code == 2
    assert done.stderr.startswith("toolpolicy: cannot write /proc/toolpolicy.yaml: ")
    assert "Traceback" not in done.stderr


def test_an_unknown_agent_is_a_usage_error(tmp_path: Path) -> None:
    done = run_init("--agent", "vim", cwd=tmp_path)
    assert done.code == 2
    assert "Invalid value for '--agent'" in done.stderr
    assert not (tmp_path / "toolpolicy.yaml").exists()


def test_init_is_listed_and_loaded_only_when_it_runs() -> None:
    code = (
        "import sys\n"
        "from toolpolicy.cli.app import app\n"
        "import click\n"
        "print(sorted(app.list_commands(click.Context(app))))\n"
        "print('toolpolicy.cli.init_cmd' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    listed, loaded = done.stdout.splitlines()
    assert "'init'" in listed
    assert loaded == "False"


def test_a_starter_with_a_lint_error_is_written_and_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the shipped starters are clean (above); this pins what exit 1 means should one break
    from click.testing import CliRunner

    from toolpolicy.cli import init_cmd

    broken = STARTERS["generic"].replace("source: confirm-push", "source: look-around")
    monkeypatch.setitem(init_cmd.STARTERS, "generic", broken)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(init_cmd.init_cmd, [], standalone_mode=False)
    assert result.return_value == 1  # the exit code run_app gives
    assert "error example-failed" in result.output
    assert (tmp_path / "toolpolicy.yaml").read_text() == broken.replace("{name}", "toolpolicy.yaml")


def test_the_claude_code_install_line_it_suggests_works(tmp_path: Path) -> None:
    assert run_init("--agent", "claude-code", cwd=tmp_path).code == 0
    environment = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}
    install = ["hook", "install", "claude-code", "--project", "--policy", "toolpolicy.yaml"]
    installed = subprocess.run(
        [sys.executable, "-m", "toolpolicy", *install],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr
    settings = json.loads((tmp_path / ".claude" / "settings.json").read_text())
    assert str(tmp_path / "toolpolicy.yaml") in json.dumps(settings)
