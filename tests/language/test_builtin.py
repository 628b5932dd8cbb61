"""The shipped documents: P01-P03, the preset table and the schema, found and well formed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from toolpolicy.language import (
    ExpectDoc,
    PresetTableDoc,
    ProfileDoc,
    builtin_presets,
    builtin_profiles,
    load_schema,
    schema_path,
)
from toolpolicy.language.resources import data_dir

_REPO = Path(__file__).resolve().parents[2]
_DEFAULTS = {"read": "allow", "write": "allow", "execute": "ask"}


def _profile(name: str) -> ProfileDoc:
    model = builtin_profiles()[name].model
    assert isinstance(model, ProfileDoc)
    return model


def _expectations(name: str) -> list[tuple[str, dict[str, Any], ExpectDoc, str | None]]:
    return [(e.call.tool, e.call.arguments, e.expect, e.preset) for e in _profile(name).examples]


def test_the_three_profiles_are_built_in_and_loaded_once() -> None:
    assert list(builtin_profiles()) == ["P01", "P02", "P03"]
    assert builtin_profiles() is builtin_profiles()
    assert builtin_presets() is builtin_presets()


def test_p01_has_the_shell_and_no_rules() -> None:
    p01 = _profile("P01")
    assert (p01.chapter, p01.capabilities, p01.tools) == (1, ("loop", "powershell"), ("shell",))
    assert p01.rules == ()
    assert p01.defaults.model_dump() == _DEFAULTS
    assert {(tool, e) for tool, _, e, _ in _expectations("P01")} == {
        ("shell", ExpectDoc(behavior="ask", source="shell-default"))
    }


def test_p02_adds_the_file_tools_and_still_has_no_rules() -> None:
    p02 = _profile("P02")
    assert p02.chapter == 2
    assert p02.capabilities == ("loop", "powershell", "tool_registry", "files")
    assert p02.tools == ("shell", "read_file", "write_file", "edit_file", "glob")
    assert p02.rules == ()
    assert p02.defaults.model_dump() == _DEFAULTS
    assert _expectations("P02") == [
        (
            "write_file",
            {"path": "chapter2-note.txt", "content": "x"},
            ExpectDoc(behavior="allow", source="default"),
            None,
        ),
        (
            "write_file",
            {"path": "../outside.txt", "content": "x"},
            ExpectDoc(behavior="allow", source="default"),
            None,
        ),
        ("read_file", {"path": "README.md"}, ExpectDoc(behavior="allow", source="default"), None),
        ("shell", {"command": "ls"}, ExpectDoc(behavior="ask", source="shell-default"), None),
    ]


def test_p03_adds_policy_and_the_confirm_file_write_rule() -> None:
    p03 = _profile("P03")
    assert p03.chapter == 3
    assert p03.description == "Permissions before side effects"
    assert p03.capabilities == ("loop", "powershell", "tool_registry", "files", "policy")
    assert p03.defaults.model_dump() == _DEFAULTS
    (rule,) = p03.rules
    assert (rule.name, rule.behavior, rule.reason) == (
        "confirm-file-write",
        "ask",
        "File writes require explicit approval from chapter 3 onward",
    )
    assert rule.match.tools == ("write_file", "edit_file")
    assert [(tool, e.behavior, e.source) for tool, _, e, _ in _expectations("P03")] == [
        ("write_file", "deny", "workspace-boundary"),
        ("write_file", "ask", "confirm-file-write"),
        ("edit_file", "ask", "confirm-file-write"),
        ("glob", "allow", "default"),
        ("read_file", "allow", "default"),
        ("shell", "ask", "shell-default"),
    ]
    assert _expectations("P03")[0][1] == {"path": "../outside.txt", "content": "x"}


def test_the_preset_table_has_three_rows_and_a_default() -> None:
    table = builtin_presets().model
    assert isinstance(table, PresetTableDoc)
    assert table.default == "workspace-write"
    rows = {name: (row.sandbox, row.approval) for name, row in table.presets.items()}
    assert list(rows.items()) == [
        ("workspace-write", ("workspace-write", "ask")),
        ("danger-full-access", ("danger-full-access", "never")),
        ("read-only", ("read-only", "ask")),
    ]
    assert all(row.description for row in table.presets.values())


def test_the_data_is_read_from_the_source_tree_in_an_editable_install() -> None:
    assert data_dir("profiles") == _REPO / "profiles"
    assert schema_path() == _REPO / "policy" / "toolpolicy.schema.json"
    assert Path(builtin_presets().path) == _REPO / "policy" / "presets.yaml"


def test_the_schema_is_valid_draft_2020_12_with_an_id() -> None:
    schema = load_schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == "urn:toolpolicy:schema:v1"
    assert schema == json.loads(schema_path().read_text(encoding="utf-8"))


def _properties(node: Any, where: str = "#") -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    if isinstance(node, dict):
        for name, child in node.get("properties", {}).items():
            found.append((f"{where}/properties/{name}", child))
        for key, child in node.items():
            found += _properties(child, f"{where}/{key}")
    elif isinstance(node, list):
        for index, child in enumerate(node):
            found += _properties(child, f"{where}/{index}")
    return found


def test_every_property_in_the_schema_has_a_description() -> None:
    properties = _properties(load_schema())
    assert len(properties) > 40
    assert [where for where, child in properties if not child.get("description")] == []


def test_every_object_in_the_schema_is_closed() -> None:
    def objects(node: Any) -> list[dict[str, Any]]:
        found = []
        if isinstance(node, dict):
            if "properties" in node and node.get("type") == "object":
                found.append(node)
            for child in node.values():
                found += objects(child)
        elif isinstance(node, list):
            for child in node:
                found += objects(child)
        return found

    closed = objects(load_schema()["$defs"])
    assert len(closed) >= 10
    assert all(node.get("additionalProperties") is False for node in closed)


def test_load_schema_returns_a_copy() -> None:
    load_schema()["$id"] = "changed"
    assert load_schema()["$id"] == "urn:toolpolicy:schema:v1"


def test_the_language_has_no_regular_expressions_for_users() -> None:
    schema_text = schema_path().read_text(encoding="utf-8")
    assert "regex" not in schema_text.lower().replace("no regular expressions", "")
