"""The hook as Claude Code runs it: one real process per event, in a real temp project."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "claude-code"


def golden(name: str, project: Path, home: Path) -> dict[str, Any]:
    """A golden event with ``${PROJECT}`` and ``${HOME}`` filled in."""
    text = (GOLDEN / f"{name}.json").read_text(encoding="utf-8")
    text = text.replace("${PROJECT}", str(project)).replace("${HOME}", str(home))
    document: dict[str, Any] = json.loads(text)
    return document


HEAVY = ("yaml", "pydantic", "jsonschema", "click")
"""Packages a warm hook call must not import."""


def modules_after_hook(
    agent: str, event: str, audit: Path, *flags: str, env: Mapping[str, str], cwd: Path
) -> tuple[int, frozenset[str]]:
    """Run ``toolpolicy hook AGENT`` on ``event`` in a fresh interpreter: its exit code and
    every module it had loaded when it answered."""
    code = (
        "import sys, io, json;"
        "from toolpolicy.cli.main import main;"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO({event!r}.encode()));"
        f"rc = main(['hook', {agent!r}, '--audit', {str(audit)!r}, *{flags!r}]);"
        "print(json.dumps({'rc': rc, 'modules': sorted(sys.modules)}), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(env),
        cwd=cwd,
    )
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return report["rc"], frozenset(report["modules"])


COMMAND = Path(__file__).resolve().parents[2] / "scripts" / "toolpolicy_command.py"
"""The installed command's script (the wheel installs it as ``toolpolicy``)."""

# The command's script run as installed, reporting every module loaded when the process
# ends (``os._exit``, after the answer is written). The wrapper itself imports nothing.
_REPORTING = f"""
import os, sys
end = os._exit
def report(code):
    os.write(2, ("modules " + " ".join(sorted(sys.modules)) + "\\n").encode())
    end(code)
os._exit = report
sys.argv = [{str(COMMAND)!r}, *sys.argv[1:]]
exec(compile(open(sys.argv[0]).read(), sys.argv[0], "exec"), {{"__name__": "__main__"}})
"""


def modules_after_command(
    args: Sequence[str], stdin: str, *, env: Mapping[str, str], cwd: Path
) -> tuple[int, frozenset[str]]:
    """Run ``toolpolicy ARGS`` through the installed command's own script in a fresh
    interpreter: its exit code and every module loaded when it ended."""
    done = subprocess.run(
        [sys.executable, "-c", _REPORTING, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(env),
        cwd=cwd,
    )
    report = done.stderr.strip().splitlines()[-1]
    assert report.startswith("modules "), done.stderr
    return done.returncode, frozenset(report.split()[1:])


def claude_event(
    project: Path, home: Path, tool: str, tool_input: Mapping[str, object], **extra: object
) -> dict[str, Any]:
    """A Claude Code ``PreToolUse`` event of ``tool`` in ``project`` (``extra`` overrides or
    adds fields)."""
    return {
        "session_id": "sess-1",
        "transcript_path": str(home / "t.jsonl"),
        "cwd": str(project),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": dict(tool_input),
        "tool_use_id": "toolu_01",
        **extra,
    }


class Hook:
    """A project, a home folder, an audit file and the hook command."""

    def __init__(self, tmp: Path, cache: Path) -> None:
        self.ws = tmp / "project"
        self.ws.mkdir()
        self.home = tmp / "home"
        self.home.mkdir()
        self.outside = tmp / "elsewhere"
        self.outside.mkdir()
        self.cache = cache
        self.audit = tmp / "audit.jsonl"
        self.project_dir: str | None = str(self.ws)

    def policy(self, *rules: str, extends: str = "P03") -> Path:
        """A policy file with ``rules`` (YAML flow mappings, one per rule)."""
        path = self.ws.parent / f"policy-{len(list(self.ws.parent.glob('policy-*')))}.yaml"
        body = "".join(f"  - {rule}\n" for rule in rules)
        path.write_text(
            f"apiVersion: toolpolicy/v1\nkind: Policy\nname: team\nextends: {extends}\n"
            f"rules:\n{body}"
        )
        return path

    def event(self, tool: str, tool_input: Mapping[str, object], **extra: object) -> dict[str, Any]:
        return claude_event(self.ws, self.home, tool, tool_input, **extra)

    def run(
        self, stdin: str | bytes | Mapping[str, object], *flags: str
    ) -> subprocess.CompletedProcess[bytes]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLPOLICY_", "CLAUDE_"))}
        env["TOOLPOLICY_CACHE_DIR"] = str(self.cache)
        env["HOME"] = str(self.home)
        if self.project_dir is not None:
            env["CLAUDE_PROJECT_DIR"] = self.project_dir
        if isinstance(stdin, Mapping):
            stdin = json.dumps(stdin)
        data = stdin.encode() if isinstance(stdin, str) else stdin
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "toolpolicy",
                "hook",
                "claude-code",
                "--audit",
                str(self.audit),
                *flags,
            ],
            input=data,
            capture_output=True,
            timeout=60,
            cwd=self.ws,
            env=env,
        )

    def answer(self, event: Mapping[str, object], *flags: str) -> tuple[str, str] | str:
        """``(decision, reason)``, ``("allow"|"deny", message)`` for a PermissionRequest, or
        ``"none"`` when the hook printed nothing."""
        done = self.run(event, *flags)
        assert done.returncode == 0, done.stderr
        assert done.stderr == b""
        if done.stdout == b"":
            return "none"
        out = json.loads(done.stdout)["hookSpecificOutput"]
        if out["hookEventName"] == "PermissionRequest":
            return out["decision"]["behavior"], out["decision"].get("message", "")
        assert out["hookEventName"] == "PreToolUse"
        return out["permissionDecision"], out["permissionDecisionReason"]

    def decide(
        self, tool: str, tool_input: Mapping[str, object], *flags: str, **extra: object
    ) -> tuple[str, str] | str:
        return self.answer(self.event(tool, tool_input, **extra), *flags)

    def records(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.audit.read_text().splitlines()]


