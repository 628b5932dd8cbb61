"""The selection flags shared by every command that decides, and how they load a policy."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..core.vocabulary import ApprovalPolicy, SandboxMode

if TYPE_CHECKING:
    from ..engine.selection import ToolPolicy

__all__ = ["Selection", "selection_from", "selection_options"]

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class Selection:
    """What the flags selected."""

    profile: str
    preset: str | None
    sandbox: str | None
    approval: str | None
    policies: tuple[str, ...]
    presets: str | None
    workspace: str

    def load(self) -> ToolPolicy:
        """The compiled ``ToolPolicy``; the compiled rules come from the policy cache when no
        source file changed, so the loaders and the compiler run only on a cold cache."""
        from ..engine.cache import load_compiled
        from ..engine.selection import assemble

        return assemble(
            load_compiled(self.profile, self.policies, self.presets),
            preset=self.preset,
            sandbox=self.sandbox,
            approval=self.approval,
            workspace=self.workspace,
        )


def selection_options(command: F) -> F:
    """Add --profile, --preset, --sandbox, --approval, --policy, --presets, --workspace."""
    options = [
        click.option(
            "--profile",
            default="P03",
            show_default=True,
            envvar="TOOLPOLICY_PROFILE",
            metavar="NAME|PATH",
            help="Built-in profile (P01, P02, P03) or a policy file that extends one.",
        ),
        click.option(
            "--preset",
            default=None,
            envvar="TOOLPOLICY_PRESET",
            metavar="NAME",
            help="Preset from the table (default: the table's default, workspace-write).",
        ),
        click.option(
            "--sandbox",
            type=click.Choice([m.value for m in SandboxMode]),
            default=None,
            help="Set the sandbox knob directly (the shown preset may become custom).",
        ),
        click.option(
            "--approval",
            type=click.Choice([p.value for p in ApprovalPolicy]),
            default=None,
            help="Set the approval knob directly: ask a human, or never (ask becomes deny).",
        ),
        click.option(
            "--policy",
            "policies",
            multiple=True,
            type=click.Path(dir_okay=False),
            metavar="PATH",
            help="Policy file layered on the profile; repeatable, rules add up, deny wins.",
        ),
        click.option(
            "--presets",
            default=None,
            type=click.Path(dir_okay=False),
            metavar="PATH",
            help="Use another preset table instead of the built-in one.",
        ),
        click.option(
            "--workspace",
            default=".",
            show_default=True,
            type=click.Path(file_okay=False),
            metavar="DIR",
            help="Workspace root: writes outside it are always denied.",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def selection_from(kwargs: dict[str, Any]) -> Selection:
    """Pop the selection flags out of a command's keyword arguments."""
    return Selection(
        profile=kwargs.pop("profile"),
        preset=kwargs.pop("preset"),
        sandbox=kwargs.pop("sandbox"),
        approval=kwargs.pop("approval"),
        policies=tuple(kwargs.pop("policies")),
        presets=kwargs.pop("presets"),
        workspace=kwargs.pop("workspace"),
    )
