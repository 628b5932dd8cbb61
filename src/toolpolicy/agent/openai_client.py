"""``OpenAIChatModel``: an OpenAI-compatible Chat Completions client on the standard library.

``POST {base_url}/chat/completions`` with the history and the tools (only name, description
and parameters of each). 429 and 5xx answers and network failures are retried a bounded
number of times with exponential backoff, honouring ``Retry-After`` up to a cap. 401/403 and
404 fail at once with a message that says what to check. Redirects are refused, so the API
key never follows one to another host. The answer is read up to a size bound and narrowed
field by field into a ``ModelReply``; anything else is a ``ModelResponseError``.
"""

from __future__ import annotations

import email.utils
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from .._version import __version__
from ..core.errors import ConfigurationError
from ..tools.registry import ToolCall
from .errors import ModelRequestError, ModelResponseError
from .messages import Message, chat_messages, validate_tool_pairing
from .model import FinishReason, ModelReply

__all__ = ["DEFAULT_BASE_URL", "MAX_RESPONSE_BYTES", "OpenAIChatModel", "narrow_reply"]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
MAX_RESPONSE_BYTES = 16 * 1024 * 1024
MAX_ERROR_BYTES = 64 * 1024
MAX_ERROR_MESSAGE_CHARS = 300
MAX_MODEL_NAME_CHARS = 256


class _RefuseRedirects(urllib.request.HTTPRedirectHandler):
    """Turn every redirect into the HTTP error it is (urllib would resend the key)."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class OpenAIChatModel:
    """A model client for any server that speaks the Chat Completions API."""

    __slots__ = (
        "_api_key",
        "_backoff",
        "_endpoint",
        "_max_attempts",
        "_max_delay",
        "_model",
        "_opener",
        "_retry_after_cap",
        "_sleep",
        "_timeout",
    )

    def __init__(
        self,
        model: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        api_key: str | None = None,
        timeout: float = 120.0,
        max_attempts: int = 4,
        backoff: float = 0.5,
        max_delay: float = 8.0,
        retry_after_cap: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """``max_attempts`` counts the first try; delays double from ``backoff`` up to
        ``max_delay``; a ``Retry-After`` is honoured up to ``retry_after_cap`` seconds."""
        if not model or len(model) > MAX_MODEL_NAME_CHARS or not model.isprintable():
            raise ConfigurationError("the model name must be 1 to 256 printable characters")
        if not 1 <= max_attempts <= 10:
            raise ConfigurationError("max_attempts must be between 1 and 10")
        if timeout <= 0 or backoff < 0 or max_delay < 0 or retry_after_cap < 0:
            raise ConfigurationError("timeout must be positive and delays not negative")
        self._model = model
        self._endpoint = _endpoint(base_url)
        self._api_key = api_key or None
        self._timeout = timeout
        self._max_attempts = max_attempts
        self._backoff = backoff
        self._max_delay = max_delay
        self._retry_after_cap = retry_after_cap
        self._sleep = sleep
        self._opener = urllib.request.build_opener(_RefuseRedirects())

    @classmethod
    def from_environment(
        cls,
        model: str,
        base_url: str | None = None,
        environ: Mapping[str, str] | None = None,
        **options: Any,
    ) -> OpenAIChatModel:
        """Base URL from ``base_url``, else ``OPENAI_BASE_URL``, else OpenAI's; the key from
        ``OPENAI_API_KEY`` (required only for OpenAI's own endpoint)."""
        env = os.environ if environ is None else environ
        url = base_url or env.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        key = env.get("OPENAI_API_KEY") or None
        if key is None and url.rstrip("/") == DEFAULT_BASE_URL:
            raise ConfigurationError(f"OPENAI_API_KEY is not set (needed for {DEFAULT_BASE_URL})")
        return cls(model, base_url=url, api_key=key, **options)

    @property
    def endpoint(self) -> str:
        """The URL every request is posted to."""
        return self._endpoint

    def complete(
        self, history: Sequence[Message], tools: Sequence[Mapping[str, Any]]
    ) -> ModelReply:
        """Send the history and tools; the narrowed reply, or a run error."""
        validate_tool_pairing(history)
        payload: dict[str, Any] = {"model": self._model, "messages": chat_messages(history)}
        if tools:
            payload["tools"] = [_tool(t) for t in tools]
        body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        return narrow_reply(self._post(body))

    def _post(self, body: bytes) -> bytes:
        failure = ""
        status: int | None = None
        for attempt in range(1, self._max_attempts + 1):
            retry_after: float | None = None
            try:
                with self._opener.open(self._request(body), timeout=self._timeout) as response:
                    data: bytes = response.read(MAX_RESPONSE_BYTES + 1)
                if len(data) > MAX_RESPONSE_BYTES:
                    raise ModelResponseError(
                        f"the model server's answer is larger than {MAX_RESPONSE_BYTES} bytes"
                    )
                return data
            except urllib.error.HTTPError as exc:
                status = exc.code
                detail = _error_detail(exc)
                exc.close()
                if exc.code != 429 and not 500 <= exc.code <= 599:
                    raise self._http_error(exc.code, detail) from None
                failure = f"HTTP {exc.code}" + (f": {detail}" if detail else "")
                retry_after = _retry_after(exc.headers.get("Retry-After"))
            except (urllib.error.URLError, OSError) as exc:
                status = None
                reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
                failure = f"cannot reach {self._endpoint}: {_one_line(str(reason))}"
            if attempt < self._max_attempts:
                self._sleep(self._delay(attempt, retry_after))
        raise ModelRequestError(
            f"the model request failed after {self._max_attempts} attempts ({failure})", status
        )

    def _request(self, body: bytes) -> urllib.request.Request:
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": f"toolpolicy/{__version__}",
        }
        if self._api_key is not None:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return urllib.request.Request(self._endpoint, data=body, headers=headers, method="POST")

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self._retry_after_cap)
        return min(self._backoff * 2.0 ** (attempt - 1), self._max_delay)

    def _http_error(self, status: int, detail: str) -> ModelRequestError:
        suffix = f": {detail}" if detail else ""
        if status in (401, 403):
            message = (
                f"the model server refused the credentials (HTTP {status}); "
                f"check OPENAI_API_KEY{suffix}"
            )
        elif status == 404:
            message = (
                f"the model server has no {self._endpoint} or no model {self._model!r} "
                f"(HTTP 404); check --base-url and --model{suffix}"
            )
        elif 300 <= status <= 399:
            message = (
                f"the model server redirected (HTTP {status}); give the final URL as --base-url"
            )
        else:
            message = f"the model server rejected the request (HTTP {status}){suffix}"
        return ModelRequestError(message, status)


