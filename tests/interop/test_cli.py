"""``toolpolicy export`` and ``toolpolicy import`` as real subprocesses: exit codes, streams."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from .conftest import policy_with_rules, run_cli, write_policy

EXPRESSIBLE = policy_with_rules(
    "  - name: push-asks\n    behavior: ask\n    reason: Pushing needs a human\n"
    "    match: {commands: ['git push']}\n"
)


def test_export_prints_the_file_on_stdout_and_omissions_on_stderr(team: Path) -> None:
    done = run_cli("export", "--to", "gemini-policy", "--policy", str(team), cwd=team.parent)
    assert done.returncode == 0
    assert tomllib.loads(done.stdout)["rule"][0]["toolName"] == ["write_file", "replace"]
    lines = done.stderr.splitlines()
    assert lines[0].startswith("not exported: rule no-secrets (")
    assert all(
        line.split(": ", 1)[0] in {"not exported", "partly exported", "not expressible"}
        for line in lines
    )
    assert "Traceback" not in done.stderr


def test_strict_fails_when_a_rule_is_not_exported(team: Path) -> None:
    done = run_cli(
        "export", "--to", "codex-rules", "--policy", str(team), "--strict", cwd=team.parent
    )
    assert done.returncode == 1
    assert done.stdout.startswith("# Codex execpolicy rules exported by")


def test_strict_passes_when_only_the_selection_and_partial_denies_are_said(tmp_path: Path) -> None:
    path = write_policy(tmp_path, EXPRESSIBLE)
    for dialect in ("claude-settings", "gemini-policy"):
        done = run_cli("export", "--to", dialect, "--policy", str(path), "--strict", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert "not exported:" not in done.stderr
        assert "not expressible: workspace-boundary:" in done.stderr
        assert "partly exported: rule push-asks" in done.stderr
    # Codex has no tool names: P03's own confirm-file-write cannot be exported.
    done = run_cli("export", "--to", "codex-rules", "--policy", str(path), "--strict", cwd=tmp_path)
    assert done.returncode == 1
    assert "not exported: rule confirm-file-write" in done.stderr


def test_export_json_holds_the_file_and_the_omissions(team: Path) -> None:
    done = run_cli(
        "export",
        "--to",
        "claude-settings",
        "--policy",
        str(team),
        "--format",
        "json",
        cwd=team.parent,
    )
    assert done.returncode == 0 and done.stderr == ""
    payload = json.loads(done.stdout)
    assert payload["dialect"] == "claude-settings"
    assert json.loads(payload["content"])["permissions"]["ask"][0] == "Write"
    assert payload["omissions"][0] == {
        "kind": "partial",
        "subject": f"rule push-asks ({team}:10)",
        "detail": payload["omissions"][0]["detail"],
    }
    assert {o["kind"] for o in payload["omissions"]} == {"partial", "dropped", "selection"}


def test_export_usage_and_configuration_errors_exit_2(tmp_path: Path) -> None:
    bad = write_policy(tmp_path, "apiVersion: toolpolicy/v1\nkind: Policy\nname: Bad Name\n")
    done = run_cli("export", "--to", "codex-rules", "--policy", str(bad), cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"{bad}:3:")
    assert run_cli("export", "--to", "cursor", cwd=tmp_path).returncode == 2
    assert run_cli("export", cwd=tmp_path).returncode == 2


def test_import_reads_stdin_and_names_the_policy(tmp_path: Path) -> None:
    settings = json.dumps({"permissions": {"deny": ["Bash(git push:*)"]}})
    done = run_cli("import", "claude-settings", "-", "--name", "ours", cwd=tmp_path, stdin=settings)
    assert done.returncode == 0, done.stderr
    assert "name: ours" in done.stdout.splitlines()
    assert (
        done.stdout.splitlines()[0]
        == "# Imported by `toolpolicy import claude-settings` from stdin."
    )


def test_import_errors_exit_2_with_one_line(tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text("{not json")
    (tmp_path / "other.json").write_text('{"hooks": {}}')
    (tmp_path / "mixed.json").write_text('{"permissions": {"allow": ["Bash", 3]}}')
    for name, message in [
        ("broken.json", "toolpolicy: broken.json: not JSON: "),
        ("other.json", "toolpolicy: other.json: no 'permissions' object"),
        ("mixed.json", "toolpolicy: mixed.json: permissions.allow is not a list of strings"),
    ]:
        done = run_cli("import", "claude-settings", name, cwd=tmp_path)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr.startswith(message) and done.stderr.count("\n") == 1
    done = run_cli("import", "claude-settings", "missing.json", cwd=tmp_path)
    assert done.returncode == 2
    done = run_cli("import", "claude-settings", "other.json", "--name", "Bad", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == "toolpolicy: invalid --name 'Bad': lowercase words joined by - or _\n"


def test_the_dialect_choices_are_the_exporters() -> None:
    from toolpolicy.cli.export_cmd import _DIALECTS
    from toolpolicy.interop import EXPORTERS

    assert tuple(EXPORTERS) == _DIALECTS
