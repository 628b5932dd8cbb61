"""``toolpolicy lint``: check policy files the way CI needs it.

Exit codes: 0 no finding at or above the fail level (errors; warnings too with
``--strict``), 1 at least one such finding, 2 a usage problem (a path that does not exist,
an unknown format, an output file that cannot be written, a wrong ``exclude`` setting).
Never a traceback.
"""

from __future__ import annotations

import os

import click

from ..hooks.adapters import ADAPTERS
from .errors import EXIT_FAILED, EXIT_OK, EXIT_USAGE, fail, reports_errors

__all__ = ["lint_cmd"]

_FORMAT_NAMES = ("auto", "text", "json", "github", "sarif")
AGENT_NAMES = tuple(sorted(ADAPTERS))


@click.command("lint")
@click.argument("paths", nargs=-1, type=click.Path(), metavar="[PATH]...")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(_FORMAT_NAMES),
    default="auto",
    show_default=True,
    help="auto is github when GITHUB_ACTIONS is set, else text.",
)
@click.option("--strict", is_flag=True, help="Warnings fail the run too (exit 1).")
@click.option("--builtin", is_flag=True, help="Lint the shipped profiles and preset table.")
@click.option(
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    metavar="FILE",
    help="Write the report to FILE instead of stdout.",
)
@click.option(
    "--agent",
    "agents",
    multiple=True,
    type=click.Choice(AGENT_NAMES),
    help="Know the tool names of this agent only (repeatable; default: every agent's), "
    "e.g. Claude Code's WebFetch, TodoWrite, Task.",
)
@click.option(
    "-v",
    "--verbose",
    is_flag=True,
    help="Say on stderr how files were found, which were linted and why others were skipped.",
)
@reports_errors
def lint_cmd(
    paths: tuple[str, ...],
    output_format: str,
    strict: bool,
    builtin: bool,
    output: str | None,
    agents: tuple[str, ...],
    verbose: bool,
) -> int:
    """Check policy files: every loader problem, self-test examples, dead and risky rules.

    PATH is a file, or a folder walked for *.yaml/*.yml files with apiVersion: toolpolicy/v1.
    With no PATH (and no --builtin), the project's policy files under the current folder:
    the files git lists (so .gitignore is honoured; without git, .gitignore files are read),
    minus the exclude globs of .toolpolicy.yaml or pyproject.toml [tool.toolpolicy]. A
    finding is suppressed by "# toolpolicy: ignore[CODE]" on its line or the line before.
    """
    from ..lint import FORMATS, Severity, builtin_paths, discover, discover_project, lint_discovered

    missing = [p for p in paths if not os.path.lexists(p)]
    if missing:
        raise fail(f"no such file or folder: {', '.join(missing)}", EXIT_USAGE)
    targets = [*paths, *(builtin_paths() if builtin else ())]
    found = discover(targets) if targets else discover_project()
    if verbose:
        for note in found.notes:
            click.echo(f"toolpolicy: {note}", err=True)
        for path in found.files:
            click.echo(f"toolpolicy: linting {path}", err=True)
        for skip in found.skipped:
            click.echo(f"toolpolicy: skipped {skip.path}: {skip.why}", err=True)
    name = output_format
    if name == "auto":
        name = "github" if os.environ.get("GITHUB_ACTIONS") else "text"

    result = lint_discovered(found, agents or None)
    report = FORMATS[name](result.findings, len(result.files))
    if output is None:
        click.echo(report, nl=False)
    else:
        try:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(report)
        except OSError as exc:
            raise fail(f"cannot write {output}: {exc.strerror or exc}", EXIT_USAGE) from None
    level = Severity.WARNING if strict else Severity.ERROR
    return EXIT_FAILED if any(f.severity >= level for f in result.findings) else EXIT_OK
