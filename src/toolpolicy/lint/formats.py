"""The output formats of ``toolpolicy lint``: small functions of the sorted findings.

Each takes the findings and how many files were checked and returns the whole report.
``text`` is for people, ``json`` for scripts, ``github`` is GitHub Actions workflow
commands (annotations on the pull request), ``sarif`` is SARIF 2.1.0 for code scanning.
"""

from __future__ import annotations

import hashlib
import json
import os
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType

from .._version import __version__
from .finding import Finding, Severity
from .registry import INTERNAL_ERROR, REGISTRY, describe

__all__ = [
    "FORMATS",
    "Formatter",
    "escape_github_data",
    "escape_github_property",
    "format_github",
    "format_json",
    "format_sarif",
    "format_text",
    "summary_line",
]

Formatter = Callable[[Sequence[Finding], int], str]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_GITHUB_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _counts(findings: Sequence[Finding]) -> dict[str, int]:
    return {
        "errors": sum(1 for f in findings if f.severity is Severity.ERROR),
        "warnings": sum(1 for f in findings if f.severity is Severity.WARNING),
        "infos": sum(1 for f in findings if f.severity is Severity.INFO),
    }


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def summary_line(findings: Sequence[Finding], files: int) -> str:
    """``3 files checked: 1 error, 2 warnings, 0 infos``."""
    counts = _counts(findings)
    return (
        f"{_plural(files, 'file')} checked: {_plural(counts['errors'], 'error')}, "
        f"{_plural(counts['warnings'], 'warning')}, {_plural(counts['infos'], 'info')}"
    )


def format_text(findings: Sequence[Finding], files: int) -> str:
    """``path:line:col: severity CODE message`` per finding, then the summary line."""
    lines = [
        f"{f.path}:{f.line}:{f.column}: {f.severity.label} {f.code} {_one_line(f.message)}"
        for f in findings
    ]
    return "\n".join([*lines, summary_line(findings, files)]) + "\n"


def format_json(findings: Sequence[Finding], files: int) -> str:
    """``{"findings": [...], "summary": {"files", "errors", "warnings", "infos"}}``."""
    document = {
        "findings": [f.to_json() for f in findings],
        "summary": {"files": files, **_counts(findings)},
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def escape_github_data(text: str) -> str:
    """Escape a workflow command's message: ``%``, ``\\r``, ``\\n``."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_github_property(text: str) -> str:
    """Escape a workflow command's property value: the data escapes plus ``:`` and ``,``."""
    return escape_github_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(findings: Sequence[Finding], files: int) -> str:
    """One ``::error file=…,line=…,col=…,title=CODE::message`` command per finding.

    Warnings are ``::warning``, infos ``::notice``; a plain summary line ends the output.
    """
    lines = []
    for f in findings:
        properties = {
            "file": f.path,
            "line": str(f.line),
            "col": str(f.column),
            "endLine": str(f.end_line or f.line),
            "endColumn": str(f.end_column or f.column),
            "title": f.code,
        }
        joined = ",".join(f"{k}={escape_github_property(v)}" for k, v in properties.items())
        command = _GITHUB_COMMAND[f.severity]
        lines.append(f"::{command} {joined}::{escape_github_data(f.message)}")
    return "\n".join([*lines, summary_line(findings, files)]) + "\n"


def format_sarif(findings: Sequence[Finding], files: int) -> str:
    """A SARIF 2.1.0 log: one run; each rule that has a result described once in
    ``tool.driver.rules`` (results point at it by ``ruleIndex``); file URIs relative to
    ``%SRCROOT%`` (the current folder) in ``originalUriBaseIds``; columns in code points."""
    codes = sorted({f.code for f in findings})
    index = {code: i for i, code in enumerate(codes)}
    root = Path.cwd()
    results = [_sarif_result(f, index[f.code], root) for f in findings]
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "toolpolicy",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "rules": [_sarif_rule(code) for code in codes],
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": root.as_uri().rstrip("/") + "/"}},
                "columnKind": "unicodeCodePoints",
                "results": results,
                "properties": {"filesChecked": files},
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def _sarif_rule(code: str) -> dict[str, object]:
    try:
        summary, documentation = describe(code)
        severity = REGISTRY[code].SEVERITY if code != INTERNAL_ERROR else Severity.ERROR
    except KeyError:
        summary, documentation, severity = code, code, Severity.ERROR
    return {
        "id": code,
        "name": "".join(part.title() for part in code.split("-")),
        "shortDescription": {"text": summary},
        "help": {"text": documentation},
        "defaultConfiguration": {"level": _SARIF_LEVEL[severity]},
    }


def _sarif_result(finding: Finding, rule_index: int, root: Path) -> dict[str, object]:
    location: dict[str, object] = _artifact(finding.path, root)
    region = {
        "startLine": finding.line,
        "startColumn": finding.column,
        "endLine": finding.end_line or finding.line,
    }
    if finding.end_column:
        region["endColumn"] = finding.end_column
    fingerprint = hashlib.sha256(
        "\0".join([finding.code, str(location["uri"]), finding.message]).encode()
    ).hexdigest()
    return {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": _SARIF_LEVEL[finding.severity],
        "message": {"text": finding.message},
        "locations": [{"physicalLocation": {"artifactLocation": location, "region": region}}],
        "partialFingerprints": {"toolpolicyFinding/v1": fingerprint},
    }


def _artifact(path: str, root: Path) -> dict[str, object]:
    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(root)
    except ValueError:
        return {"uri": absolute.as_uri()}
    return {"uri": urllib.parse.quote(relative.as_posix()), "uriBaseId": "%SRCROOT%"}


def _one_line(message: str) -> str:
    return message.replace("\r", "\\r").replace("\n", "\\n")


FORMATS: Mapping[str, Formatter] = MappingProxyType(
    {"text": format_text, "json": format_json, "github": format_github, "sarif": format_sarif}
)
"""Format name → formatter; ``auto`` is resolved by the CLI."""
