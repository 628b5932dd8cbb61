"""The hooks under the real Codex CLI and Gemini CLI, headless and offline (opt in:
``pytest -m realclient``).

Drives ``../shared/realclients/codex-gemini/`` (or ``$REALCLIENTS_CODEX_GEMINI``): the real
``codex exec`` and ``gemini -p`` against scripted local model servers that ask for
``git push origin main`` and a file ``../outside.txt``. The hook is registered with
``toolpolicy hook install codex|gemini`` into a copy of the harness's settings templates
(next to the harness's own logging hook, which answers nothing). ``origin`` is a real bare
repository (``url.insteadOf`` in a throwaway ``GIT_CONFIG_GLOBAL``), so a push that ran would
land there. Skipped when a CLI is not installed (``sh setup.sh all`` installs both).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytestmark = pytest.mark.realclient

REPO = Path(__file__).resolve().parents[2]
HARNESS = Path(
    os.environ.get(
        "REALCLIENTS_CODEX_GEMINI", REPO.parent / "shared" / "realclients" / "codex-gemini"
    )
)
CACHE = Path(
    os.environ.get("REALCLIENTS_HOME")
    or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "realclients"
    )
)
CODEX = os.environ.get("CODEX_BIN") or str(
    CACHE / "codex-0.171.0" / "node_modules" / ".bin" / "codex"
)
GEMINI = os.environ.get("GEMINI_BIN") or str(
    CACHE / "gemini-cli-0.61.0" / "node_modules" / ".bin" / "gemini"
)
if not (HARNESS / "run_codex.sh").exists():
    pytest.skip("the codex-gemini realclients harness is not here", allow_module_level=True)

NO_PUSH = (
    "apiVersion: toolpolicy/v1\nkind: Policy\nname: team\nextends: P03\nrules:\n"
    "  - {name: no-push, behavior: deny, reason: No pushes from agents,"
    " match: {commands: [git push]}}\n"
)


class Run:
    """One harness copy with toolpolicy installed, a bare ``origin`` and a run root."""

    def __init__(self, tmp: Path, agent: str, *, deny_push: bool) -> None:
        self.tmp = tmp
        self.agent = agent
        self.harness = tmp / "harness"
        shutil.copytree(HARNESS, self.harness, ignore=shutil.ignore_patterns("golden"))
        self.root = tmp / "root"
        self.root.mkdir()
        self.remote = tmp / "remote.git"
        subprocess.run(["git", "init", "-q", "--bare", str(self.remote)], check=True)
        self.gitconfig = tmp / "gitconfig"
        self.gitconfig.write_text(
            "[init]\n\tdefaultBranch = main\n[user]\n\temail = a@b\n\tname = t\n"
            f'[url "{self.remote}"]\n\tinsteadOf = origin\n'
        )
        self.audit = tmp / "audit.jsonl"
        flags = ["--audit", str(self.audit)]
        if deny_push:
            policy = tmp / "policy.yaml"
            policy.write_text(NO_PUSH)
            flags += ["--policy", str(policy)]
        template = "codex_config.toml" if agent == "codex" else "gemini_settings.json"
        install = [sys.executable, "-m", "toolpolicy", "hook", "install", agent]
        done = subprocess.run(
            [*install, "--settings", str(self.harness / template), *flags],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr

    def run(self, name: str, *args: str) -> str:
        """Run the agent; returns what ``summarize_run.py`` says the model saw."""
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("TOOLPOLICY_", "CODEX_", "GEMINI_", "GIT_"))
        }
        env.update(
            REALCX_ROOT=str(self.root),
            GIT_CONFIG_GLOBAL=str(self.gitconfig),
            CODEX_BIN=CODEX,
            GEMINI_BIN=GEMINI,
            GTIMEOUT="90",
        )
        runner = "run_codex.sh" if self.agent == "codex" else "run_gemini.sh"
        subprocess.run(
            ["bash", str(self.harness / runner), name, "none", *args],
            capture_output=True,
            text=True,
            timeout=240,
            env=env,
        )
        summary = subprocess.run(
            [
                sys.executable,
                str(self.harness / "summarize_run.py"),
                str(self.root / "runs" / name),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        return summary.stdout

    def pushed(self) -> bool:
        found = subprocess.run(
            ["git", "-C", str(self.remote), "rev-parse", "--verify", "-q", "refs/heads/main"],
            capture_output=True,
        )
        return found.returncode == 0

    def outside(self) -> bool:
        return (self.root / "outside.txt").exists()

    def decisions(self) -> list[tuple[str, str, str]]:
        records = [json.loads(line) for line in self.audit.read_text().splitlines()]
        return [(r["agent_tool"], r["behavior"], r["answered"]) for r in records]


needs_codex = pytest.mark.skipif(not os.access(CODEX, os.X_OK), reason="Codex CLI not installed")
needs_gemini = pytest.mark.skipif(not os.access(GEMINI, os.X_OK), reason="Gemini CLI not installed")


@needs_codex
@pytest.mark.parametrize("model", ["gpt-5.5", "fake-model"])  # apply_patch tool / Bash heredoc
def test_codex_never_pushes_nor_patches_outside(tmp_path: Path, model: str) -> None:
    run = Run(tmp_path, "codex", deny_push=True)
    seen = run.run("c_toolpolicy", model)
    assert "Command blocked by PreToolUse hook: No pushes from agents. Command: git push" in seen
    assert "Command blocked by PreToolUse hook: Writing outside the workspace is forbidden" in seen
    assert not run.pushed()
    assert not run.outside()
    patch_tool = "apply_patch" if model == "gpt-5.5" else "Bash"
    assert run.decisions() == [("Bash", "deny", "deny"), (patch_tool, "deny", "deny")]


@needs_codex
def test_codex_runs_what_toolpolicy_only_asks_about(tmp_path: Path) -> None:
    # P03 asks about git push; Codex has no ask in PreToolUse, so the hook stays silent and
    # `codex exec` (approval never) pushes: the README's row says so.
    run = Run(tmp_path, "codex", deny_push=False)
    seen = run.run("c_ask", "gpt-5.5")
    assert run.pushed()
    assert "Writing outside the workspace is forbidden" in seen  # the boundary still denies
    assert not run.outside()
    assert run.decisions() == [("Bash", "ask", "none"), ("apply_patch", "deny", "deny")]


@needs_gemini
def test_gemini_never_pushes_nor_writes_outside(tmp_path: Path) -> None:
    run = Run(tmp_path, "gemini", deny_push=True)
    # --include-directories lets Gemini's own workspace check pass ../outside.txt to the hook
    seen = run.run("g_toolpolicy", "", "--yolo", "--include-directories", str(run.root))
    assert 'run_shell_command {"error": "Tool execution blocked: No pushes from agents"}' in seen
    assert (
        'write_file {"error": "Tool execution blocked: Writing outside the workspace is '
        'forbidden"}' in seen
    )
    assert not run.pushed()
    assert not run.outside()
    assert (run.root / "work_g_toolpolicy" / "inside.txt").is_file()  # no opinion: it ran
    assert run.decisions() == [
        ("run_shell_command", "deny", "deny"),
        ("write_file", "deny", "deny"),
        ("write_file", "ask", "none"),
    ]


@needs_codex
def test_install_trust_makes_codex_itself_call_the_hooks_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolpolicy.hooks.codex_trust import trust_codex_hooks

    home, work = tmp_path / "codex-home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLPOLICY_", "CODEX_"))}
    env["CODEX_HOME"] = str(home)
    done = subprocess.run(
        [sys.executable, "-m", "toolpolicy", "hook", "install", "codex", "--trust",
         "--codex", CODEX],
        cwd=work, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    config = home / "config.toml"
    assert done.stdout.splitlines()[-1] == (
        f"toolpolicy: Codex now trusts {config}:pre_tool_use:0:0, {config}:permission_request:0:0"
    )
    command = tomllib.loads(config.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    # Asked again, Codex lists both as trusted (trust_codex_hooks raises otherwise).
    monkeypatch.setenv("CODEX_HOME", str(home))
    assert len(trust_codex_hooks(CODEX, str(work), str(config), command)) == 2
