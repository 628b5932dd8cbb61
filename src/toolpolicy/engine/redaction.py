"""The arguments an audit line records with ``--audit-arguments``: replayable, not secret.

Paths, commands and patterns stay as they are (``toolpolicy diff --calls`` replays them).
A value under a secret-looking key (``token``, ``password``, ``secret``, ``authorization``,
``api_key``, ``cookie``, ``credential``, ``private_key`` ..., at any depth, any case, with
``-``/``_`` ignored) becomes ``"<redacted>"``. File contents — ``content``, ``old_string``,
``new_string``, ``new_source`` — become ``"<sha256:HEX, N chars>"`` (of their JSON when they
are not text): enough to tell whether two
calls wrote the same text, nothing of the text itself.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from ..core.sha256 import sha256

__all__ = ["REDACTED", "digest_text", "redacted_arguments"]

REDACTED = "<redacted>"
_MAX_DEPTH = 32
_SECRET_WORDS = (
    "token",
    "password",
    "passwd",
    "secret",
    "authorization",
    "apikey",
    "accesskey",
    "cookie",
    "credential",
    "privatekey",
    "sessionkey",
)
_CONTENT_KEYS = frozenset({"content", "oldstring", "newstring", "newsource"})


def digest_text(text: str) -> str:
    """``<sha256:HEX, N chars>`` for a text that must not be recorded."""
    digest = sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return f"<sha256:{digest}, {len(text)} chars>"


def _folded(key: str) -> str:
    return key.lower().replace("_", "").replace("-", "")


def _value(key: str, value: object, depth: int) -> object:
    folded = _folded(key)
    if any(word in folded for word in _SECRET_WORDS):
        return REDACTED
    if folded in _CONTENT_KEYS:
        text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
        return digest_text(text)
    return _nested(value, depth + 1)


def _nested(value: object, depth: int) -> object:
    if depth > _MAX_DEPTH:
        return REDACTED
    if isinstance(value, Mapping):
        return {str(k): _value(str(k), v, depth) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_nested(item, depth + 1) for item in value]
    return value


def redacted_arguments(arguments: Mapping[str, object]) -> dict[str, object]:
    """A copy of ``arguments`` with secret-looking values and file contents redacted."""
    return {str(k): _value(str(k), v, 0) for k, v in arguments.items()}
