"""validate_tool_pairing: every tool call answered right after it, by id, in order."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from toolpolicy.agent.errors import AgentRunError, ToolPairingError
from toolpolicy.agent.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolMessage,
    UserMessage,
    chat_messages,
    validate_tool_pairing,
)
from toolpolicy.core.errors import ToolPolicyError
from toolpolicy.tools.registry import ToolCall


def calls(*ids: str) -> AssistantMessage:
    return AssistantMessage(None, tuple(ToolCall(i, "glob", {"pattern": "*"}) for i in ids))


START: list[Message] = [SystemMessage("sys"), UserMessage("go")]


def test_a_paired_history_passes() -> None:
    validate_tool_pairing(
        [
            *START,
            calls("a", "b"),
            ToolMessage("a", "ra"),
            ToolMessage("b", "rb"),
            calls("c"),
            ToolMessage("c", "rc"),
            AssistantMessage("done"),
        ]
    )


def test_an_orphan_tool_message_is_refused() -> None:
    with pytest.raises(ToolPairingError) as info:
        validate_tool_pairing([*START, ToolMessage("a", "r")])
    assert str(info.value) == "message 2: tool message for 'a' answers no pending tool call"


def test_an_extra_tool_message_is_refused() -> None:
    with pytest.raises(ToolPairingError) as info:
        validate_tool_pairing([*START, calls("a"), ToolMessage("a", "r"), ToolMessage("a", "r")])
    assert str(info.value) == "message 4: tool message for 'a' answers no pending tool call"


def test_a_missing_tool_message_is_refused() -> None:
    with pytest.raises(ToolPairingError) as info:
        validate_tool_pairing([*START, calls("a", "b"), ToolMessage("a", "r"), UserMessage("?")])
    assert str(info.value) == "message 4: tool call 'b' has no tool message"


def test_calls_left_unanswered_at_the_end_are_refused() -> None:
    with pytest.raises(ToolPairingError) as info:
        validate_tool_pairing([*START, calls("a")])
    assert str(info.value) == "message 3: tool call 'a' has no tool message"


def test_a_wrong_id_is_refused() -> None:
    with pytest.raises(ToolPairingError) as info:
        validate_tool_pairing([*START, calls("a"), ToolMessage("zzz", "r")])
    assert str(info.value) == "message 3: expected the tool message for 'a', got one for 'zzz'"


def test_a_wrong_order_is_refused() -> None:
    with pytest.raises(ToolPairingError) as info:
        validate_tool_pairing(
            [*START, calls("a", "b"), ToolMessage("b", "r"), ToolMessage("a", "r")]
        )
    assert str(info.value) == "message 3: expected the tool message for 'a', got one for 'b'"


def test_an_assistant_message_between_calls_and_results_is_refused() -> None:
    with pytest.raises(ToolPairingError):
        validate_tool_pairing([*START, calls("a"), AssistantMessage("hm"), ToolMessage("a", "r")])


def test_a_repeated_call_id_in_one_reply_is_refused() -> None:
    with pytest.raises(ToolPairingError) as info:
        validate_tool_pairing(
            [*START, calls("a", "a"), ToolMessage("a", "r"), ToolMessage("a", "r")]
        )
    assert str(info.value) == "message 2: an assistant message repeats a call id"


def test_pairing_errors_are_run_errors_of_the_one_family() -> None:
    assert issubclass(ToolPairingError, AgentRunError)
    assert issubclass(AgentRunError, ToolPolicyError)


def test_the_chat_shape_carries_ids_and_json_string_arguments() -> None:
    history: list[Message] = [
        UserMessage("go"),
        AssistantMessage("thinking", (ToolCall("a", "glob", {"pattern": "*.py"}),)),
        ToolMessage("a", "x.py"),
    ]
    assert chat_messages(history) == [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": "thinking",
            "tool_calls": [
                {
                    "id": "a",
                    "type": "function",
                    "function": {"name": "glob", "arguments": '{"pattern": "*.py"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "a", "content": "x.py"},
    ]


ids = st.lists(st.text("abcdef", min_size=1, max_size=3), min_size=1, max_size=4, unique=True)


def paired(rounds: list[list[str]]) -> list[Message]:
    history: list[Message] = list(START)
    for round_ids in rounds:
        history.append(calls(*round_ids))
        history.extend(ToolMessage(i, "r") for i in round_ids)
    history.append(AssistantMessage("done"))
    return history


@settings(max_examples=200)
@given(st.lists(ids, max_size=4))
def test_any_paired_history_passes(rounds: list[list[str]]) -> None:
    validate_tool_pairing(paired(rounds))


@settings(max_examples=200)
@given(st.lists(ids, min_size=1, max_size=4), st.data())
def test_dropping_or_duplicating_any_tool_message_is_refused(
    rounds: list[list[str]], data: st.DataObject
) -> None:
    history = paired(rounds)
    positions = [i for i, m in enumerate(history) if isinstance(m, ToolMessage)]
    position = data.draw(st.sampled_from(positions))
    dropped = history[:position] + history[position + 1 :]
    duplicated = history[: position + 1] + history[position:]
    for broken in (dropped, duplicated):
        with pytest.raises(ToolPairingError):
            validate_tool_pairing(broken)


@settings(max_examples=200)
@given(st.lists(ids, min_size=1, max_size=3), st.data())
def test_swapping_two_results_of_one_reply_is_refused(
    rounds: list[list[str]], data: st.DataObject
) -> None:
    history = paired(rounds)
    starts = [
        i
        for i, m in enumerate(history)
        if isinstance(m, AssistantMessage) and len(m.tool_calls) >= 2
    ]
    assume(starts)
    start = data.draw(st.sampled_from(starts))
    assistant = history[start]
    assert isinstance(assistant, AssistantMessage)
    count = len(assistant.tool_calls)
    i = data.draw(st.integers(0, count - 2))
    j = data.draw(st.integers(i + 1, count - 1))
    history[start + 1 + i], history[start + 1 + j] = history[start + 1 + j], history[start + 1 + i]
    with pytest.raises(ToolPairingError):
        validate_tool_pairing(history)
