"""``toolpolicy lint``: check policy files the way CI needs it.

Exit codes: 0 no finding at or above the fail level (errors; warnings too with
``--strict``), 1 at least one such finding, 2 a usage problem (a path that does not exist,
an unknown format, an output file that cannot be written). Never a traceback.
"""

from __future__ import annotations

import os

import click

from .errors import EXIT_FAILED, EXIT_OK, EXIT_USAGE, fail, reports_errors

__all__ = ["lint_cmd"]

_FORMAT_NAMES = ("auto", "text", "json", "github", "sarif")


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
@click.option("-v", "--verbose", is_flag=True, help="Say which YAML files were skipped.")
@reports_errors
def lint_cmd(
    paths: tuple[str, ...],
    output_format: str,
    strict: bool,
    builtin: bool,
    output: str | None,
    verbose: bool,
) -> int:
    """Check policy files: every loader problem, self-test examples, dead and risky rules.

    PATH is a file, or a folder walked for *.yaml/*.yml files with apiVersion: toolpolicy/v1
    (default: the current folder, unless --builtin is given). A finding is suppressed by
    "# toolpolicy: ignore[CODE]" on its line or the line before.
    """
    from ..lint import FORMATS, Severity, builtin_paths, lint_paths

    missing = [p for p in paths if not os.path.lexists(p)]
    if missing:
        raise fail(f"no such file or folder: {', '.join(missing)}", EXIT_USAGE)
    targets = list(paths)
    if builtin:
        targets += builtin_paths()
    elif not targets:
        targets = ["."]
    name = output_format
    if name == "auto":
        name = "github" if os.environ.get("GITHUB_ACTIONS") else "text"

    def skipped(path: str) -> None:
        if verbose:
            click.echo(f"toolpolicy: skipped {path}: not a toolpolicy document", err=True)

    result = lint_paths(targets, on_skip=skipped)
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
