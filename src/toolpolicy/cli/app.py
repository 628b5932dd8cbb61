"""The click application: one group, one module per command."""

from __future__ import annotations

import click

from .. import __version__

__all__ = ["app", "run_app"]


@click.group(
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, "--version", prog_name="toolpolicy")
def app() -> None:
    """Decide, from checked-in YAML, whether an AI agent's tool call may run.

    Every command that decides takes the same selection flags (--profile, --preset,
    --sandbox, --approval, --policy, --presets, --workspace). Exit codes: 0 success,
    1 a finding or difference or a failed call, 2 usage or configuration error.
    """


def run_app(args: list[str]) -> int:
    """Run ``app`` on ``args`` and return its exit code instead of exiting."""
    try:
        code = app.main(args=args, prog_name="toolpolicy", standalone_mode=False)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("Aborted.", err=True)
        return 130
    except BrokenPipeError:
        return 1
    return code if isinstance(code, int) else 0


from .decide import check_cmd, explain_cmd  # noqa: E402

app.add_command(check_cmd)
app.add_command(explain_cmd)

from .catalog import presets_cmd, profiles_cmd, schema_cmd  # noqa: E402

app.add_command(profiles_cmd)
app.add_command(presets_cmd)
app.add_command(schema_cmd)

from .run import run_cmd  # noqa: E402

app.add_command(run_cmd)

from .diff_cmd import diff_cmd  # noqa: E402

app.add_command(diff_cmd)

from .hook_cmd import hook_cmd  # noqa: E402

app.add_command(hook_cmd)

from .lint_cmd import lint_cmd  # noqa: E402

app.add_command(lint_cmd)
