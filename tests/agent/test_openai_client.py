"""OpenAIChatModel against a real HTTP server on 127.0.0.1 (http.server in a thread)."""

from __future__ import annotations

import io
import json
import socket
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.agent.compose import build_agent
from toolpolicy.agent.errors import (
    IncompleteModelReplyError,
    ModelRequestError,
    ModelResponseError,
    ToolPairingError,
)
from toolpolicy.agent.messages import (
    AssistantMessage,
    Message,
    ToolMessage,
    UserMessage,
)
from toolpolicy.agent.model import FinishReason, ModelReply
from toolpolicy.agent.openai_client import DEFAULT_BASE_URL, OpenAIChatModel, narrow_reply
from toolpolicy.core.errors import ConfigurationError
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.audit import TerminalAuditSink
from toolpolicy.engine.selection import ToolPolicy
from toolpolicy.tools.definitions import builtin_definitions
from toolpolicy.tools.registry import ToolCall, ToolSnapshot

from .conftest import ChatServer, completion

TOOL_CALLS = completion(
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "glob", "arguments": '{"pattern": "*.py"}'},
            },
            {
                "id": "call_2",
                "type": "function",
                "function": {"name": "read_file", "arguments": '{"path": "a"}'},
            },
        ],
    },
    "tool_calls",
)
HISTORY: list[Message] = [UserMessage("hi")]
TOOLS = ToolSnapshot(builtin_definitions()).openai_tools()


