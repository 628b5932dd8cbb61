"""Layer 2: YAML documents with positions, the JSON Schema, and frozen pydantic models.

``load_document`` checks one file (safe YAML with positions, the JSON Schema, the checks the
schema cannot express) and builds its frozen model; ``load_policy_chain`` follows
``extends``; ``builtin_profiles`` and ``builtin_presets`` give the shipped documents.
Any problem raises one ``PolicyLoadError`` that lists every problem with its location.
"""

from .builtin import builtin_presets, builtin_profiles
from .chain import load_policy_chain
from .document import (
    LoadedDocument,
    check_bytes,
    check_bytes_partial,
    load_document,
    placed_in_files,
)
from .models import (
    CallDoc,
    DefaultsDoc,
    ExampleDoc,
    ExpectDoc,
    MatchDoc,
    PolicyDoc,
    PresetDoc,
    PresetTableDoc,
    ProfileDoc,
    RuleDoc,
)
from .schema import load_schema, schema_path
from .semantics import RESERVED_RULE_NAMES

__all__ = [
    "RESERVED_RULE_NAMES",
    "CallDoc",
    "DefaultsDoc",
    "ExampleDoc",
    "ExpectDoc",
    "LoadedDocument",
    "MatchDoc",
    "PolicyDoc",
    "PresetDoc",
    "PresetTableDoc",
    "ProfileDoc",
    "RuleDoc",
    "builtin_presets",
    "builtin_profiles",
    "check_bytes",
    "check_bytes_partial",
    "load_document",
    "load_policy_chain",
    "load_schema",
    "placed_in_files",
    "schema_path",
]
