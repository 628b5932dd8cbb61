"""``toolpolicy hook``: listed here for ``--help``; the console entry point answers it
before click loads (see ``cli.main``), so a hook call pays no click import."""

from __future__ import annotations

import click

__all__ = ["hook_cmd"]


@click.command(
    "hook",
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    add_help_option=False,
)
@click.pass_context
def hook_cmd(ctx: click.Context) -> None:
    """Answer an agent's pre-tool-use event: `toolpolicy hook claude-code [flags]`.

    Reads one Claude Code PreToolUse event (JSON) on stdin and prints allow, ask or deny.
    Takes --profile, --preset, --sandbox, --approval, --policy, --presets and --audit FILE.
    Exit 2 (Claude Code blocks the call) on bad input or any error. See
    `toolpolicy hook claude-code --help`.
    """
    from ..hooks.entry import run_hook

    raise click.exceptions.Exit(run_hook(list(ctx.args)))
