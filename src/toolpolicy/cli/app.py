"""The click application: one group, one module per command, imported when it runs.

Each command module is loaded only when that command runs (or ``--help`` lists them), so
``toolpolicy check`` does not pay for the agent loop's HTTP client or the linter.
"""

from __future__ import annotations

import importlib
import os

import click

from .._version import __version__

__all__ = ["COMMANDS", "app", "run_app"]

COMMANDS = {
    "audit": "audit_cmd:audit_cmd",
    "check": "decide:check_cmd",
    "diff": "diff_cmd:diff_cmd",
    "explain": "decide:explain_cmd",
    "export": "export_cmd:export_cmd",
    "hook": "hook_cmd:hook_cmd",
    "import": "import_cmd:import_cmd",
    "init": "init_cmd:init_cmd",
    "lint": "lint_cmd:lint_cmd",
    "presets": "catalog:presets_cmd",
    "profiles": "catalog:profiles_cmd",
    "run": "run:run_cmd",
    "schema": "catalog:schema_cmd",
}


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, name = target.split(":")
        command = getattr(importlib.import_module(f"{__package__}.{module}"), name)
        assert isinstance(command, click.Command)
        return command


@click.group(
    cls=_LazyGroup,
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
    except Exception as exc:  # a bug: say so in one line, never a traceback (unless asked)
        if os.environ.get("TOOLPOLICY_DEBUG"):
            import traceback  # only then: it costs every command 8 ms to import

            traceback.print_exc()
        click.echo(f"toolpolicy: internal error: {type(exc).__name__}: {exc}", err=True)
        return 2
    return code if isinstance(code, int) else 0
