"""``toolpolicy check`` and ``toolpolicy explain``: decide one call without running it."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ..core.errors import CallRejected
from ..engine.explain import explain
from .check_output import check_lines, rejected_lines
from .errors import EXIT_FAILED, reports_errors
from .formats import text_or_json
from .selection import selection_from, selection_options

__all__ = ["check_cmd", "explain_cmd"]

_FORMAT = text_or_json("Output format.")


def _arguments(raw: str | None) -> str:
    if raw is None:
        return "{}"
    if raw == "-":
        return sys.stdin.read()
    return raw


def _rejected(exc: CallRejected, tool: str, fmt: str) -> click.exceptions.Exit:
    for line in rejected_lines(exc, tool, fmt):
        click.echo(line)
    return click.exceptions.Exit(EXIT_FAILED)


@click.command("check")
@click.argument("tool")
@click.argument("args_json", required=False, metavar="[ARGS_JSON]")
@selection_options
@_FORMAT
@reports_errors
def check_cmd(tool: str, args_json: str | None, fmt: str, **kwargs: Any) -> None:
    """Print the effective decision for one tool call, asking no one.

    ARGS_JSON is the call's arguments as a JSON object ("-" reads it from stdin).
    An ask stays ask here (under the never approval policy it is a deny).

    \b
    Examples:
      toolpolicy check write_file '{"path": "../outside.txt", "content": "x"}'
      toolpolicy check shell '{"command": "ls"}' --preset danger-full-access
      toolpolicy check read_file '{"path": ".env"}' --policy team.yaml --format json

    Exit codes: 0 a decision was printed, 1 the call fails preparation (unknown tool,
    invalid JSON or arguments), 2 usage or configuration error.
    """
    policy = selection_from(kwargs).load()
    raw = _arguments(args_json)
    try:
        evaluation = policy.evaluate(tool, raw)
    except CallRejected as exc:
        raise _rejected(exc, tool, fmt) from None
    for line in check_lines(tool, raw, evaluation, fmt):
        click.echo(line)


@click.command("explain")
@click.argument("tool")
@click.argument("args_json", required=False, metavar="[ARGS_JSON]")
@selection_options
@_FORMAT
@reports_errors
def explain_cmd(tool: str, args_json: str | None, fmt: str, **kwargs: Any) -> None:
    """Walk every step of the decision for one tool call.

    Shows each participant (workspace boundary, sandbox, rules ...) and what it said, the
    merge, the profile default, whether a human would be asked, the audit line, whether the
    handler would run, and the exact tool result the model would receive.

    \b
    Example:
      toolpolicy explain write_file '{"path": "../outside.txt", "content": "x"}'
    """
    policy = selection_from(kwargs).load()
    try:
        evaluation = policy.evaluate(tool, _arguments(args_json))
    except CallRejected as exc:
        raise _rejected(exc, tool, fmt) from None
    explanation = explain(tool, evaluation, policy.engine.enforces_policy, policy.compiled.rules)
    if fmt == "json":
        click.echo(json.dumps(explanation.to_json(), ensure_ascii=False))
        return
    for line in explanation.lines():
        click.echo(line)
