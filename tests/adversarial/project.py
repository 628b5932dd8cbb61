"""A project to attack from outside: a workspace with a policy file, a home folder and a
folder outside both, an environment of its own, and the real CLI, bash and Claude Code hook
run in it as processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

__all__ = ["Project"]


class Project:
    """``base/project`` (the workspace, holding ``toolpolicy.yaml``), ``base/home`` (``$HOME``)
    and ``base/elsewhere``; the policy cache in ``base/cache``; ``$CLAUDE_PROJECT_DIR`` set to
    the workspace."""

    def __init__(self, base: Path, policy: str) -> None:
        self.ws = base / "project"
        self.home = base / "home"
        self.outside = base / "elsewhere"
        for folder in (self.ws, self.home, self.outside):
            folder.mkdir(parents=True, exist_ok=True)
        self.policy = self.ws / "toolpolicy.yaml"
        self.policy.write_text(policy)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLPOLICY_")}
        self.env["HOME"] = str(self.home)
        self.env["TOOLPOLICY_CACHE_DIR"] = str(base / "cache")
        self.env["CLAUDE_PROJECT_DIR"] = str(self.ws)

    def run(
        self, argv: list[str], *, stdin: str | None = None, cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        """``argv`` in the workspace (or ``cwd``), with this project's environment."""
        return subprocess.run(
            argv,
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            cwd=cwd or self.ws,
            env=self.env,
            timeout=120,
            check=False,
        )

    def cli(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        """``python -m toolpolicy ARGS``."""
        return self.run([sys.executable, "-m", "toolpolicy", *args], stdin=stdin)

    def run_agent(
        self, lines: list[str], sandbox: str, max_turns: int = 50
    ) -> subprocess.CompletedProcess[str]:
        """``toolpolicy run`` in the workspace under this policy and ``sandbox``, a scripted
        model asking for one ``shell`` call per line, then done (the script is kept outside
        the workspace)."""
        replies: list[dict[str, object]] = [
            {"tool_calls": [{"id": f"c{i}", "name": "shell", "arguments": {"command": line}}]}
            for i, line in enumerate(lines)
        ]
        replies.append({"content": "done"})
        script = self.outside / "script.jsonl"
        script.write_text("".join(json.dumps(r) + "\n" for r in replies))
        return self.cli(
            "run", "--script", str(script), "--workspace", str(self.ws), "--policy",
            str(self.policy), "--sandbox", sandbox, "--max-turns", str(max_turns),
        )  # fmt: skip

    def bash(self, line: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        """Real bash running ``line``, as an agent's shell would."""
        return self.run(["bash", "--noprofile", "--norc", "-c", line], cwd=cwd)

    def hook_stdout(
        self, tool: str, tool_input: Mapping[str, object], *, cwd: Path | None = None
    ) -> str:
        """What ``toolpolicy hook claude-code --policy toolpolicy.yaml`` prints for a
        ``PreToolUse`` event of ``tool`` (an empty string: no opinion); ``cwd`` is the
        event's (the workspace by default)."""
        event = {
            "session_id": "s", "transcript_path": str(self.ws / "t.jsonl"),
            "cwd": str(cwd or self.ws), "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": dict(tool_input),
            "tool_use_id": "toolu_1",
        }  # fmt: skip
        done = self.cli(
            "hook", "claude-code", "--policy", str(self.policy), stdin=json.dumps(event)
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def hook(
        self, tool: str, tool_input: Mapping[str, object], *, cwd: Path | None = None
    ) -> tuple[str, str]:
        """The hook's decision and reason for the event (see :meth:`hook_stdout`)."""
        answer = json.loads(self.hook_stdout(tool, tool_input, cwd=cwd))["hookSpecificOutput"]
        return answer["permissionDecision"], answer["permissionDecisionReason"]