@pytest.fixture(scope="session")
def hook_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One compiled-policy cache for the whole session (entries are keyed by their sources)."""
    return tmp_path_factory.mktemp("hook-cache")


@pytest.fixture
def hook(tmp_path: Path, hook_cache: Path) -> Hook:
    return Hook(tmp_path, hook_cache)


DATA = Path(__file__).resolve().parents[1] / "data"
"""Golden events of the other agents: ``tests/data/<agent>/NAME.json`` (byte-identical to the
captured ones, ``$WORK`` standing for the event's cwd), each with ``NAME.source.md``."""


def agent_golden(agent: str, name: str, work: Path) -> dict[str, Any]:
    """An agent's golden event with ``$WORK`` replaced by ``work``."""
    text = (DATA / agent / f"{name}.json").read_text(encoding="utf-8")
    document: dict[str, Any] = json.loads(text.replace("$WORK", str(work)))
    return document


class AgentHook:
    """``toolpolicy hook AGENT`` as Codex, Gemini or Copilot runs it: a real process per
    event, a real project folder, the environment the agent gives."""

    def __init__(self, tmp: Path, cache: Path) -> None:
        self.ws = tmp / "project"
        self.ws.mkdir()
        (self.ws / "src").mkdir()
        self.home = tmp / "home"
        self.home.mkdir()
        self.cache = cache
        self.audit = tmp / "audit.jsonl"
        self.env: dict[str, str] = {}

    def policy(self, *rules: str) -> Path:
        """A policy file extending P03 with ``rules`` (YAML flow mappings)."""
        path = self.ws.parent / f"policy-{len(list(self.ws.parent.glob('policy-*')))}.yaml"
        body = "".join(f"  - {rule}\n" for rule in rules) or "  []\n"
        path.write_text(
            f"apiVersion: toolpolicy/v1\nkind: Policy\nname: team\nextends: P03\nrules:\n{body}"
        )
        return path

    def run(
        self, agent: str, stdin: str | bytes | Mapping[str, object], *flags: str
    ) -> subprocess.CompletedProcess[bytes]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("TOOLPOLICY_", "CLAUDE_", "GEMINI_", "CODEX_", "COPILOT_"))
        }
        env.update(TOOLPOLICY_CACHE_DIR=str(self.cache), HOME=str(self.home), **self.env)
        if isinstance(stdin, Mapping):
            stdin = json.dumps(stdin)
        data = stdin.encode() if isinstance(stdin, str) else stdin
        command = [sys.executable, "-m", "toolpolicy", "hook", agent, "--audit", str(self.audit)]
        return subprocess.run(
            [*command, *flags],
            input=data,
            capture_output=True,
            timeout=60,
            cwd=self.ws,
            env=env,
        )

    def output(self, agent: str, event: Mapping[str, object], *flags: str) -> dict[str, Any] | None:
        """The JSON the hook printed (``None``: nothing); it must exit 0 and say nothing on
        stderr."""
        done = self.run(agent, event, *flags)
        assert done.returncode == 0, done.stderr
        assert done.stderr == b""
        if done.stdout == b"":
            return None
        assert done.stdout.count(b"\n") == 1  # exactly one JSON object, one line
        found: dict[str, Any] = json.loads(done.stdout)
        return found

    def records(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.audit.read_text().splitlines()]


@pytest.fixture
def agent_hook(tmp_path: Path, hook_cache: Path) -> AgentHook:
    return AgentHook(tmp_path, hook_cache)
