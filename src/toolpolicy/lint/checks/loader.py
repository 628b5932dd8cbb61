"""Everything the loader refuses, as error findings at the problem's line and column.

The loader (``toolpolicy.language.check_bytes``) checks a whole file and returns every
problem at once: YAML syntax, tab indentation, duplicate keys, anchors and aliases, tags,
size and depth limits, binary or non-UTF-8 bytes, schema violations, reserved names, a
``custom`` preset, an unknown ``default`` preset. Compiling the selection adds patterns
that do not compile (``invalid-pattern``) and broken ``extends`` chains. Each problem keeps
its own stable code. These findings cannot be suppressed: the file would still be refused
when loaded.

FAIL::

    apiVersion: toolpolicy/v1
    kind: Policy
    name: team
    name: again          # duplicate-key
    rules:
      - name: default    # reserved-name
        behavior: deny
        reason: r
        match: {paths: ["../x"]}

PASS::

    apiVersion: toolpolicy/v1
    kind: Policy
    name: team
    rules:
      - name: no-env
        behavior: deny
        reason: Secrets stay private
        match: {paths: [".env"]}
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType

from ...language import codes
from ..context import CONFIGURATION, INVALID_PATTERN, PROFILE_NOT_BUILTIN, LintFile
from ..finding import Hit, Severity

__all__ = ["CODE", "CODES", "DESCRIPTIONS", "SEVERITY", "check"]

DESCRIPTIONS: Mapping[str, str] = MappingProxyType(
    {
        codes.READ_ERROR: "The file could not be read",
        codes.ENCODING: "The bytes are not UTF-8 text (binary content, invalid sequences)",
        codes.TOO_LARGE: "A size bound was exceeded (file, nodes, string length)",
        codes.TOO_DEEP: "Mappings and sequences nest deeper than the language allows",
        codes.YAML_SYNTAX: "The text is not well-formed YAML",
        codes.TAB_INDENT: "A tab character indents a line",
        codes.YAML_ALIAS: "An anchor or alias, refused before anything expands",
        codes.YAML_TAG: "An explicit tag other than the plain JSON-compatible ones",
        codes.YAML_KEY: "A mapping key that is not a plain string",
        codes.DUPLICATE_KEY: "The same key twice in one mapping",
        codes.MULTI_DOCUMENT: "More than one YAML document in one file",
        codes.EMPTY: "The file holds no document",
        codes.SCHEMA: "The document does not match the toolpolicy JSON Schema",
        codes.BOUNDARY_NOT_CONFIGURABLE: "The workspace boundary cannot be configured",
        codes.RESERVED_NAME: "A rule named like a system decision source",
        codes.RESERVED_PRESET: "A preset table row named custom",
        codes.UNKNOWN_DEFAULT_PRESET: "The preset table's default names none of its rows",
        codes.DUPLICATE_RULE: "Two rules with the same name in one document",
        codes.EXTENDS_CYCLE: "A chain of extends comes back to a file already in it",
        codes.EXTENDS_UNKNOWN: "extends names neither a built-in profile nor a file",
        codes.EXTENDS_KIND: "extends reaches a document of the wrong kind, or is too long",
        INVALID_PATTERN: "A paths glob or commands pattern that does not compile",
        PROFILE_NOT_BUILTIN: "A Profile document that is not one of the shipped profiles",
        CONFIGURATION: "The selection the file makes cannot be built",
    }
)
"""Every code this check reports, with its one-line description."""

CODE = codes.SCHEMA
CODES: tuple[str, ...] = tuple(DESCRIPTIONS)
SEVERITY = Severity.ERROR


def check(target: LintFile) -> Iterator[Hit]:
    """One error per loader problem, with the problem's own code and position."""
    for problem in target.problems:
        yield Hit(
            problem.line,
            problem.column,
            problem.message,
            code=problem.code,
            end_line=problem.end_line,
            end_column=problem.end_column,
            path=None if problem.path == target.path else problem.path,
        )
