"""The stable problem codes of the policy language, one constant per way a document fails.

``toolpolicy lint`` reports these codes as finding codes, so they never change meaning.
"""

from __future__ import annotations

__all__ = [
    "ALL_CODES",
    "BOUNDARY_NOT_CONFIGURABLE",
    "DUPLICATE_KEY",
    "DUPLICATE_RULE",
    "EMPTY",
    "ENCODING",
    "EXTENDS_CYCLE",
    "EXTENDS_KIND",
    "EXTENDS_TOO_DEEP",
    "EXTENDS_UNKNOWN",
    "MULTI_DOCUMENT",
    "READ_ERROR",
    "RESERVED_NAME",
    "RESERVED_PRESET",
    "SCHEMA",
    "TAB_INDENT",
    "TOO_DEEP",
    "TOO_LARGE",
    "UNKNOWN_DEFAULT_PRESET",
    "YAML_ALIAS",
    "YAML_KEY",
    "YAML_SYNTAX",
    "YAML_TAG",
]

READ_ERROR = "read-error"
"""The file could not be read (missing, a directory, not a regular file, no permission)."""
ENCODING = "encoding"
"""The bytes are not UTF-8 text (NUL bytes, invalid sequences, control characters)."""
TOO_LARGE = "too-large"
"""A bound was exceeded: file size, number of nodes, length of one string or number."""
TOO_DEEP = "too-deep"
"""Mappings and sequences nest deeper than the language allows."""
YAML_SYNTAX = "yaml-syntax"
"""The text is not well-formed YAML."""
TAB_INDENT = "tab-indent"
"""A tab character was used to indent a line."""
YAML_ALIAS = "yaml-alias"
"""An anchor (``&a``) or alias (``*a``); refused before anything expands."""
YAML_TAG = "yaml-tag"
"""An explicit tag other than the plain JSON-compatible ones (``!!str``, ``!!int`` ...)."""
YAML_KEY = "yaml-key"
"""A mapping key that is not a plain string (``on:``, ``1:``, ``? [a]``)."""
DUPLICATE_KEY = "duplicate-key"
"""The same key twice in one mapping."""
MULTI_DOCUMENT = "multi-document"
"""More than one YAML document in one file."""
EMPTY = "empty"
"""The file holds no document at all."""
SCHEMA = "schema"
"""The document does not match ``policy/toolpolicy.schema.json``."""
BOUNDARY_NOT_CONFIGURABLE = "boundary-not-configurable"
"""A ``workspace_boundary`` / ``workspace-boundary`` key: the boundary is hard-coded."""
RESERVED_NAME = "reserved-name"
"""A rule named like a system decision source (``default``, ``sandbox`` ...)."""
RESERVED_PRESET = "reserved-preset"
"""A preset table row named ``custom``."""
UNKNOWN_DEFAULT_PRESET = "unknown-default-preset"
"""A preset table whose ``default`` names none of its rows."""
DUPLICATE_RULE = "duplicate-rule"
"""Two rules with the same name in one document."""
EXTENDS_CYCLE = "extends-cycle"
"""A chain of ``extends`` that comes back to a file already in it."""
EXTENDS_UNKNOWN = "extends-unknown"
"""``extends`` names neither a built-in profile nor a readable file."""
EXTENDS_KIND = "extends-kind"
"""``extends`` reaches a document that is not a Policy (or a chain starts at a PresetTable)."""
EXTENDS_TOO_DEEP = "extends-too-deep"
"""A chain of ``extends`` longer than ``chain.MAX_CHAIN`` documents."""

ALL_CODES = frozenset(
    {
        READ_ERROR,
        ENCODING,
        TOO_LARGE,
        TOO_DEEP,
        YAML_SYNTAX,
        TAB_INDENT,
        YAML_ALIAS,
        YAML_TAG,
        YAML_KEY,
        DUPLICATE_KEY,
        MULTI_DOCUMENT,
        EMPTY,
        SCHEMA,
        BOUNDARY_NOT_CONFIGURABLE,
        RESERVED_NAME,
        RESERVED_PRESET,
        UNKNOWN_DEFAULT_PRESET,
        DUPLICATE_RULE,
        EXTENDS_CYCLE,
        EXTENDS_UNKNOWN,
        EXTENDS_KIND,
        EXTENDS_TOO_DEEP,
    }
)