def narrow_reply(body: bytes) -> ModelReply:
    """The first choice of a Chat Completions answer, checked field by field."""
    try:
        data: object = json.loads(body)
    except (ValueError, RecursionError):
        raise ModelResponseError("malformed model response: not JSON") from None
    root = _object(data, "response")
    choices = root.get("choices")
    if not isinstance(choices, list) or not choices:
        raise ModelResponseError("malformed model response: choices must be a non-empty list")
    choice = _object(choices[0], "choices[0]")
    message = _object(choice.get("message"), "choices[0].message")
    finish = choice.get("finish_reason")
    if not isinstance(finish, str) or finish not in {f.value for f in FinishReason}:
        raise ModelResponseError(
            f"malformed model response: unknown finish_reason {_one_line(repr(finish))}"
        )
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        raise ModelResponseError("malformed model response: message.content must be a string")
    raw_calls = message.get("tool_calls")
    if raw_calls is None:
        raw_calls = []
    if not isinstance(raw_calls, list):
        raise ModelResponseError("malformed model response: message.tool_calls must be a list")
    calls = tuple(_tool_call(index, item) for index, item in enumerate(raw_calls))
    return ModelReply(content, calls, FinishReason(finish))


def _tool_call(index: int, item: object) -> ToolCall:
    where = f"message.tool_calls[{index}]"
    call = _object(item, where)
    if call.get("type", "function") != "function":
        raise ModelResponseError(f"malformed model response: {where}.type must be 'function'")
    function = _object(call.get("function"), f"{where}.function")
    call_id = _text(call.get("id"), f"{where}.id")
    name = _text(function.get("name"), f"{where}.function.name")
    arguments = function.get("arguments")
    if not isinstance(arguments, str):
        raise ModelResponseError(
            f"malformed model response: {where}.function.arguments must be a JSON string"
        )
    return ToolCall(call_id, name, arguments)


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise ModelResponseError(f"malformed model response: {where} must be a non-empty string")
    return value


def _object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ModelResponseError(f"malformed model response: {where} must be an object")
    return value


def _tool(tool: Mapping[str, Any]) -> dict[str, Any]:
    function = tool.get("function")
    if not isinstance(function, Mapping):
        raise ConfigurationError("a tool must look like {'type': 'function', 'function': {...}}")
    return {
        "type": "function",
        "function": {
            "name": function["name"],
            "description": function["description"],
            "parameters": function["parameters"],
        },
    }


def _endpoint(base_url: str) -> str:
    parts = urllib.parse.urlsplit(base_url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigurationError(f"the base URL must be http(s)://host[:port][/path]: {base_url}")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise ConfigurationError(
            "the base URL must not carry credentials, a query or a fragment "
            "(the key goes in OPENAI_API_KEY)"
        )
    return urllib.parse.urlunsplit(
        (parts.scheme, parts.netloc, parts.path.rstrip("/") + "/chat/completions", "", "")
    )


def _retry_after(value: str | None) -> float | None:
    if value is None:
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            return None
        seconds = (when - datetime.now(UTC)).total_seconds()
    if seconds != seconds:  # NaN
        return None
    return max(0.0, seconds)


def _error_detail(exc: urllib.error.HTTPError) -> str:
    try:
        raw = exc.read(MAX_ERROR_BYTES)
    except OSError:
        return ""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return ""
    error = data.get("error") if isinstance(data, dict) else None
    message = error.get("message") if isinstance(error, dict) else error
    return _one_line(message) if isinstance(message, str) else ""


def _one_line(text: str) -> str:
    flat = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    if len(flat) > MAX_ERROR_MESSAGE_CHARS:
        return flat[: MAX_ERROR_MESSAGE_CHARS - 3] + "..."
    return flat
