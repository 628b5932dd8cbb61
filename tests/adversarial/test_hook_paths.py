"""Hook paths that toolpolicy and the kernel may read differently.

toolpolicy collapses ``..`` lexically (``link/../x`` is ``x``); the kernel resolves ``..``
after following ``link``. The built-in tools write where toolpolicy checked, but under the
hook Claude Code writes: if it passes ``file_path`` to the file system as given, a ``..``
after a symlinked folder lands outside the workspace the hook said the write stays in.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from toolpolicy.hooks.entry import run_hook

from .conftest import build_trap, policy_file


@pytest.mark.parametrize(
    "spelling",
    [
        pytest.param("{ws}/a/deep_out/../escape.txt", id="absolute"),
        pytest.param("a/deep_out/../escape.txt", id="relative"),
        pytest.param("{ws}/link_out/../escape.txt", id="to-the-parent"),
    ],
)
def test_a_dotdot_after_a_symlinked_folder_is_not_allowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spelling: str
) -> None:
    monkeypatch.setenv("TOOLPOLICY_CACHE_DIR", str(tmp_path / "cache"))
    trap = build_trap(tmp_path)
    # a P02-based policy: writes need no approval, the workspace boundary is enforced
    policy = policy_file(tmp_path, [{"behavior": "deny", "match": {"commands": ["git push"]}}])
    policy.write_text(policy.read_text().replace('"P03"', '"P02"'))
    path = spelling.format(ws=trap.ws)
    physical = os.path.realpath(os.path.join(trap.ws, path))
    assert not physical.startswith(str(trap.ws) + os.sep)  # the kernel's target is outside
    event = {
        "session_id": "s",
        "transcript_path": str(tmp_path / "t.jsonl"),
        "cwd": str(trap.ws),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": path, "content": "x"},
        "tool_use_id": "toolu_1",
    }
    out, err = io.StringIO(), io.StringIO()
    argv = ["claude-code", "--audit", str(tmp_path / "audit.jsonl"), "--profile", "P02"]
    code = run_hook(
        [*argv, "--policy", str(policy)], io.BytesIO(json.dumps(event).encode()), out, err
    )
    assert code == 0, err.getvalue()
    assert json.loads(out.getvalue())["hookSpecificOutput"]["permissionDecision"] != "allow"
