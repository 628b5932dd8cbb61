"""The ``--format text|json`` option that several commands share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

__all__ = ["text_or_json"]

F = TypeVar("F", bound=Callable[..., Any])


def text_or_json(help_text: str) -> Callable[[F], F]:
    """``--format text|json`` (default text), passed to the command as ``fmt``."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
        help=help_text,
    )
