"""``toolpolicy profiles``, ``presets`` and ``schema``: what the language ships, for people.

These commands only read: the built-in profiles, a preset table, the JSON Schema.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import click

from ..core.errors import PolicyLoadError
from .formats import text_or_json

__all__ = ["presets_cmd", "profiles_cmd", "schema_cmd"]

_FORMAT = text_or_json("text: an aligned table for people; json: an array for scripts.")


def _refuse(exc: PolicyLoadError) -> click.exceptions.Exit:
    for problem in exc.problems:
        click.echo(str(problem), err=True)
    return click.exceptions.Exit(2)


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True))
        for row in [header, *rows]
    ]
    return "\n".join(line.rstrip() for line in lines)


@click.command("profiles")
@_FORMAT
def profiles_cmd(fmt: str) -> None:
    """List the built-in profiles: their chapter, capabilities, tools and description.

    A profile is the frozen base a policy is layered on. P01 has only the shell, P02 adds
    the file tools (writes need no approval), P03 adds the policy capability: the hard
    workspace boundary and rules (file writes ask). Select one with --profile, or name it
    in a policy file with `extends: P03`.

    \b
    Examples:
      toolpolicy profiles
      toolpolicy profiles --format json
    """
    from ..language import ProfileDoc, builtin_profiles

    try:
        loaded = builtin_profiles()
    except PolicyLoadError as exc:
        raise _refuse(exc) from None
    profiles = [doc.model for doc in loaded.values() if isinstance(doc.model, ProfileDoc)]
    if fmt == "json":
        entries: list[dict[str, Any]] = [
            {
                "name": p.name,
                "chapter": p.chapter,
                "capabilities": list(p.capabilities),
                "tools": list(p.tools),
                "description": p.description,
            }
            for p in profiles
        ]
        click.echo(json.dumps(entries, indent=2))
        return
    rows = [
        (p.name, str(p.chapter), ", ".join(p.capabilities), ", ".join(p.tools), p.description)
        for p in profiles
    ]
    click.echo(_table(("NAME", "CHAPTER", "CAPABILITIES", "TOOLS", "DESCRIPTION"), rows))


@click.command("presets")
@click.option(
    "--presets",
    "presets_path",
    type=click.Path(dir_okay=False),
    metavar="PATH",
    help="A PresetTable file to list instead of the built-in table.",
)
@_FORMAT
def presets_cmd(presets_path: str | None, fmt: str) -> None:
    """List the presets: named combinations of the sandbox and approval knobs.

    sandbox says how far file effects may reach (read-only, workspace-write,
    danger-full-access); approval says whether a human is asked (ask) or every ask becomes
    a deny (never). The default preset is marked with *. A table may not name a row
    `custom`: that name is derived when the knobs match no row.

    \b
    Examples:
      toolpolicy presets
      toolpolicy presets --format json
      toolpolicy presets --presets team-presets.yaml
    """
    from ..language import PresetTableDoc, builtin_presets, load_document

    try:
        loaded = builtin_presets() if presets_path is None else load_document(presets_path)
    except PolicyLoadError as exc:
        raise _refuse(exc) from None
    table = loaded.model
    if not isinstance(table, PresetTableDoc):
        click.echo(
            f"{loaded.path}:1:1: expected a PresetTable document, found a {loaded.kind}", err=True
        )
        raise click.exceptions.Exit(2)
    if fmt == "json":
        entries: list[dict[str, Any]] = [
            {
                "name": name,
                "sandbox": row.sandbox,
                "approval": row.approval,
                "default": name == table.default,
                "description": row.description or "",
            }
            for name, row in table.presets.items()
        ]
        click.echo(json.dumps(entries, indent=2))
        return
    rows = [
        (
            f"{name}{' *' if name == table.default else ''}",
            row.sandbox,
            row.approval,
            row.description or "",
        )
        for name, row in table.presets.items()
    ]
    click.echo(_table(("NAME", "SANDBOX", "APPROVAL", "DESCRIPTION"), rows))


@click.command("schema")
def schema_cmd() -> None:
    """Print the JSON Schema (draft 2020-12) of every toolpolicy document kind.

    Point your editor at it for completion and inline errors in policy files, e.g. with the
    YAML language server: `# yaml-language-server: $schema=toolpolicy.schema.json`.

    \b
    Example:
      toolpolicy schema > toolpolicy.schema.json
    """
    from ..language import load_schema

    click.echo(json.dumps(load_schema(), indent=2, ensure_ascii=False))
