"""``toolpolicy lint``: CI-grade checking of policy files, one finding type, four formats.

``lint_paths`` walks files and folders and runs every check of ``REGISTRY`` on each policy
file; the formatters in ``FORMATS`` turn the sorted findings into text, JSON, GitHub
workflow commands or SARIF 2.1.0.
"""

from .finding import Finding, Hit, Severity
from .formats import FORMATS, Formatter, summary_line
from .linter import LintResult, builtin_paths, discover, lint_bytes, lint_paths
from .registry import CHECKS, REGISTRY, check_for, describe, severity_of

__all__ = [
    "CHECKS",
    "FORMATS",
    "REGISTRY",
    "Finding",
    "Formatter",
    "Hit",
    "LintResult",
    "Severity",
    "builtin_paths",
    "check_for",
    "describe",
    "discover",
    "lint_bytes",
    "lint_paths",
    "severity_of",
    "summary_line",
]
