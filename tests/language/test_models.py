"""The models are frozen, closed and made of tuples and read-only mappings."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from toolpolicy.language import (
    CallDoc,
    ExampleDoc,
    ExpectDoc,
    MatchDoc,
    PolicyDoc,
    PresetDoc,
    PresetTableDoc,
    ProfileDoc,
    RuleDoc,
    builtin_presets,
    builtin_profiles,
)
from toolpolicy.language.models import validate_document

_POLICY: dict[str, Any] = {
    "apiVersion": "toolpolicy/v1",
    "kind": "Policy",
    "name": "team",
    "extends": "P03",
    "rules": [
        {
            "name": "secrets",
            "behavior": "deny",
            "reason": "Secrets are off limits",
            "match": {"tools": ["read_file"], "paths": [".env", "secrets/**"]},
        }
    ],
    "examples": [
        {"call": {"tool": "read_file", "arguments": {"path": ".env"}}, "expect": "deny"},
        {
            "call": {"tool": "glob", "arguments": {"pattern": "*"}},
            "expect": {"behavior": "allow", "source": "default"},
            "preset": "read-only",
        },
    ],
}


def _policy() -> PolicyDoc:
    model = validate_document(_POLICY)
    assert isinstance(model, PolicyDoc)
    return model


def test_a_policy_builds_typed_models_with_tuples() -> None:
    policy = _policy()
    rule = policy.rules[0]
    assert isinstance(rule, RuleDoc)
    assert isinstance(rule.match, MatchDoc)
    assert rule.match.tools == ("read_file",)
    assert rule.match.paths == (".env", "secrets/**")
    assert rule.match.effects is None
    assert rule.match.commands is None
    assert rule.description is None
    assert isinstance(policy.rules, tuple)
    assert isinstance(policy.examples, tuple)


def test_a_short_expect_becomes_a_behavior_with_no_source() -> None:
    first, second = _policy().examples
    assert isinstance(first, ExampleDoc)
    assert isinstance(first.call, CallDoc)
    assert first.call.arguments == {"path": ".env"}
    assert first.expect == ExpectDoc(behavior="deny", source=None)
    assert first.preset is None
    assert second.expect == ExpectDoc(behavior="allow", source="default")
    assert second.preset == "read-only"


@pytest.mark.parametrize(
    "mutate",
    [
        lambda p: setattr(p, "name", "other"),
        lambda p: setattr(p.rules[0], "behavior", "allow"),
        lambda p: setattr(p.rules[0].match, "tools", ("shell",)),
        lambda p: setattr(p.examples[0].expect, "behavior", "allow"),
        lambda p: setattr(p.examples[0].call, "tool", "shell"),
    ],
)
def test_mutating_a_model_raises(mutate: Any) -> None:
    policy = _policy()
    with pytest.raises(ValidationError, match="frozen"):
        mutate(policy)
    assert policy == _policy()


def test_the_rule_tuple_cannot_be_changed() -> None:
    policy = _policy()
    with pytest.raises(AttributeError):
        policy.rules.append(policy.rules[0])  # type: ignore[attr-defined]


def test_the_preset_rows_are_a_read_only_mapping() -> None:
    table = builtin_presets().model
    assert isinstance(table, PresetTableDoc)
    with pytest.raises(TypeError):
        table.presets["custom"] = PresetDoc(sandbox="read-only", approval="ask")  # type: ignore[index]
    assert list(table.presets) == ["workspace-write", "danger-full-access", "read-only"]


def test_the_built_in_profiles_mapping_is_read_only() -> None:
    profiles = builtin_profiles()
    with pytest.raises(TypeError):
        profiles["P04"] = profiles["P03"]  # type: ignore[index]


def test_unknown_fields_are_refused_by_the_models_too() -> None:
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        validate_document({**_POLICY, "priority": 1})


def test_an_explicit_null_for_an_optional_key_is_refused() -> None:
    with pytest.raises(ValidationError, match="description must not be null"):
        validate_document({**_POLICY, "description": None})


def test_the_models_keep_yaml_types_strict() -> None:
    profile = builtin_profiles()["P03"].model.model_dump(by_alias=True, exclude_none=True)
    with pytest.raises(ValidationError):
        validate_document({**profile, "chapter": "3"})
    with pytest.raises(ValidationError):
        validate_document({**profile, "chapter": True})
    with pytest.raises(ValidationError):
        validate_document({**profile, "chapter": 3.0})
    assert isinstance(validate_document(profile), ProfileDoc)


def test_a_model_dumps_back_to_json_with_its_yaml_names() -> None:
    table = builtin_presets().model
    dumped = table.model_dump(mode="json", by_alias=True, exclude_none=True)
    assert dumped["apiVersion"] == "toolpolicy/v1"
    assert dumped["presets"]["read-only"] == {
        "sandbox": "read-only",
        "approval": "ask",
        "description": "No file writes; calls that need approval ask a human",
    }
