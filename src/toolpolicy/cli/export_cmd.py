"""``toolpolicy export``: the selection's rules in an agent's own permission dialect."""

from __future__ import annotations

import json
from typing import Any

import click

from .errors import EXIT_FAILED, EXIT_OK, reports_errors
from .formats import text_or_json
from .selection import selection_from, selection_options

__all__ = ["export_cmd"]

# The keys of toolpolicy.interop.EXPORTERS (a test keeps them equal), spelled out so that
# listing the commands does not import the engine.
_DIALECTS = ("claude-settings", "codex-rules", "gemini-policy")


@click.command("export")
@click.option(
    "--to",
    "dialect",
    type=click.Choice(_DIALECTS),
    required=True,
    help="The dialect to write.",
)
@click.option("--strict", is_flag=True, help="Exit 1 when a rule or pattern could not be exported.")
@text_or_json("text: the native file on stdout; json: it and the omissions in one object.")
@selection_options
@reports_errors
def export_cmd(dialect: str, strict: bool, fmt: str, **kwargs: Any) -> None:
    """Print the selection's rules as Claude Code settings, Codex rules or Gemini CLI policy.

    \b
    claude-settings  the permissions.allow/ask/deny fragment of .claude/settings.json
    codex-rules      a Starlark .rules file of prefix_rule(...) for ~/.codex/rules/
    gemini-policy    a TOML policy file of [[rule]] tables for ~/.gemini/policies/

    Only what the dialect can say is exported: command prefixes, path rules, tool names.
    stderr gets one line per thing it could not carry: "not exported" (a rule or pattern
    left out: path rules where the dialect has none, wildcards it cannot say, an allow it
    would read wider), "partly exported" (a deny or ask the dialect reads more narrowly
    than toolpolicy's conservative match) and "not expressible" (the workspace boundary,
    the knobs, the profile's defaults). An allow is never exported wider than toolpolicy
    decides it.

    Exit codes: 0 exported, 1 with --strict when a rule or pattern was not exported,
    2 usage or configuration error.
    """
    from ..interop import export_policy

    exported = export_policy(selection_from(kwargs).load(), dialect)
    if fmt == "json":
        payload = {
            "dialect": exported.dialect,
            "content": exported.text,
            "omissions": [o.to_json() for o in exported.omissions],
        }
        click.echo(json.dumps(payload, ensure_ascii=False))
    else:
        click.echo(exported.text, nl=False)
        for omission in exported.omissions:
            click.echo(omission.line, err=True)
    failed = strict and bool(exported.dropped)
    raise click.exceptions.Exit(EXIT_FAILED if failed else EXIT_OK)
