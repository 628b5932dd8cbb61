"""``toolpolicy lint``: CI-grade checking of policy files, one finding type, four formats.

``lint_paths`` lints the files and folders named, ``lint_discovered(discover_project())``
the project's policy files (git's file list, ``.gitignore`` and the ``exclude`` settings),
running every check of ``REGISTRY`` on each policy file; the formatters in ``FORMATS`` turn
the sorted findings into text, JSON, GitHub workflow commands or SARIF 2.1.0.
"""

from .discovery import Discovery, Skipped, discover, discover_project
from .finding import Finding, Hit, Severity
from .formats import FORMATS, Formatter, summary_line
from .linter import (
    LintResult,
    builtin_paths,
    lint_bytes,
    lint_discovered,
    lint_paths,
)
from .registry import CHECKS, REGISTRY, check_for, describe, severity_of

__all__ = [
    "CHECKS",
    "FORMATS",
    "REGISTRY",
    "Discovery",
    "Finding",
    "Formatter",
    "Hit",
    "LintResult",
    "Severity",
    "Skipped",
    "builtin_paths",
    "check_for",
    "describe",
    "discover",
    "discover_project",
    "lint_bytes",
    "lint_discovered",
    "lint_paths",
    "severity_of",
    "summary_line",
]
