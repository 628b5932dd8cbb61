"""JSON text read and written by CPython's C scanner and encoder, without importing ``json``.

The hook reads one event and writes one answer and one audit line per process. ``json``
itself imports ``re`` and compiles six regular expressions on import (about a quarter of the
hook's start-up together, issue 14), yet every byte it reads or writes on the fast path goes
through the C module ``_json`` underneath. This module drives ``_json`` the way ``json`` does:

* :func:`loads` is ``json.loads``: the same values, and the same errors, because every input
  the C scanner does not accept whole (a syntax error, extra data, a BOM, bytes that are not
  plainly UTF-8) is handed to ``json.loads`` itself, which then raises its own error. Any
  exception of the scanner counts as "not accepted": on CPython 3.11 its error inside a
  document is a ``SystemError`` unless ``json.decoder`` happens to be loaded already (it looks
  ``JSONDecodeError`` up there without importing it).
* :func:`encoder` is ``json.dumps`` with the given options and ``check_circular=False``, as a
  function built once (``json.dumps`` builds its encoder on every call).
* :data:`string_literal` writes one JSON string, UTF-8 kept (``json.encoder.encode_basestring``).

Where ``_json`` is missing (not on CPython), all three are ``json``'s own.
"""

from __future__ import annotations

from .lean_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["encoder", "loads", "string_literal"]

_SPACE = " \t\n\r"
"""What JSON counts as white space around a value (``json.decoder.WHITESPACE``)."""


class _Parsing:
    """What ``_json.make_scanner`` reads from a ``json.JSONDecoder()`` made with no options."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {
        "-Infinity": float("-inf"),
        "Infinity": float("inf"),
        "NaN": float("nan"),
    }.__getitem__


if TYPE_CHECKING:
    _scan: Callable[[str, int], tuple[Any, int]] | None
    _make_encoder: Callable[..., Callable[[object, int], list[str]]] | None
    string_literal: Callable[[str], str]
    _ascii_string: Callable[[str], str]
else:
    try:
        from _json import encode_basestring as string_literal
        from _json import encode_basestring_ascii as _ascii_string
        from _json import make_encoder as _make_encoder
        from _json import make_scanner
    except ImportError:  # pragma: no cover - CPython ships _json
        from json.encoder import encode_basestring as string_literal

        _scan = _make_encoder = None
    else:
        _scan = make_scanner(_Parsing())


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``: the value, or json's own error (a ``ValueError``)."""
    if _scan is not None and (plain := _utf8_text(text)) is not None:
        start = len(plain) - len(plain.lstrip(_SPACE))
        try:
            value, end = _scan(plain, start)
        except Exception:  # json itself reports every error (see the module docstring)
            pass
        else:
            if not plain[end:].strip(_SPACE):
                return value
    import json  # only for what the C scanner alone does not accept: json raises its error

    return json.loads(text)


def _utf8_text(text: str | bytes) -> str | None:
    """``text`` read as UTF-8 (as ``json.loads`` decodes it), or None for what is not text.

    ``json.loads`` picks the encoding of bytes by their first bytes (``detect_encoding``),
    but bytes that read as a whole JSON document in UTF-8 begin with an ASCII character other
    than NUL, followed by one that is not NUL, which it reads as UTF-8 too. Any other bytes
    fail the scan, and json decides.
    """
    if isinstance(text, str):
        return text
    if not isinstance(text, (bytes, bytearray)):
        return None
    try:
        return text.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return None


def encoder(
    *,
    ensure_ascii: bool = True,
    sort_keys: bool = False,
    separators: tuple[str, str] = (", ", ": "),
) -> Callable[[object], str]:
    """``lambda value: json.dumps(value, ensure_ascii=…, sort_keys=…, separators=…,
    check_circular=False)``, built once: the same text, and the same errors (``TypeError``
    for a value JSON cannot hold; a value that contains itself is a ``RecursionError``)."""
    item, key = separators
    if _make_encoder is None:  # pragma: no cover - CPython ships _json
        import json

        plain = json.JSONEncoder(
            ensure_ascii=ensure_ascii,
            check_circular=False,
            sort_keys=sort_keys,
            separators=separators,
        )
        return plain.encode
    string = _ascii_string if ensure_ascii else string_literal
    one_shot = _make_encoder(None, _unencodable, string, None, key, item, sort_keys, False, True)
    return lambda value: "".join(one_shot(value, 0))


def _unencodable(value: object) -> object:
    """``json.JSONEncoder.default``: what JSON cannot hold is a ``TypeError``."""
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")
