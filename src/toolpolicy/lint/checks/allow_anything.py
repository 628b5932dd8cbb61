"""``allow-anything``: an allow that lets the agent run any command it likes.

An allow for ``commands: ['*']``, for a shell or an interpreter (``bash``, ``sh``,
``python``, ``node`` ...), or for a wrapper that runs its arguments as a command (``env``,
``sudo``, ``xargs`` ...) with nothing more specific after it, lets any program run — and so
does an allow that reaches the ``shell`` tool with no ``commands`` at all. Allow the
specific commands instead (``pytest``, ``git status``, ``python -m pytest``).

FAIL::

    rules:
      - name: scripts
        behavior: allow
        reason: Let the agent run scripts
        match: {commands: ["python"]}

PASS::

    rules:
      - name: tests
        behavior: allow
        reason: Tests are safe to run
        match: {commands: ["python -m pytest", "git status"]}
"""

from __future__ import annotations

from collections.abc import Iterator

from ...compile.commands import CommandPattern
from ...compile.program_table import SHELLS
from ...compile.rules import CompiledRule
from ...core.vocabulary import Behavior, Effect
from ...tools.registry import ToolSnapshot
from ..context import LintFile
from ..finding import Hit, Severity
from ..rules import own_rules

__all__ = ["CODE", "RUNNERS", "SEVERITY", "check", "lets_anything_run"]

CODE = "allow-anything"
SEVERITY = Severity.WARNING

RUNNERS = SHELLS | frozenset(
    {
        "fish", "pwsh", "powershell", "cmd", "python", "python2", "python3", "pypy", "node",
        "nodejs", "deno", "bun", "perl", "ruby", "php", "lua", "Rscript", "osascript",
        "env", "sudo", "doas", "su", "xargs", "eval", "exec", "command", "builtin", "nohup",
        "nice", "timeout", "time", "busybox", "npx", "uvx", "pipx",
    }
)  # fmt: skip
"""Programs that run whatever their arguments say: allowing them alone allows anything."""


def _open_ended(pattern: CommandPattern) -> bool:
    first, rest = pattern.words[0], pattern.words[1:]
    if first == "*":
        return True
    return first.rsplit("/", 1)[-1] in RUNNERS and all(
        word == "*" or word.startswith("-") for word in rest
    )


def lets_anything_run(rule: CompiledRule, tools: ToolSnapshot) -> str | None:
    """What makes the allow ``rule`` open-ended, or None when it is specific."""
    if rule.behavior is not Behavior.ALLOW:
        return None
    if rule.commands is not None:
        for pattern in rule.commands:
            if _open_ended(pattern):
                return f"the command pattern {pattern.text!r} matches any program it runs"
        return None
    if rule.paths is not None:
        return None
    if rule.effects is not None and Effect.EXECUTE not in rule.effects:
        return None
    reached = [
        name
        for name in tools.names
        if (definition := tools.get(name)) is not None
        and definition.effect is Effect.EXECUTE
        and (rule.tools is None or any(p.matches(name) for p in rule.tools))
    ]
    if reached:
        return f"it reaches {', '.join(reached)} with no commands, so every command line runs"
    return None


def check(target: LintFile) -> Iterator[Hit]:
    """One warning per own allow rule that lets any command run."""
    if target.policy is None:
        return
    for site in own_rules(target):
        reason = lets_anything_run(site.rule, target.policy.tools)
        if reason is not None:
            message = f"allow rule {site.rule.name!r} lets anything run: {reason}"
            yield Hit(site.line, site.column, message)
