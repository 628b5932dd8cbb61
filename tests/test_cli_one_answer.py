"""A process started as the console script to give one answer (the hook, a plain ``check``)
runs without cyclic garbage collection; any other command, and ``check`` handed to click,
collects as usual. (Issue 14: the collector re-scanned the objects that importing the
decision path creates, about 0.8 ms of a warm hook call.)

Each case runs the installed command's own script (``scripts/toolpolicy_command.py``) in a
fresh interpreter that reports every collection the collector starts from its first line on:
the script turns collection off before it imports anything of toolpolicy.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

COMMAND = Path(__file__).resolve().parents[1] / "scripts" / "toolpolicy_command.py"

# The command's script, compiled; the collector's counts emptied; from then on a collection
# is reported on stderr as it starts; then the script runs.
SCRIPT = f"""
import gc, os, sys
sys.argv = [{str(COMMAND)!r}, *sys.argv[1:]]
code = compile(open(sys.argv[0]).read(), sys.argv[0], "exec")
gc.collect()
gc.callbacks.append(lambda phase, info: phase == "start" and os.write(2, b"collected\\n"))
exec(code, {{"__name__": "__main__"}})
"""


def _run(args: list[str], tmp_path: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLPOLICY_", "CLAUDE_"))}
    env["TOOLPOLICY_CACHE_DIR"] = str(tmp_path / "cache")
    env["TOOLPOLICY_AUDIT"] = str(tmp_path / "audit.jsonl")
    env["HOME"] = str(tmp_path)
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=env,
    )


def _read_event(tmp_path: Path) -> str:
    return json.dumps(
        {
            "session_id": "s",
            "cwd": str(tmp_path),
            "hook_event_name": "PreToolUse",
            "tool_name": "Read",
            "tool_input": {"file_path": str(tmp_path / "a.py")},
            "tool_use_id": "t",
        }
    )


@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
def test_the_hook_answers_without_collecting(tmp_path: Path, warm: bool) -> None:
    hook = ["hook", "claude-code", "--workspace", str(tmp_path)]
    if warm:
        assert _run(hook, tmp_path, _read_event(tmp_path)).returncode == 0
    done = _run(hook, tmp_path, _read_event(tmp_path))
    assert (done.returncode, done.stderr) == (0, "")
    lines = (tmp_path / "audit.jsonl").read_text().splitlines()
    assert json.loads(lines[-1])["behavior"] == "allow"  # it did decide, and audit


def test_a_plain_check_answers_without_collecting(tmp_path: Path) -> None:
    done = _run(["check", "read_file", '{"path": "a.py"}'], tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("allow (default)")


def test_a_check_left_to_click_and_other_commands_do_collect(tmp_path: Path) -> None:
    # "-" is not a plain spelling: click's command parses it (and imports click, pydantic...)
    left = _run(["check", "read_file", "-"], tmp_path, '{"path": "a.py"}')
    assert left.returncode == 0 and left.stdout.startswith("allow (default)")
    assert "collected" in left.stderr
    schema = _run(["schema"], tmp_path)
    assert schema.returncode == 0 and "collected" in schema.stderr
