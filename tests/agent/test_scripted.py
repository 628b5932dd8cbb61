"""ScriptedModel: JSONL replies, checked whole at load time, errors at file:line."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolpolicy.agent.errors import IncompleteModelReplyError
from toolpolicy.agent.model import FinishReason, ModelReply
from toolpolicy.agent.scripted import MAX_SCRIPT_BYTES, ScriptedModel, parse_script
from toolpolicy.core.errors import ConfigurationError
from toolpolicy.tools.registry import ToolCall

from .conftest import SEED_SCRIPT


def test_the_seed_script_replays_calls_a_b_c_then_the_answer() -> None:
    model = ScriptedModel.from_file(SEED_SCRIPT)
    got = [model.complete([], []) for _ in range(4)]
    assert [c.id for r in got for c in r.tool_calls] == ["call_A", "call_B", "call_C"]
    assert got[0].tool_calls[0] == ToolCall("call_A", "glob", {"pattern": "src/**/*.py"})
    assert got[2].tool_calls[0] == ToolCall(
        "call_C", "write_file", {"path": "../outside.txt", "content": "x"}
    )
    assert [r.finish_reason for r in got] == [FinishReason.TOOL_CALLS] * 3 + [FinishReason.STOP]
    assert got[3].content is not None and got[3].content.startswith("Done:")
    with pytest.raises(IncompleteModelReplyError) as info:
        model.complete([], [])
    assert str(info.value) == f"the script {SEED_SCRIPT} has no reply left (all 4 were used)"


def test_string_arguments_are_kept_verbatim_even_when_not_json() -> None:
    (reply,) = parse_script('{"tool_calls": [{"id": "1", "name": "glob", "arguments": "{oops"}]}')
    assert reply.tool_calls == (ToolCall("1", "glob", "{oops"),)


def test_content_tool_calls_and_finish_reason_may_come_together() -> None:
    line = (
        '{"content": "let me look", "finish_reason": "length", '
        '"tool_calls": [{"id": "1", "name": "glob", "arguments": {}}]}'
    )
    assert parse_script(line) == (
        ModelReply("let me look", (ToolCall("1", "glob", {}),), FinishReason.LENGTH),
    )


def test_blank_lines_are_skipped_and_an_empty_object_is_an_empty_reply() -> None:
    assert parse_script('\n  \n{}\n\n{"content": "x"}\n') == (ModelReply(None), ModelReply("x"))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "s.jsonl:2: not valid JSON: Expecting value (column 1)"),
        ("[]", "s.jsonl:2: a reply must be a JSON object"),
        (
            '{"text": "x"}',
            "s.jsonl:2: unknown key 'text' (keys: content, tool_calls, finish_reason)",
        ),
        ('{"content": 1}', "s.jsonl:2: content must be a string"),
        ('{"content": "a", "content": "b"}', "s.jsonl:2: duplicate key 'content'"),
        ('{"tool_calls": {}}', "s.jsonl:2: tool_calls must be a list"),
        ('{"tool_calls": [1]}', "s.jsonl:2: tool_calls[0] must be an object"),
        (
            '{"tool_calls": [{"id": "1", "name": "glob"}]}',
            "s.jsonl:2: tool_calls[0] needs 'arguments' (keys: id, name, arguments)",
        ),
        (
            '{"tool_calls": [{"id": "1", "name": "glob", "arguments": {}, "type": "function"}]}',
            "s.jsonl:2: tool_calls[0] has unknown key 'type' (keys: id, name, arguments)",
        ),
        (
            '{"tool_calls": [{"id": 1, "name": "glob", "arguments": {}}]}',
            "s.jsonl:2: tool_calls[0]: id and name must be strings",
        ),
        (
            '{"tool_calls": [{"id": "1", "name": "glob", "arguments": [1]}]}',
            "s.jsonl:2: tool_calls[0]: arguments must be a JSON string or an object",
        ),
        (
            '{"tool_calls": [{"id": "", "name": "glob", "arguments": {}}]}',
            "s.jsonl:2: a tool call id is empty or longer than 256 characters",
        ),
        (
            '{"tool_calls": [{"id": "1", "name": "a", "arguments": {}}, '
            '{"id": "1", "name": "b", "arguments": {}}]}',
            "s.jsonl:2: the reply repeats a tool call id",
        ),
        ('{"finish_reason": "eos"}', "s.jsonl:2: unknown finish_reason 'eos'"),
        ("[" * 100_000, "s.jsonl:2: reply is nested too deeply"),
    ],
)
def test_a_bad_line_is_refused_with_its_file_and_line(line: str, message: str) -> None:
    with pytest.raises(ConfigurationError) as info:
        parse_script('{"content": "fine"}\n' + line + "\n", "s.jsonl")
    assert str(info.value) == message


def test_a_bad_line_fails_the_load_before_any_reply_is_used(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text('{"content": "fine"}\n{"content": 2}\n')
    with pytest.raises(ConfigurationError) as info:
        ScriptedModel.from_file(path)
    assert str(info.value) == f"{path}:2: content must be a string"


def test_a_missing_script_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError) as info:
        ScriptedModel.from_file(tmp_path / "nope.jsonl")
    assert (
        str(info.value)
        == f"cannot read script {tmp_path / 'nope.jsonl'}: No such file or directory"
    )


def test_a_script_over_the_size_bound_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    with path.open("wb") as stream:
        stream.truncate(MAX_SCRIPT_BYTES + 1)
    with pytest.raises(ConfigurationError) as info:
        ScriptedModel.from_file(path)
    assert str(info.value) == f"{path}: script is larger than {MAX_SCRIPT_BYTES} bytes"


def test_a_script_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "latin.jsonl"
    path.write_bytes(b'{"content": "caf\xe9"}\n')
    with pytest.raises(ConfigurationError) as info:
        ScriptedModel.from_file(path)
    assert str(info.value) == f"{path}: script is not UTF-8"
