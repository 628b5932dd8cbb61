"""`toolpolicy hook install codex|gemini|copilot`: the agent's own file, idempotently.

Each install keeps what the file holds, replaces only toolpolicy's entries, writes the
selection flags into the command (Gemini strips the hook's environment), and the command it
writes exits 2 with a reason on stderr when toolpolicy cannot run (Codex and Gemini run the
tool on any other failure).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

EXISTING_TOML = """# my Codex settings
model = "gpt-5.5"
approval_policy = "on-request"

[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "lint-bash"

[model_providers.local]
name = "Local"
base_url = "http://127.0.0.1:1/v1"
"""


def install(tmp_path: Path, agent: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("TOOLPOLICY_", "CLAUDE_", "CODEX_", "GEMINI_", "COPILOT_"))
    }
    env["HOME"] = str(tmp_path / "home")
    return subprocess.run(
        [sys.executable, "-m", "toolpolicy", "hook", "install", agent, *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env=env,
    )


def test_codex_install_appends_its_hooks_and_keeps_the_file(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(EXISTING_TOML)
    args = ("--settings", str(config), "--preset", "read-only", "--policy", "team.yaml")
    done = install(tmp_path, "codex", *args)
    assert done.returncode == 0, done.stderr
    text = config.read_text()
    assert text.startswith(EXISTING_TOML.rstrip("\n"))  # comments and layout kept
    parsed = tomllib.loads(text)
    assert parsed["model"] == "gpt-5.5"
    assert parsed["model_providers"]["local"]["name"] == "Local"
    for event in ("PreToolUse", "PermissionRequest"):
        group = parsed["hooks"][event][-1]
        assert group["matcher"] == ".*"
        (handler,) = group["hooks"]
        assert handler["type"] == "command" and handler["timeout"] == 30
        assert " hook codex --preset read-only --policy " in handler["command"]
        assert str(tmp_path / "team.yaml") in handler["command"]
    assert parsed["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == "lint-bash"
    assert f"{config}:pre_tool_use:1:0" in done.stdout  # the key Codex trusts it under
    assert "trusted_hash" in done.stdout and "state" not in parsed["hooks"]  # no hash invented
    assert install(tmp_path, "codex", *args).returncode == 0
    assert config.read_text() == text


def test_codex_install_defaults_to_codex_home(tmp_path: Path) -> None:
    home = tmp_path / "home" / ".codex" / "config.toml"
    assert install(tmp_path, "codex").returncode == 0
    assert "hook codex" in home.read_text()
    assert install(tmp_path, "codex", "--project").returncode == 0
    assert (tmp_path / ".codex" / "config.toml").is_file()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("hooks = { PreToolUse = [] }\n", "with toolpolicy's [[hooks]] appended is not TOML"),
        ('model = "x\n', "the file is not TOML"),
    ],
)
def test_codex_install_leaves_a_file_it_cannot_extend_unchanged(
    tmp_path: Path, text: str, problem: str
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(text)
    done = install(tmp_path, "codex", "--settings", str(config))
    assert done.returncode == 2
    assert done.stderr.startswith(f"toolpolicy hook install: {config}: ")
    assert problem in done.stderr and done.stderr.count("\n") == 1
    assert config.read_text() == text


def test_gemini_install_enables_hooks_and_keeps_the_file(tmp_path: Path) -> None:
    settings = tmp_path / ".gemini" / "settings.json"
    settings.parent.mkdir()
    existing: dict[str, Any] = {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "hooksConfig": {"enabled": False, "notifications": True},
        "hooks": {
            "BeforeTool": [
                {"matcher": "write_file", "hooks": [{"type": "command", "command": "fmt"}]}
            ]
        },
    }
    settings.write_text(json.dumps(existing))
    done = install(tmp_path, "gemini", "--policy", "team.yaml")
    assert done.returncode == 0, done.stderr
    merged = json.loads(settings.read_text())
    assert merged["security"] == existing["security"]
    assert merged["hooksConfig"] == {"enabled": True, "notifications": True}
    kept, ours = merged["hooks"]["BeforeTool"]
    assert kept == existing["hooks"]["BeforeTool"][0]
    assert ours["matcher"] == ".*"
    (hook,) = ours["hooks"]
    assert (hook["type"], hook["name"], hook["timeout"]) == ("command", "toolpolicy", 30000)
    assert f" hook gemini --policy {tmp_path / 'team.yaml'} || " in hook["command"]
    before = settings.read_text()
    assert install(tmp_path, "gemini", "--policy", "team.yaml").returncode == 0
    assert settings.read_text() == before


def test_copilot_install_writes_its_hooks_file(tmp_path: Path) -> None:
    done = install(tmp_path, "copilot", "--policy", "team.yaml")
    assert done.returncode == 0, done.stderr
    target = tmp_path / ".github" / "hooks" / "toolpolicy.json"
    written = json.loads(target.read_text())
    assert written["version"] == 1
    (hook,) = written["hooks"]["preToolUse"]
    assert (hook["type"], hook["timeoutSec"]) == ("command", 30)
    assert " hook copilot --policy " in hook["bash"]
    before = target.read_text()
    assert install(tmp_path, "copilot", "--policy", "team.yaml").returncode == 0
    assert target.read_text() == before


@pytest.mark.parametrize("agent", ["codex", "gemini", "copilot"])
def test_the_installed_command_exits_2_with_a_reason_when_toolpolicy_is_missing(
    tmp_path: Path, agent: str
) -> None:
    target = tmp_path / "settings"
    missing = tmp_path / "no" / "toolpolicy"
    done = install(tmp_path, agent, "--settings", str(target), "--executable", str(missing))
    assert done.returncode == 0, done.stderr
    text = target.read_text()
    if agent == "codex":
        command = tomllib.loads(text)["hooks"]["PreToolUse"][-1]["hooks"][0]["command"]
    elif agent == "gemini":
        command = json.loads(text)["hooks"]["BeforeTool"][-1]["hooks"][0]["command"]
    else:
        command = json.loads(text)["hooks"]["preToolUse"][-1]["bash"]
    ran = subprocess.run(["sh", "-c", command], input=b"{}", capture_output=True, timeout=30)
    assert ran.returncode == 2
    assert b"toolpolicy hook failed (exit 127)" in ran.stderr


def test_codex_trust_tables_written_inside_the_block_survive_a_reinstall(tmp_path: Path) -> None:
    """Codex's own config/batchWrite appends [hooks.state] at the end of the file, which is
    inside toolpolicy's block when that block ends the file; a reinstall keeps them."""
    config = tmp_path / "config.toml"
    assert install(tmp_path, "codex", "--settings", str(config)).returncode == 0
    trust = '\n[hooks.state]\n\n[hooks.state."other:key"]\ntrusted_hash = "sha256:keep"\n'
    text = config.read_text()
    end = "# <<< toolpolicy hook codex"
    config.write_text(text.replace(end, trust.lstrip("\n") + end))
    done = install(tmp_path, "codex", "--settings", str(config), "--preset", "read-only")
    assert done.returncode == 0, done.stderr
    parsed = tomllib.loads(config.read_text())
    assert parsed["hooks"]["state"] == {"other:key": {"trusted_hash": "sha256:keep"}}
    assert "--preset read-only" in parsed["hooks"]["PreToolUse"][-1]["hooks"][0]["command"]
    assert config.read_text().count("# >>> toolpolicy hook codex") == 1


@pytest.mark.parametrize(
    ("agent", "extra", "message"),
    [
        ("gemini", (), "toolpolicy hook install: --trust is for codex; gemini needs none\n"),
        (
            "codex",
            ("--codex", "/nonexistent/codex"),
            "toolpolicy hook install: --trust: cannot start /nonexistent/codex app-server: "
            "No such file or directory; trust it under /hooks in codex\n",
        ),
    ],
)
def test_trust_fails_closed_with_one_line(
    tmp_path: Path, agent: str, extra: tuple[str, ...], message: str
) -> None:
    settings = tmp_path / ("config.toml" if agent == "codex" else "settings.json")
    done = install(tmp_path, agent, "--settings", str(settings), "--trust", *extra)
    assert done.returncode == 2
    assert done.stderr == message
    assert "--trust" not in settings.read_text()  # install-only flags stay out of the hook
