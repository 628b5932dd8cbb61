"""Core contracts: ToolResult, Behavior, Decision, the registry, PermissionRequest."""

from __future__ import annotations

import pytest

from toolpolicy.core.decision import Decision
from toolpolicy.core.errors import PermissionContractError
from toolpolicy.core.results import ToolResult, is_tool_result, tool_error, tool_success
from toolpolicy.core.vocabulary import Behavior, Effect
from toolpolicy.engine.request import PermissionRequest
from toolpolicy.tools.arguments import ArgumentSpec
from toolpolicy.tools.definitions import builtin_definitions
from toolpolicy.tools.registry import (
    ToolCall,
    ToolContext,
    ToolDefinition,
    ToolRegistry,
    ToolSnapshot,
)


def test_tool_error_formats_the_model_text() -> None:
    result = tool_error("permission_denied", "Writing outside the workspace is forbidden")
    assert result == ToolResult(
        "Error [permission_denied]: Writing outside the workspace is forbidden",
        True,
        "permission_denied",
    )
    assert tool_success("ok") == ToolResult("ok", False, None)


@pytest.mark.parametrize(
    "value",
    [
        "ok",
        {"content": "ok", "is_error": False},
        ToolResult(1, False),  # type: ignore[arg-type]
        ToolResult("x", True, None),
        ToolResult("x", False, "code"),
        ToolResult("x", "no", None),  # type: ignore[arg-type]
    ],
)
def test_is_tool_result_refuses_malformed_values(value: object) -> None:
    assert not is_tool_result(value)


def test_behavior_order_makes_the_merge_a_max() -> None:
    assert Behavior.PASSTHROUGH < Behavior.ALLOW < Behavior.ASK < Behavior.DENY
    assert max([Behavior.ALLOW, Behavior.DENY, Behavior.ASK]) is Behavior.DENY


@pytest.mark.parametrize(
    ("behavior", "reason", "source"),
    [
        ("maybe", "r", "s"),
        ("ALLOW", "r", "s"),
        (1, "r", "s"),
        ("deny", "", "s"),
        ("deny", "  ", "s"),
        ("deny", "r", ""),
        ("deny", None, "s"),
    ],
)
def test_decision_refuses_bad_fields(behavior: object, reason: object, source: object) -> None:
    with pytest.raises(PermissionContractError):
        Decision(behavior, reason, source)  # type: ignore[arg-type]


def test_decision_is_frozen() -> None:
    decision = Decision("allow", "r", "s")
    with pytest.raises(AttributeError):
        decision.behavior = Behavior.DENY  # type: ignore[misc]


@pytest.mark.parametrize("behavior", ["allow", "ask", "passthrough"])
def test_only_a_deny_becomes_a_tool_result(behavior: str) -> None:
    with pytest.raises(PermissionContractError):
        Decision(behavior, "r", "s").to_tool_result()
    assert Decision("deny", "No", "s").to_tool_result().content == "Error [permission_denied]: No"


def test_openai_tools_expose_only_name_description_and_schema() -> None:
    tools = ToolRegistry(builtin_definitions()).openai_tools()
    assert [t["function"]["name"] for t in tools] == [
        "shell",
        "read_file",
        "write_file",
        "edit_file",
        "glob",
    ]
    for tool in tools:
        assert set(tool) == {"type", "function"}
        assert set(tool["function"]) == {"name", "description", "parameters"}
        assert tool["function"]["parameters"]["additionalProperties"] is False


@pytest.mark.parametrize("name", ["", "rm -rf", "a.b", "naïve", "x/y"])
def test_tool_names_are_word_characters_only(name: str) -> None:
    with pytest.raises(PermissionContractError):
        ToolDefinition(name, "d", ArgumentSpec(()), Effect.READ)


def test_tool_names_are_unique() -> None:
    definition = builtin_definitions()[0]
    with pytest.raises(PermissionContractError, match="duplicate tool name: shell"):
        ToolSnapshot([definition, definition])


def test_a_snapshot_does_not_change_when_the_registry_does() -> None:
    registry = ToolRegistry(builtin_definitions()[:1])
    snapshot = registry.snapshot()
    registry.register(builtin_definitions()[1])
    assert snapshot.names == ("shell",)
    assert registry.snapshot().names == ("shell", "read_file")
    with pytest.raises(TypeError):
        snapshot._definitions["x"] = builtin_definitions()[0]  # type: ignore[index]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ("[1]", "arguments must be a JSON object"),
        ({}, "missing required argument: path"),
        ({"path": 3}, "path must be a string"),
        ({"path": "a", "extra": 1}, "unexpected argument: extra"),
    ],
)
def test_prepare_refuses_invalid_arguments(arguments: object, message: str) -> None:
    prepared = ToolRegistry(builtin_definitions()).prepare(ToolCall("c", "read_file", arguments))  # type: ignore[arg-type]
    assert prepared.error == tool_error("invalid_arguments", message)


def test_edit_file_replace_all_must_be_a_real_boolean() -> None:
    registry = ToolRegistry(builtin_definitions())
    prepared = registry.prepare(
        ToolCall(
            "c", "edit_file", {"path": "a", "old_string": "x", "new_string": "y", "replace_all": 1}
        )
    )
    assert prepared.error is not None and prepared.error.content == (
        "Error [invalid_arguments]: replace_all must be a boolean"
    )


def test_a_permission_request_needs_a_prepared_call() -> None:
    failed = ToolRegistry(builtin_definitions()).prepare(ToolCall("c", "nope", "{}"))
    with pytest.raises(PermissionContractError, match="valid prepared tool call"):
        PermissionRequest(failed, ToolContext("/tmp"))


def test_invoke_turns_handler_faults_into_stable_results() -> None:
    def crash(arguments: object, context: ToolContext) -> ToolResult:
        raise RuntimeError("secret stack detail")

    def garbage(arguments: object, context: ToolContext) -> ToolResult:
        return "not a result"  # type: ignore[return-value]

    registry = ToolRegistry(builtin_definitions(handlers={"glob": crash, "read_file": garbage}))
    context = ToolContext("/tmp")
    crashed = registry.invoke(registry.prepare(ToolCall("c", "glob", {"pattern": "*"})), context)
    garbled = registry.invoke(registry.prepare(ToolCall("c", "read_file", {"path": "a"})), context)
    assert crashed.content == "Error [tool_execution_error]: Tool execution failed: glob"
    assert "secret" not in crashed.content
    assert garbled.content == "Error [invalid_tool_result]: Tool handler returned an invalid result"
