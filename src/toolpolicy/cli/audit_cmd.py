"""``toolpolicy audit verify|show``: prove an audit file untouched, and summarise it."""

from __future__ import annotations

import json

import click

from ..engine.audit_summary import AuditSummary, summarize_audit
from ..engine.audit_verify import verify_chain
from ..engine.terminal_text import visible
from .errors import EXIT_FAILED, reports_errors
from .formats import text_or_json

__all__ = ["audit_cmd"]

_AUDIT_FILE = click.Path(exists=True, dir_okay=False)


@click.group("audit")
def audit_cmd() -> None:
    """Check and read JSONL audit files (toolpolicy run --audit, the hook's audit).

    Each line carries seq and prev, the sha256 of the line before it: editing, inserting,
    deleting or reordering a line breaks the chain. Keep the head hash that verify prints
    somewhere else to also catch lines cut off the end.
    """


@audit_cmd.command("verify")
@click.argument("file", type=_AUDIT_FILE)
@click.option(
    "--head",
    default=None,
    metavar="HASH",
    help="A head printed by an earlier verify: it must still be in the chain.",
)
@text_or_json("Output format.")
@reports_errors
def verify_cmd(file: str, head: str | None, fmt: str) -> None:
    """Walk FILE's hash chain.

    \b
    Exit 0: "N records, chain intact, head HASH".
    Exit 1: the first broken line and what happened there (edited, inserted, deleted,
            reordered; truncated when --head is no longer in the chain).
    Exit 2: usage error (no such file).
    """
    report = verify_chain(file, head)
    if fmt == "json":
        click.echo(json.dumps(report.to_json()))
    elif report.broken is None:
        click.echo(f"{report.records} records, chain intact, head {report.head or '-'}")
    else:
        broken = report.broken
        click.echo(f"{file}:{broken.line}: chain broken ({broken.kind}): {broken.message}")
    if not report.intact:
        raise click.exceptions.Exit(EXIT_FAILED)


@audit_cmd.command("show")
@click.argument("file", type=_AUDIT_FILE)
@click.option(
    "--since",
    default=None,
    metavar="TIME",
    help="Only records at or after TIME (RFC 3339, UTC, e.g. 2026-11-30 or 2026-11-30T12:00).",
)
@text_or_json("Output format.")
@reports_errors
def show_cmd(file: str, since: str | None, fmt: str) -> None:
    """Summarise FILE: counts by tool, behaviour and source; the rules that matched most;
    every deny with its reason; every ask with its outcome; one line per session."""
    summary = summarize_audit(file, since)
    if fmt == "json":
        click.echo(json.dumps(summary.to_json(), ensure_ascii=False))
    else:
        click.echo("\n".join(_text(summary)))


def _text(summary: AuditSummary) -> list[str]:
    lines = [
        f"{summary.records} decisions"
        + (f" ({summary.skipped} other lines skipped)" if summary.skipped else "")
    ]
    lines += ["", "by tool, behaviour and source:"]
    for (tool, behavior, source), count in sorted(summary.counts.items()):
        lines.append(f"  {count:6d}  {tool}  {behavior}  ({source})")
    rules = summary.to_json()["rules"]
    if isinstance(rules, list) and rules:
        lines += ["", "rules that matched most:"]
        lines.extend(f"  {item['count']:6d}  {item['rule']}" for item in rules[:10])
    if summary.denies:
        lines += ["", "denied:"]
        lines.extend(
            f"  {d['ts']}  {d['tool']}  ({d['source']}) {d['reason']}" for d in summary.denies
        )
    if summary.asks:
        lines += ["", "asked:"]
        for ask in summary.asks:
            ran = ", executed" if ask["executed"] else ""
            lines.append(
                f"  {ask['ts']}  {ask['tool']}  {ask['outcome'] or 'not answered'}{ran}"
                f" - {ask['reason']}"
            )
    lines += ["", "sessions:"]
    for view in summary.sessions:
        shown = ", ".join(f"{n} {b}" for b, n in sorted(view.behaviors.items()))
        lines.append(f"  {view.session_id}  {view.first} .. {view.last}  {shown}")
    return [visible(line) for line in lines]
