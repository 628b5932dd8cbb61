"""What a non-shell Claude Code event loads on the warm path: no argparse, shell parsing, pathlib.

Issue 14: the hook starts a process per tool call, so a read or a write decision must not pay
for importing ``argparse`` (the installed flags are read plainly), ``shlex`` and the
apply-patch parser (shell events only), ``pathlib`` or ``tempfile`` (the cache writes an entry
only when it is cold), nor the adapters of the other agents.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from toolpolicy.hooks.adapters import ADAPTERS

from .conftest import Hook, golden

OFF_THE_WARM_PATH = (
    "argparse",
    "signal",
    "pathlib",
    "tempfile",
    "shlex",
    "toolpolicy.hooks.patch",
    "toolpolicy.hooks.codex",
    "toolpolicy.hooks.gemini",
    "toolpolicy.hooks.copilot",
)


def _loaded_after(hook: Hook, event: str) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLPOLICY_", "CLAUDE_"))}
    env["TOOLPOLICY_CACHE_DIR"] = str(hook.cache)
    env["CLAUDE_PROJECT_DIR"] = str(hook.ws)
    env["HOME"] = str(hook.home)
    code = (
        "import sys, io, json;"
        "from toolpolicy.cli.main import main;"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO({event!r}.encode()));"
        f"rc = main(['hook', 'claude-code', '--audit', {str(hook.audit)!r}]);"
        f"names = {OFF_THE_WARM_PATH!r} + ('toolpolicy.engine.cache',);"
        "print(json.dumps({'rc': rc, 'loaded': [m for m in names if m in sys.modules]}),"
        " file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=hook.ws,
    )
    report: dict[str, object] = json.loads(done.stderr.strip().splitlines()[-1])
    return report


@pytest.mark.parametrize("name", ["pre_tool_use_read_inside", "pre_tool_use_edit"])
def test_a_warm_read_or_write_loads_no_argparse_shell_parsing_pathlib_or_tempfile(
    hook: Hook, name: str
) -> None:
    (hook.ws / "src").mkdir()  # the edit event's cwd
    event = json.dumps(golden(name, hook.ws, hook.home)["event"])
    assert hook.run(event).returncode == 0  # warm the cache
    # the cache module did load: the decision went through the warm path, not around it
    assert _loaded_after(hook, event) == {"rc": 0, "loaded": ["toolpolicy.engine.cache"]}


def test_each_adapter_is_found_under_its_own_name() -> None:
    assert [(name, ADAPTERS[name].name) for name in ADAPTERS] == [
        ("claude-code", "claude-code"),
        ("codex", "codex"),
        ("gemini", "gemini"),
        ("copilot", "copilot"),
    ]
    assert "cursor" not in ADAPTERS
    assert ADAPTERS.get("cursor") is None
