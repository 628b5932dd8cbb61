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
    """Answer an agent's hook event: `toolpolicy hook claude-code [flags]`.

    Reads one Claude Code event (JSON) on stdin. PreToolUse: prints deny, ask, or allow when
    a rule allows; prints nothing when only a profile default allows, so Claude Code's own
    permission flow applies (--explicit-allow prints that allow too). PermissionRequest,
    PostToolUse (audit) and SessionStart (cache warm-up) are understood too. Takes
    --profile, --preset, --sandbox, --approval, --policy, --presets, --workspace and
    --audit FILE. Exit 2 (Claude Code blocks the call) on bad input or any error.

    `toolpolicy hook install claude-code [--settings FILE | --project | --user] [flags]`
    registers it in a settings file. See `toolpolicy hook claude-code --help`.
    """
    from ..hooks.entry import run_hook

    raise click.exceptions.Exit(run_hook(list(ctx.args)))
