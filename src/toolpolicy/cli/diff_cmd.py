"""``toolpolicy diff``: which tool calls two presets, profiles or policies decide differently."""

from __future__ import annotations

import click

from .errors import EXIT_FAILED, EXIT_OK, reports_errors

__all__ = ["diff_cmd"]


@click.command("diff")
@click.argument("left")
@click.argument("right")
@click.option(
    "--profile",
    default="P03",
    show_default=True,
    metavar="NAME|PATH",
    help="Profile for the sides that name only a preset.",
)
@click.option(
    "--calls",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    metavar="FILE",
    help='Also replay recorded calls: JSONL of {"tool", "arguments"}, or an audit file '
    "recorded with --audit-arguments.",
)
@click.option(
    "--workspace",
    type=click.Path(exists=True, file_okay=False),
    default=None,
    metavar="DIR",
    help="Decide in this workspace (default: a scratch one, removed afterwards).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--fail-on",
    type=click.Choice(["any", "widen"]),
    default="any",
    show_default=True,
    help="Exit 1 on any difference, or only when the right side widens some decision.",
)
@click.option("--all", "show_all", is_flag=True, help="Also list the calls that agree.")
@reports_errors
def diff_cmd(
    left: str,
    right: str,
    profile: str,
    calls: str | None,
    workspace: str | None,
    fmt: str,
    fail_on: str,
    show_all: bool,
) -> None:
    """Compare the effective decisions (before any human answers) of LEFT and RIGHT.

    A side is a preset (workspace-write, ...), a profile (P01, P02, P03), PROFILE@PRESET
    (P02@danger-full-access) or a policy file. The rules of both sides are searched
    symbolically for every region of paths and commands they decide differently, each
    shown with a shortest witness call and the rules deciding it; physical probes (`..`,
    symlink escape, ...) and recorded calls follow. Each difference is a widen (RIGHT is
    more permissive: deny < ask < allow, or a wider sandbox for an execute call) or a
    narrow. The verdict is equivalent, more-permissive, less-permissive or incomparable
    (RIGHT relative to LEFT); inconclusive when nothing differed in a search that had to
    be limited (many deny/ask command patterns: programs then searched at the start of a
    command only), which is no proof and exits 1.
    Same behavior from another source is listed as "same" and
    is not a difference.

    \b
    Examples:
      toolpolicy diff workspace-write danger-full-access
      toolpolicy diff P02 P03 --fail-on widen
      toolpolicy diff P03 team.yaml --calls audit.jsonl --format markdown

    Exit codes: 0 equivalent (with --fail-on widen: nothing widens), 1 different or
    inconclusive,
    2 usage or configuration error (or rules too intricate to compare completely).
    """
    from ..diff import RENDERERS, Change, Verdict, run_diff
    from ..engine.selection import gc_paused

    report = run_diff(left, right, profile=profile, calls=calls, workspace=workspace)
    with gc_paused():  # run_diff pauses its own; what it built lives on while written out
        click.echo(RENDERERS[fmt](report, show_all))
    if fail_on == "widen":
        # A limited search cannot show that nothing widens, whatever else it found.
        failed = report.count(Change.WIDEN) > 0 or report.incomplete is not None
    else:
        failed = report.verdict is not Verdict.EQUIVALENT
    raise click.exceptions.Exit(EXIT_FAILED if failed else EXIT_OK)
