"""`toolpolicy check` and `toolpolicy explain` as a user runs them (real subprocesses)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def _run(*args: str, cwd: Path, stdin: str | None = None, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLPOLICY_")}
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "toolpolicy", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=full_env,
    )


def test_check_prints_the_boundary_denial(tmp_path: Path) -> None:
    done = _run("check", "write_file", '{"path": "../outside.txt", "content": "x"}', cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == (
        "deny (workspace-boundary) - Writing outside the workspace is forbidden"
    )
    assert not (tmp_path.parent / "outside.txt").exists()


def test_check_json_has_the_documented_fields(tmp_path: Path) -> None:
    done = _run(
        "check", "write_file", '{"path": "a.txt", "content": "x"}', "--format", "json", cwd=tmp_path
    )
    out = json.loads(done.stdout)
    assert {
        k: out[k] for k in ("tool", "behavior", "source", "reason", "preset", "sandbox", "approval")
    } == {
        "tool": "write_file",
        "behavior": "ask",
        "source": "confirm-file-write",
        "reason": "File writes require explicit approval from chapter 3 onward",
        "preset": "workspace-write",
        "sandbox": "workspace-write",
        "approval": "ask",
    }
    assert out["arguments"] == {"path": "a.txt", "content": "x"}
    assert out["matched_rules"][0].startswith("confirm-file-write (")


def test_check_reads_arguments_from_stdin(tmp_path: Path) -> None:
    done = _run("check", "shell", "-", "--format", "json", cwd=tmp_path, stdin='{"command": "ls"}')
    assert json.loads(done.stdout)["source"] == "shell-default"


def test_check_uses_the_environment_for_profile_and_preset(tmp_path: Path) -> None:
    done = _run(
        "check",
        "shell",
        '{"command": "ls"}',
        "--format",
        "json",
        cwd=tmp_path,
        env={"TOOLPOLICY_PROFILE": "P01", "TOOLPOLICY_PRESET": "danger-full-access"},
    )
    out = json.loads(done.stdout)
    assert (out["behavior"], out["source"], out["preset"]) == (
        "deny",
        "approval-policy",
        "danger-full-access",
    )


def test_direct_knobs_show_a_custom_preset(tmp_path: Path) -> None:
    done = _run(
        "check",
        "glob",
        '{"pattern": "*"}',
        "--sandbox",
        "read-only",
        "--approval",
        "never",
        "--format",
        "json",
        cwd=tmp_path,
    )
    assert json.loads(done.stdout)["preset"] == "custom"


@pytest.mark.parametrize(
    ("args", "code", "result"),
    [
        (["rm_rf", "{}"], "unknown_tool", "Error [unknown_tool]: Unknown tool: rm_rf"),
        (
            ["read_file", "{nope"],
            "invalid_json",
            "Error [invalid_json]: Tool arguments are not valid JSON",
        ),
        (
            ["read_file", '{"path": "a", "x": 1}'],
            "invalid_arguments",
            "Error [invalid_arguments]: unexpected argument: x",
        ),
    ],
)
def test_a_call_that_fails_preparation_exits_1_with_the_model_text(
    tmp_path: Path, args: list[str], code: str, result: str
) -> None:
    done = _run("check", *args, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        f"{code}: the call fails before any permission check",
        f"tool result: {result}",
    ]


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--profile", "P09"], "toolpolicy: unknown profile: P09"),
        (["--preset", "nope"], "toolpolicy: unknown preset: nope"),
        (["--preset", "custom"], "toolpolicy: custom cannot be selected"),
        (["--policy", "missing.yaml"], "missing.yaml"),
    ],
)
def test_configuration_errors_exit_2_without_a_traceback(
    tmp_path: Path, flags: list[str], message: str
) -> None:
    done = _run("check", "glob", '{"pattern": "*"}', *flags, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_an_invalid_policy_file_lists_every_problem_with_its_line(tmp_path: Path) -> None:
    policy = tmp_path / "bad.yaml"
    policy.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: bad\nrules:\n"
        "  - name: default\n    behavior: allow\n    reason: x\n    match: {tools: [shell]}\n"
        "  - name: r2\n    behavior: perhaps\n    reason: y\n    match: {tools: [shell]}\n"
    )
    done = _run("check", "glob", "{}", "--policy", str(policy), cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) >= 2, done.stderr
    assert all(line.startswith(f"{policy}:") for line in lines)
    assert "Traceback" not in done.stderr


def test_explain_walks_the_seed_call_c(tmp_path: Path) -> None:
    done = _run(
        "explain",
        "write_file",
        '{"path": "../outside.txt", "content": "x"}',
        "--format",
        "json",
        cwd=tmp_path,
    )
    out = json.loads(done.stdout)
    steps = {s["step"]: s for s in out["steps"]}
    assert steps["workspace-boundary"]["behavior"] == "deny"
    assert steps["rule confirm-file-write"]["behavior"] == "ask"
    assert steps["approval"]["detail"] == "not asked: the call is denied, no one sees a prompt"
    assert steps["handler"]["detail"] == "does not run"
    assert steps["tool result"]["detail"] == (
        "Error [permission_denied]: Writing outside the workspace is forbidden"
    )
    assert out["decision"]["source"] == "workspace-boundary"


def test_explain_text_for_the_seed_call_a(tmp_path: Path) -> None:
    done = _run("explain", "glob", '{"pattern": "src/**/*.py"}', cwd=tmp_path)
    assert done.returncode == 0
    text = done.stdout
    assert "no candidate: passthrough" in text
    assert "[Permission] glob: allow (default) - No permission rule blocked the request" in text


def test_explain_says_which_answers_run_an_asked_call(tmp_path: Path) -> None:
    done = _run("explain", "shell", '{"command": "ls"}', cwd=tmp_path)
    assert done.returncode == 0
    lines = [line.split(None, 2)[2] for line in done.stdout.splitlines()]
    assert lines[5] == (
        "would be asked (approval policy ask); only allowed-once (or allowed-session, "
        "for this exact call) runs the call, anything else denies it"
    )
    assert lines[7] == "runs only after an allowed-once or allowed-session answer"
