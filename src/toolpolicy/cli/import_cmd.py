"""``toolpolicy import``: a Policy document from an agent's own permission rules."""

from __future__ import annotations

import re

import click

from .errors import fail, reports_errors

__all__ = ["import_cmd"]

_POLICY_NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")


@click.command("import")
@click.argument("dialect", type=click.Choice(["claude-settings"]))
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option(
    "--name",
    default="imported-claude-settings",
    show_default=True,
    help="The policy's name.",
)
@click.option(
    "--extends",
    default="P03",
    show_default=True,
    metavar="PROFILE|PATH",
    help="What the policy is layered on.",
)
@reports_errors
def import_cmd(dialect: str, file: str, name: str, extends: str) -> None:
    """Print a toolpolicy Policy (YAML) made from FILE's permissions.allow/ask/deny lists.

    FILE is a Claude Code settings.json (- reads stdin). Each entry becomes one rule;
    an entry toolpolicy cannot decide the same way (WebFetch(domain:...), wildcards
    inside a command, an exact command in an allow ...) becomes a
    '# not imported: ...' comment with the reason. The output passes `toolpolicy lint`.

    Exit codes: 0 printed, 2 usage error (FILE is not a settings file, a bad --name).
    """
    from ..interop import import_claude_settings, read_claude_permissions

    if not _POLICY_NAME.fullmatch(name) or len(name) > 64:
        raise fail(f"invalid --name {name!r}: lowercase words joined by - or _")
    with click.open_file(file, encoding="utf-8") as handle:
        text = handle.read()
    source = "stdin" if file == "-" else file
    permissions = read_claude_permissions(text, source)
    click.echo(
        import_claude_settings(permissions, name=name, extends=extends, source=source), nl=False
    )
