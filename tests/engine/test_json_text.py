"""``core.json_text`` reads and writes exactly what ``json`` does, errors included.

The hook reads its event and the audit file's last line with ``json_text.loads`` and writes
its answer, its audit line and its cache key with ``json_text.encoder`` (issue 14: ``json``
imports ``re``). Every property compares with ``json`` itself, on any document and on text
that is not one: a value, or the exception's type and message.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy.core.json_text import encoder, loads, string_literal

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


def _outcome(function: Callable[[], object]) -> tuple[str, object]:
    """What a call gives: ``("value", repr)`` (NaN equals NaN there), or the error's type and
    message."""
    try:
        value = function()
    except Exception as error:
        return type(error).__name__, str(error)
    return "value", repr(value)


# Pieces of JSON, valid and not: whole texts are glued from them, so most are near misses.
PIECES = [
    "{", "}", "[", "]", ",", ":", " ", "\t", "\n", "\r", "\f", '"', '"a"', '"\\u00e9"',
    '"\\ud800"', '"\\x"', "\\", "1", "-0", "1.5e3", "01", "1.", ".5", "-", "true", "false",
    "null", "nul", "NaN", "Infinity", "-Infinity", "é", "\ufeff", "\x00", "\x1f", "\u2028",
]  # fmt: skip
near_json = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)


# JSON's white space, and characters that only look like it.
padding = st.text(alphabet=" \t\n\r\f\v\x85\xa0\u2028\ufeff", max_size=3)


@SETTINGS
@given(documents, padding, padding)
def test_any_document_reads_back_as_json_reads_it(value: object, before: str, after: str) -> None:
    text = before + json.dumps(value) + after
    assert _outcome(lambda: loads(text)) == _outcome(lambda: json.loads(text))


@SETTINGS
@given(near_json | st.text(max_size=20))
def test_any_text_reads_as_json_reads_it_or_fails_with_its_error(text: str) -> None:
    assert _outcome(lambda: loads(text)) == _outcome(lambda: json.loads(text))


@SETTINGS
@given(
    st.tuples(
        near_json | documents.map(json.dumps),
        st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32"]),
    ).map(lambda pair: pair[0].encode(pair[1], "surrogatepass"))
    | st.binary(max_size=12)
    | st.sampled_from([b"", b"\x00", b"\x001", b"1\x00", b"1\x00\x00\x00", b"\xff\xfe1\x00"])
)
def test_any_bytes_read_as_json_reads_them(data: bytes) -> None:
    assert _outcome(lambda: loads(data)) == _outcome(lambda: json.loads(data))


OPTIONS = st.fixed_dictionaries(
    {
        "ensure_ascii": st.booleans(),
        "sort_keys": st.booleans(),
        "separators": st.sampled_from([(", ", ": "), (",", ":")]),
    }
)
# What JSON cannot hold, and keys that json turns into text or refuses.
awkward = st.recursive(
    scalars | st.sampled_from([b"x", {1, 2}, 1 + 2j, (1, "a"), object]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.text(max_size=3) | st.integers() | st.floats() | st.booleans() | st.none(),
            inner,
            max_size=3,
        )
    ),
    max_leaves=8,
)


@SETTINGS
@given(awkward, OPTIONS)
def test_any_value_is_written_as_json_dumps_writes_it_or_refused_alike(
    value: object, options: dict[str, object]
) -> None:
    write = encoder(**options)  # type: ignore[arg-type]
    expected = _outcome(lambda: json.dumps(value, check_circular=False, **options))  # type: ignore[arg-type]
    assert _outcome(lambda: write(value)) == expected


@SETTINGS
@given(st.text())
def test_a_string_literal_is_json_s_own(text: str) -> None:
    assert string_literal(text) == json.dumps(text, ensure_ascii=False)


def test_the_texts_the_hook_meets_read_and_write_as_json_does() -> None:
    assert loads(b'{"seq":7,"prev":"ab"}') == {"seq": 7, "prev": "ab"}
    assert math.isnan(loads("NaN"))
    plain = encoder(ensure_ascii=False)
    assert plain({"reason": "é \u2028 \x00"}) == json.dumps(
        {"reason": "é \u2028 \x00"}, ensure_ascii=False
    )
    key = encoder(sort_keys=True, separators=(",", ":"))
    assert key({"b": ["é"], "a": 1}) == '{"a":1,"b":["\\u00e9"]}'


def test_a_bad_text_raises_json_s_own_error() -> None:
    with pytest.raises(json.JSONDecodeError, match=r"^Extra data: line 1 column 4 \(char 3\)$"):
        loads("[1]x")
    with pytest.raises(json.JSONDecodeError, match=r"^Expecting value"):
        loads(b"")


@pytest.mark.parametrize(
    "text", ["{", '{"a": 1,}', '{"a": "\\q"}', '{"a": "\t"}', "[1 2]", "[1] x", "\ufeff1", "["]
)
def test_a_bad_text_raises_json_s_error_in_a_process_that_has_not_loaded_json(text: str) -> None:
    # CPython 3.11's C scanner finds JSONDecodeError only in an already loaded json.decoder
    probe = (
        "import sys\n"
        "from toolpolicy.core.json_text import loads\n"
        "assert 'json' not in sys.modules\n"
        "try:\n"
        f"    loads({text!r})\n"
        "except Exception as error:\n"
        "    print(type(error).__name__, error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    with pytest.raises(json.JSONDecodeError) as raised:
        json.loads(text)
    assert done.stdout == f"JSONDecodeError {raised.value}\n"


def test_reading_and_writing_import_neither_json_nor_re() -> None:
    probe = (
        "import sys\n"
        "from toolpolicy.core.json_text import encoder, loads\n"
        "assert loads(b'{\"a\": [1, 2.5, null, \"\\\\u00e9\"]}') == {'a': [1, 2.5, None, 'é']}\n"
        "assert encoder(ensure_ascii=False)({'a': 'é'}) == '{\"a\": \"é\"}'\n"
        "print(sorted({'json', 're'} & set(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout == "[]\n"
