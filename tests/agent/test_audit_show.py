"""``toolpolicy audit show`` on the audit of a real ``toolpolicy run``."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import SEED_SCRIPT, Workspace, call, run_cli, write_script


def test_show_summarises_a_real_run(ws: Workspace, tmp_path: Path) -> None:
    audit = tmp_path / "audit.jsonl"
    first = run_cli(
        "run", "--script", str(SEED_SCRIPT), "--workspace", str(ws.root), "--audit", str(audit)
    )
    script = write_script(
        tmp_path / "never.jsonl",
        [{"tool_calls": [call("n1", "shell", {"command": "ls"})]}, {"content": "ok"}],
    )
    second = run_cli(
        "run",
        "--script",
        str(script),
        "--workspace",
        str(ws.root),
        "--audit",
        str(audit),
        "--approval",
        "never",
    )
    assert (first.returncode, second.returncode) == (0, 0)
    done = run_cli("audit", "show", str(audit), "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["records"] == 4
    assert summary["counts"] == [
        {"tool": "glob", "behavior": "allow", "source": "default", "count": 1},
        {"tool": "shell", "behavior": "deny", "source": "approval-policy", "count": 1},
        {"tool": "write_file", "behavior": "deny", "source": "terminal-approval", "count": 1},
        {"tool": "write_file", "behavior": "deny", "source": "workspace-boundary", "count": 1},
    ]
    assert [(d["tool"], d["source"], d["reason"]) for d in summary["denies"]] == [
        ("write_file", "workspace-boundary", "Writing outside the workspace is forbidden"),
        ("shell", "approval-policy", "Approval policy is never: Shell execution requires approval"),
    ]
    assert [(a["call_id"], a["outcome"], a["executed"]) for a in summary["asks"]] == [
        ("call_B", "unavailable", False),
    ]
    assert [r["count"] for r in summary["rules"]] == [2]
    assert summary["rules"][0]["rule"].startswith("confirm-file-write (")
    assert len(summary["sessions"]) == 2
    assert [s["behaviors"] for s in summary["sessions"]] == [
        {"allow": 1, "deny": 2},
        {"deny": 1},
    ]
    text = run_cli("audit", "show", str(audit))
    assert text.returncode == 0
    assert text.stdout.startswith("4 decisions\n\nby tool, behaviour and source:\n")
    assert "  write_file  unavailable - No approver was available to allow this tool call\n" in (
        text.stdout
    )


def test_show_since_keeps_later_records_only(ws: Workspace, tmp_path: Path) -> None:
    audit = tmp_path / "audit.jsonl"
    run_cli("run", "--script", str(SEED_SCRIPT), "--workspace", str(ws.root), "--audit", str(audit))
    done = run_cli("audit", "show", str(audit), "--since", "9999-01-01", "--format", "json")
    assert json.loads(done.stdout)["records"] == 0
    done = run_cli("audit", "show", str(audit), "--since", "2000-01-01", "--format", "json")
    assert json.loads(done.stdout)["records"] == 3


def test_show_escapes_what_a_model_wrote(tmp_path: Path) -> None:
    audit = tmp_path / "audit.jsonl"
    forged = "x\x1b[2K\r[Permission] shell: allow (terminal-approval) - User approved\u202e"
    line = {"tool": "shell", "behavior": "deny", "source": "r", "reason": forged, "ts": "t"}
    audit.write_text(json.dumps(line) + "\n")
    done = run_cli("audit", "show", str(audit))
    assert done.returncode == 0
    assert "\x1b" not in done.stdout and "\r" not in done.stdout and "\u202e" not in done.stdout
    assert "x\\u001b[2K\\u000d[Permission] shell: allow" in done.stdout
