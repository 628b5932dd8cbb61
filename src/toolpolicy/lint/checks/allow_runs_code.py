"""``allow-runs-code``: an allow on a program that runs other code given in its arguments.

An allow covers a plain command exactly as written, and a plain command's arguments can
still be code for the program: ``bash -c '...'``, ``python -c '...'``, ``env X cmd``,
``xargs cmd``, ``find . -exec cmd ;``, ``sudo cmd``, ``ssh host cmd``, ``git -c
core.pager=cmd log``, ``npx some-package``. An allow on such a program allows whatever it is
told to run. Pin what runs (a script, ``python -m pytest``, ``git status``) or let a human
approve these calls.

FAIL::

    rules:
      - name: tools
        behavior: allow
        reason: Let the agent search and run scripts
        match: {commands: ["find", "bash -c", "git -c"]}

PASS::

    rules:
      - name: tools
        behavior: allow
        reason: Tests and status are safe to run
        match: {commands: ["python -m pytest", "bash scripts/check.sh", "git status"]}
"""

from __future__ import annotations

from collections.abc import Iterator

from ...compile.program_table import runs_code
from ...core.vocabulary import Behavior
from ..context import LintFile
from ..finding import Hit, Severity
from ..rules import own_rules
from .allow_anything import lets_anything_run

__all__ = ["CODE", "SEVERITY", "check"]

CODE = "allow-runs-code"
SEVERITY = Severity.WARNING


def check(target: LintFile) -> Iterator[Hit]:
    """One warning per command pattern of an own allow rule that lets other code run
    (patterns that already let anything run are ``allow-anything``'s)."""
    if target.policy is None:
        return
    for site in own_rules(target):
        rule = site.rule
        if rule.behavior is not Behavior.ALLOW or rule.commands is None:
            continue
        for pattern in rule.commands:
            reason = runs_code(pattern.words)
            alone = rule._replace(commands=(pattern,))
            if reason is not None and lets_anything_run(alone, target.policy.tools) is None:
                yield Hit(
                    site.line,
                    site.column,
                    f"allow rule {rule.name!r} covers {pattern.text!r}, which runs other code "
                    f"from its arguments: {reason}",
                )
