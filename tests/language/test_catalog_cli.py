"""toolpolicy profiles, presets and schema."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from toolpolicy.cli.catalog import presets_cmd, profiles_cmd, schema_cmd
from toolpolicy.language import load_schema

_CLI = click.Group("toolpolicy", commands=[profiles_cmd, presets_cmd, schema_cmd])


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(_CLI, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_profiles_lists_the_three_built_ins_as_a_table() -> None:
    code, out, err = _run("profiles")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == ["NAME", "CHAPTER", "CAPABILITIES", "TOOLS", "DESCRIPTION"]
    assert [line.split()[0] for line in lines[1:]] == ["P01", "P02", "P03"]
    assert lines[3].endswith("Permissions before side effects")


def test_profiles_as_json() -> None:
    code, out, _ = _run("profiles", "--format", "json")
    assert code == 0
    assert json.loads(out) == [
        {
            "name": "P01",
            "chapter": 1,
            "capabilities": ["loop", "powershell"],
            "tools": ["shell"],
            "description": "The agent loop with a PowerShell tool; every shell call asks",
        },
        {
            "name": "P02",
            "chapter": 2,
            "capabilities": ["loop", "powershell", "tool_registry", "files"],
            "tools": ["shell", "read_file", "write_file", "edit_file", "glob"],
            "description": "A tool registry with file tools; file writes need no approval",
        },
        {
            "name": "P03",
            "chapter": 3,
            "capabilities": ["loop", "powershell", "tool_registry", "files", "policy"],
            "tools": ["shell", "read_file", "write_file", "edit_file", "glob"],
            "description": "Permissions before side effects",
        },
    ]


def test_presets_marks_the_default_in_the_table() -> None:
    code, out, _ = _run("presets")
    assert code == 0
    rows = [line.split()[:4] for line in out.splitlines()]
    assert rows[0] == ["NAME", "SANDBOX", "APPROVAL", "DESCRIPTION"]
    assert rows[1][:4] == ["workspace-write", "*", "workspace-write", "ask"]
    assert rows[2][:3] == ["danger-full-access", "danger-full-access", "never"]
    assert rows[3][:3] == ["read-only", "read-only", "ask"]


def test_presets_as_json() -> None:
    code, out, _ = _run("presets", "--format", "json")
    assert code == 0
    entries = json.loads(out)
    assert [(e["name"], e["sandbox"], e["approval"], e["default"]) for e in entries] == [
        ("workspace-write", "workspace-write", "ask", True),
        ("danger-full-access", "danger-full-access", "never", False),
        ("read-only", "read-only", "ask", False),
    ]
    assert all(set(e) == {"name", "sandbox", "approval", "default", "description"} for e in entries)
    assert all(e["description"] for e in entries)


def test_presets_reads_a_table_file(tmp_path: Path) -> None:
    table = tmp_path / "team.yaml"
    table.write_text(
        "apiVersion: toolpolicy/v1\nkind: PresetTable\ndefault: ci\n"
        "presets:\n  ci: {sandbox: workspace-write, approval: never}\n",
        encoding="utf-8",
    )
    code, out, _ = _run("presets", "--presets", str(table), "--format", "json")
    assert code == 0
    assert json.loads(out) == [
        {
            "name": "ci",
            "sandbox": "workspace-write",
            "approval": "never",
            "default": True,
            "description": "",
        }
    ]


def test_a_broken_table_prints_one_line_per_problem_and_exits_2(tmp_path: Path) -> None:
    table = tmp_path / "team.yaml"
    table.write_text(
        "apiVersion: toolpolicy/v1\nkind: PresetTable\ndefault: nope\n"
        "presets:\n  custom: {sandbox: read-only, approval: ask}\n",
        encoding="utf-8",
    )
    code, out, err = _run("presets", "--presets", str(table))
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"{table}:3:10: the default preset 'nope' names no row of this table (rows: custom)",
        f"{table}:5:3: custom is reserved for the derived not-a-preset state",
    ]
    assert "Traceback" not in err


def test_a_missing_table_exits_2_without_a_traceback(tmp_path: Path) -> None:
    code, out, err = _run("presets", "--presets", str(tmp_path / "none.yaml"))
    assert (code, out) == (2, "")
    assert err == f"{tmp_path / 'none.yaml'}:1:1: cannot read the file: No such file or directory\n"


def test_a_policy_is_not_a_preset_table(tmp_path: Path) -> None:
    policy = tmp_path / "team.yaml"
    policy.write_text("apiVersion: toolpolicy/v1\nkind: Policy\nname: team\n", encoding="utf-8")
    code, _, err = _run("presets", "--presets", str(policy))
    assert code == 2
    assert err == f"{policy}:1:1: expected a PresetTable document, found a Policy\n"


def test_schema_prints_the_json_schema() -> None:
    code, out, _ = _run("schema")
    assert code == 0
    assert json.loads(out) == load_schema()


@pytest.mark.parametrize("command", ["profiles", "presets", "schema"])
def test_every_command_explains_itself(command: str) -> None:
    code, out, _ = _run(command, "--help")
    assert code == 0
    assert "Example" in out


def test_the_commands_are_registered_on_the_real_app() -> None:
    import click

    from toolpolicy.cli.app import app

    context = click.Context(app)
    assert {"profiles", "presets", "schema"} <= set(app.list_commands(context))
    for name in ("profiles", "presets", "schema"):
        assert app.get_command(context, name) is not None
