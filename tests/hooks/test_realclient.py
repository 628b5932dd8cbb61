"""The hook under the real Claude Code, headless and offline (opt in: ``-m realclient``).

Drives ``../shared/realclients/claude-code/run_scenario.py`` (or ``$REALCLIENTS_HARNESS``):
the real ``claude -p`` against a scripted local model, with the hook installed by
``toolpolicy hook install`` exactly as the README says. Skipped when Claude Code is not
installed (``claude`` on PATH or under ``$REALCLIENTS_HOME``); never part of the default run.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.realclient

REPO = Path(__file__).resolve().parents[2]
HARNESS = Path(
    os.environ.get("REALCLIENTS_HARNESS", REPO.parent / "shared" / "realclients" / "claude-code")
)
CACHE = os.environ.get("REALCLIENTS_HOME") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "realclients"
)


def _claude() -> str | None:
    found = shutil.which("claude")
    if found:
        return found
    installed = sorted(
        glob.glob(os.path.join(CACHE, "claude-code-*", "node_modules", ".bin", "claude"))
    )
    return installed[-1] if installed else None


CLAUDE = _claude()
if CLAUDE is None or not (HARNESS / "run_scenario.py").exists():
    pytest.skip("Claude Code or the realclients harness is not installed", allow_module_level=True)

SECRETS = (
    "apiVersion: toolpolicy/v1\nkind: Policy\nname: team\nextends: P03\nrules:\n"
    "  - {name: env, behavior: deny, reason: Secrets stay closed, match: {paths: [.env]}}\n"
)


def _settings(tmp_path: Path, *flags: str, executable: str | None = None) -> dict[str, Any]:
    """The settings `toolpolicy hook install claude-code` writes, read back."""
    target = tmp_path / "settings.json"
    command = [
        sys.executable,
        "-m",
        "toolpolicy",
        "hook",
        "install",
        "claude-code",
        "--settings",
        str(target),
    ]
    if executable:
        command += ["--executable", executable]
    done = subprocess.run([*command, *flags], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    settings: dict[str, Any] = json.loads(target.read_text())
    return settings


def run(tmp_path: Path, scenario: dict[str, Any]) -> dict[str, Any]:
    """Run one scenario; returns the harness's ``observed`` section."""
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps({"name": "toolpolicy", **scenario}))
    done = subprocess.run(
        [
            sys.executable,
            str(HARNESS / "run_scenario.py"),
            str(path),
            "--root",
            str(tmp_path / "root"),
            "--claude",
            str(CLAUDE),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode in (0, 1), done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    observed: dict[str, Any] = result["observed"]
    return observed


def results(observed: dict[str, Any]) -> list[tuple[str, bool, str]]:
    return [(r["tool_name"], r["is_error"], r["text"]) for r in observed["tool_results"]]


def test_every_spelling_of_a_closed_file_is_refused_and_the_rest_runs(tmp_path: Path) -> None:
    policy = tmp_path / "policy.yaml"
    policy.write_text(SECRETS)
    audit = tmp_path / "audit.jsonl"
    settings = _settings(tmp_path, "--policy", str(policy), "--audit", str(audit))
    observed = run(
        tmp_path,
        {
            "project_files": {".env": "KEY=v\n", "README.md": "# demo\n"},
            "settings": settings,
            "script": [
                {"tool_use": [{"name": "Read", "input": {"file_path": "${PROJECT}/.env"}}]},
                {"tool_use": [{"name": "Read", "input": {"file_path": "/proc/self/cwd/.env"}}]},
                {
                    "tool_use": [
                        {"name": "Read", "input": {"file_path": "/proc/self/root${PROJECT}/.env"}}
                    ]
                },
                {"tool_use": [{"name": "Read", "input": {"file_path": "${PROJECT}/README.md"}}]},
                {"tool_use": [{"name": "ToolSearch", "input": {"query": "select:TodoWrite"}}]},
                {
                    "tool_use": [
                        {"name": "TaskCreate", "input": {"subject": "s", "description": "d"}}
                    ]
                },
                {"text": "done"},
            ],
        },
    )
    got = results(observed)
    for tool, is_error, text in got[:3]:
        assert (tool, is_error) == ("Read", True) and "Secrets stay closed" in text
        assert "KEY=v" not in text
    assert got[3][:2] == ("Read", False) and "# demo" in got[3][2]  # no opinion: it runs
    # bookkeeping: never a prompt or a hook's denial (2.1.197 has no ToolSearch, 2.1.332 no
    # TaskCreate in -p: whichever is missing fails on its own, not through the hook)
    for tool, _, text in got[4:6]:
        assert tool in ("ToolSearch", "TaskCreate") and "hook" not in text.lower(), text
    assert any(not is_error for _, is_error, _ in got[4:6])
    assert not observed["permission_prompts"]
    executed = [json.loads(line) for line in audit.read_text().splitlines()]
    assert [r["behavior"] for r in executed if r["event"] == "PostToolUse"] == [
        "executed",
        "executed",
    ]


def test_a_read_outside_is_left_to_claude_codes_own_prompt(tmp_path: Path) -> None:
    settings = _settings(tmp_path, "--audit", str(tmp_path / "audit.jsonl"))
    observed = run(
        tmp_path,
        {
            "settings": settings,
            "approver": {"default": "deny"},
            "script": [
                {"tool_use": [{"name": "Read", "input": {"file_path": "/etc/hostname"}}]},
                {"text": "done"},
            ],
        },
    )
    assert [p["tool_name"] for p in observed["permission_prompts"]] == ["Read"]
    assert results(observed)[0][:2] == ("Read", True)


def test_a_missing_executable_blocks_the_call(tmp_path: Path) -> None:
    settings = _settings(tmp_path, executable=str(tmp_path / "gone" / "toolpolicy"))
    observed = run(
        tmp_path,
        {
            "permission_mode": "acceptEdits",
            "settings": settings,
            "script": [
                {
                    "tool_use": [
                        {
                            "name": "Write",
                            "input": {"file_path": "${PROJECT}/x.txt", "content": "x"},
                        }
                    ]
                },
                {"text": "done"},
            ],
            "expect": {"paths_absent": ["${PROJECT}/x.txt"]},
        },
    )
    assert results(observed)[0][:2] == ("Write", True)
    assert observed["paths"] == {str(tmp_path / "root" / "proj" / "x.txt"): False}


def test_dont_ask_denies_what_would_ask_and_accept_edits_lets_an_edit_run(tmp_path: Path) -> None:
    settings = _settings(tmp_path, "--audit", str(tmp_path / "audit.jsonl"))
    observed = run(
        tmp_path,
        {
            "permission_mode": "dontAsk",
            "settings": settings,
            "script": [
                {"tool_use": [{"name": "Bash", "input": {"command": "touch made-by-bash"}}]},
                {"text": "done"},
            ],
            "expect": {"paths_absent": ["${PROJECT}/made-by-bash"]},
        },
    )
    [(tool, is_error, text)] = results(observed)
    assert (tool, is_error) == ("Bash", True)
    assert "Approval policy is never: Shell execution requires approval" in text
    observed = run(
        tmp_path,
        {
            "permission_mode": "acceptEdits",
            "settings": settings,
            "script": [
                {
                    "tool_use": [
                        {
                            "name": "Write",
                            "input": {"file_path": "${PROJECT}/ok.txt", "content": "x"},
                        }
                    ]
                },
                {"text": "done"},
            ],
        },
    )
    assert results(observed)[0][:2] == ("Write", False)


def test_after_cd_a_write_to_the_project_root_is_not_outside(tmp_path: Path) -> None:
    settings = _settings(tmp_path, "--audit", str(tmp_path / "audit.jsonl"))
    observed = run(
        tmp_path,
        {
            "project_files": {"src/app.py": "print()\n"},
            "settings": settings,
            "approver": {"default": "allow"},
            "script": [
                {"tool_use": [{"name": "Bash", "input": {"command": "cd src"}}]},
                {
                    "tool_use": [
                        {
                            "name": "Write",
                            "input": {"file_path": "${PROJECT}/notes.txt", "content": "x"},
                        }
                    ]
                },
                {"text": "done"},
            ],
        },
    )
    write = results(observed)[1]
    assert write[:2] == ("Write", False), write
    assert "outside the workspace" not in write[2]