class Sleeps(list[float]):
    """Records the backoff delays instead of sleeping."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def client(server: ChatServer, sleeps: Sleeps | None = None, **options: Any) -> OpenAIChatModel:
    return OpenAIChatModel(
        "test-model",
        base_url=server.url,
        api_key="sk-test",
        sleep=sleeps if sleeps is not None else Sleeps(),
        **options,
    )


def test_a_reply_with_tool_calls_is_narrowed_into_calls(server: ChatServer) -> None:
    server.reply(200, TOOL_CALLS)
    reply = client(server).complete(HISTORY, TOOLS)
    assert reply == ModelReply(
        None,
        (
            ToolCall("call_1", "glob", '{"pattern": "*.py"}'),
            ToolCall("call_2", "read_file", '{"path": "a"}'),
        ),
        FinishReason.TOOL_CALLS,
    )


def test_the_request_carries_model_history_key_and_bare_tools(server: ChatServer) -> None:
    server.reply(200, completion({"role": "assistant", "content": "hello"}))
    history: list[Message] = [
        UserMessage("hi"),
        AssistantMessage(None, (ToolCall("c1", "glob", {"pattern": "*"}),)),
        ToolMessage("c1", "a.py"),
    ]
    reply = client(server).complete(history, TOOLS)
    assert reply == ModelReply("hello", (), FinishReason.STOP)
    (got,) = server.received
    assert got.path == "/v1/chat/completions"
    assert got.headers["Authorization"] == "Bearer sk-test"
    assert got.headers["Content-Type"] == "application/json"
    assert got.body["model"] == "test-model"
    assert got.body["messages"] == [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "glob", "arguments": '{"pattern": "*"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "a.py"},
    ]
    assert [t["function"]["name"] for t in got.body["tools"]] == [
        "shell",
        "read_file",
        "write_file",
        "edit_file",
        "glob",
    ]
    for tool in got.body["tools"]:
        assert set(tool) == {"type", "function"}
        assert set(tool["function"]) == {"name", "description", "parameters"}


def test_no_tools_means_no_tools_key_and_no_key_means_no_authorization(
    server: ChatServer,
) -> None:
    server.reply(200, completion({"role": "assistant", "content": "x"}))
    OpenAIChatModel("m", base_url=server.url, sleep=Sleeps()).complete(HISTORY, [])
    (got,) = server.received
    assert "tools" not in got.body
    assert "Authorization" not in got.headers


def test_an_unpaired_history_is_never_sent(server: ChatServer) -> None:
    with pytest.raises(ToolPairingError):
        client(server).complete([UserMessage("hi"), ToolMessage("x", "r")], TOOLS)
    assert server.received == []


def test_429_then_200_retries_once_honouring_retry_after(server: ChatServer) -> None:
    server.reply(429, {"error": {"message": "slow down"}}, **{"Retry-After": "2"})
    server.reply(200, TOOL_CALLS)
    sleeps = Sleeps()
    reply = client(server, sleeps).complete(HISTORY, TOOLS)
    assert [c.id for c in reply.tool_calls] == ["call_1", "call_2"]
    assert sleeps == [2.0]
    assert len(server.received) == 2


def test_a_long_retry_after_is_capped(server: ChatServer) -> None:
    server.reply(429, b"", **{"Retry-After": "86400"})
    server.reply(200, TOOL_CALLS)
    sleeps = Sleeps()
    client(server, sleeps, retry_after_cap=5.0).complete(HISTORY, TOOLS)
    assert sleeps == [5.0]


def test_5xx_answers_exhaust_a_bounded_number_of_retries(server: ChatServer) -> None:
    for status in (500, 502, 503, 504):
        server.reply(status, {"error": {"message": f"down {status}"}})
    sleeps = Sleeps()
    with pytest.raises(ModelRequestError) as info:
        client(server, sleeps, max_attempts=4, backoff=0.5, max_delay=1.5).complete(HISTORY, TOOLS)
    assert str(info.value) == "the model request failed after 4 attempts (HTTP 504: down 504)"
    assert info.value.status == 504
    assert len(server.received) == 4
    assert sleeps == [0.5, 1.0, 1.5]
    assert server.responses == []


def test_401_fails_at_once_and_names_the_key(server: ChatServer) -> None:
    server.reply(401, {"error": {"message": "Incorrect API key provided"}})
    sleeps = Sleeps()
    with pytest.raises(ModelRequestError) as info:
        client(server, sleeps).complete(HISTORY, TOOLS)
    assert str(info.value) == (
        "the model server refused the credentials (HTTP 401); check OPENAI_API_KEY: "
        "Incorrect API key provided"
    )
    assert info.value.status == 401
    assert sleeps == []
    assert len(server.received) == 1


def test_404_fails_at_once_and_names_the_url_and_model(server: ChatServer) -> None:
    server.reply(404, b"<html>not found</html>")
    with pytest.raises(ModelRequestError) as info:
        client(server).complete(HISTORY, TOOLS)
    assert str(info.value) == (
        f"the model server has no {server.url}/chat/completions or no model 'test-model' "
        "(HTTP 404); check --base-url and --model"
    )


def test_another_4xx_reports_the_servers_message_on_one_line(server: ChatServer) -> None:
    server.reply(400, {"error": {"message": "bad\nrequest\x1b[31m"}})
    with pytest.raises(ModelRequestError) as info:
        client(server).complete(HISTORY, TOOLS)
    assert str(info.value) == "the model server rejected the request (HTTP 400): bad request [31m"


def test_a_redirect_is_refused_and_the_key_does_not_follow_it(server: ChatServer) -> None:
    server.reply(307, b"", Location="http://127.0.0.1:9/elsewhere")
    with pytest.raises(ModelRequestError) as info:
        client(server).complete(HISTORY, TOOLS)
    assert str(info.value) == (
        "the model server redirected (HTTP 307); give the final URL as --base-url"
    )
    assert len(server.received) == 1


def test_malformed_json_is_a_response_error(server: ChatServer) -> None:
    server.reply(200, b"{not json")
    with pytest.raises(ModelResponseError) as info:
        client(server).complete(HISTORY, TOOLS)
    assert str(info.value) == "malformed model response: not JSON"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ([], "response must be an object"),
        ({"choices": []}, "choices must be a non-empty list"),
        ({"choices": [1]}, "choices[0] must be an object"),
        ({"choices": [{"finish_reason": "stop"}]}, "choices[0].message must be an object"),
        (completion({"content": "x"}, "eos"), "unknown finish_reason 'eos'"),
        ({"choices": [{"message": {"content": "x"}}]}, "unknown finish_reason None"),
        (completion({"content": 5}), "message.content must be a string"),
        (completion({"tool_calls": {}}), "message.tool_calls must be a list"),
        (completion({"tool_calls": ["x"]}), "message.tool_calls[0] must be an object"),
        (
            completion({"tool_calls": [{"id": "1", "type": "code", "function": {}}]}),
            "message.tool_calls[0].type must be 'function'",
        ),
        (
            completion({"tool_calls": [{"id": "", "function": {"name": "g", "arguments": ""}}]}),
            "message.tool_calls[0].id must be a non-empty string",
        ),
        (
            completion({"tool_calls": [{"id": "1", "function": {"arguments": "{}"}}]}),
            "message.tool_calls[0].function.name must be a non-empty string",
        ),
        (
            completion({"tool_calls": [{"id": "1", "function": {"name": "g", "arguments": {}}}]}),
            "message.tool_calls[0].function.arguments must be a JSON string",
        ),
    ],
)
def test_a_wrongly_shaped_answer_is_a_response_error(
    server: ChatServer, body: object, message: str
) -> None:
    server.reply(200, body)
    with pytest.raises(ModelResponseError) as info:
        client(server).complete(HISTORY, TOOLS)
    assert str(info.value) == f"malformed model response: {message}"


@pytest.mark.parametrize(
    ("finish", "reason"), [("length", "length"), ("content_filter", "content_filter")]
)
def test_a_truncated_or_filtered_reply_ends_the_run(
    server: ChatServer, p03: ToolPolicy, finish: str, reason: str
) -> None:
    server.reply(
        200, TOOL_CALLS | {"choices": [TOOL_CALLS["choices"][0] | {"finish_reason": finish}]}
    )
    audit = io.StringIO()
    runner = build_agent(
        p03, client(server), approval=ApprovalService(), audit=[TerminalAuditSink(audit)]
    )
    with pytest.raises(IncompleteModelReplyError) as info:
        runner.run("go")
    assert info.value.reason == reason
    assert audit.getvalue() == ""


def test_an_unreachable_server_is_retried_then_reported() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sleeps = Sleeps()
    model = OpenAIChatModel("m", base_url=f"http://127.0.0.1:{port}", sleep=sleeps, max_attempts=2)
    with pytest.raises(ModelRequestError) as info:
        model.complete(HISTORY, [])
    assert str(info.value).startswith(
        f"the model request failed after 2 attempts (cannot reach http://127.0.0.1:{port}/"
        "chat/completions: "
    )
    assert info.value.status is None
    assert len(sleeps) == 1


@pytest.mark.parametrize(
    "url",
    ["ftp://host/v1", "http://", "https://user:pw@host/v1", "https://host/v1?x=1", "host:80"],
)
def test_a_bad_base_url_is_a_configuration_error(url: str) -> None:
    with pytest.raises(ConfigurationError):
        OpenAIChatModel("m", base_url=url)


def test_the_environment_gives_the_base_url_and_key() -> None:
    env = {"OPENAI_BASE_URL": "http://127.0.0.1:1/v1/", "OPENAI_API_KEY": "k"}
    model = OpenAIChatModel.from_environment("m", environ=env)
    assert model.endpoint == "http://127.0.0.1:1/v1/chat/completions"
    flag = OpenAIChatModel.from_environment("m", "http://localhost:2", environ=env)
    assert flag.endpoint == "http://localhost:2/chat/completions"


def test_openais_own_endpoint_needs_a_key() -> None:
    with pytest.raises(ConfigurationError) as info:
        OpenAIChatModel.from_environment("m", environ={})
    assert str(info.value) == f"OPENAI_API_KEY is not set (needed for {DEFAULT_BASE_URL})"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)
shaped = st.fixed_dictionaries(
    {
        "choices": st.lists(
            st.fixed_dictionaries(
                {
                    "message": st.dictionaries(
                        st.sampled_from(["content", "tool_calls", "role"]), json_values
                    ),
                    "finish_reason": st.sampled_from(["stop", "length", "tool_calls", "x"]),
                }
            ),
            max_size=2,
        )
    }
)


@settings(max_examples=200)
@given(st.one_of(json_values, shaped))
def test_any_answer_narrows_to_a_reply_or_a_response_error(body: object) -> None:
    try:
        reply = narrow_reply(json.dumps(body).encode())
    except ModelResponseError:
        return
    assert isinstance(reply, ModelReply)
    assert reply.content is None or isinstance(reply.content, str)
    assert all(isinstance(c.arguments, str) for c in reply.tool_calls)
