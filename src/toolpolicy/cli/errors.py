"""How the CLI reports failures: one line per problem on stderr, exit 2, no traceback."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import click

from ..core.errors import PolicyLoadError, ToolPolicyError

__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_USAGE", "fail", "reports_errors"]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2

P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str, code: int = EXIT_USAGE) -> click.exceptions.Exit:
    """Print ``toolpolicy: message`` on stderr and return the exit to raise."""
    click.echo(f"toolpolicy: {message}", err=True)
    return click.exceptions.Exit(code)


def reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn toolpolicy errors into exit code 2 with one line per problem."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except PolicyLoadError as exc:
            for problem in exc.problems:
                click.echo(str(problem), err=True)
            raise click.exceptions.Exit(EXIT_USAGE) from None
        except ToolPolicyError as exc:
            raise fail(str(exc)) from None
        except OSError as exc:
            raise fail(f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": ")) from None

    return wrapper
