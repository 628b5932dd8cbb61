"""The JSONL sink writes a record field by field; it must be the text of ``to_json``."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC
from types import MappingProxyType

from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.core.protocols import AuditRecord
from toolpolicy.core.vocabulary import Effect, SandboxMode
from toolpolicy.engine import audit
from toolpolicy.engine.audit import record_json, utc_now

_text = st.text(max_size=40)


@settings(max_examples=200, deadline=None)
@given(
    fields=st.lists(_text, min_size=12, max_size=12),
    rules=st.lists(_text, max_size=3),
    outcome=st.none() | _text,
    arguments=st.none() | st.dictionaries(_text, _text, max_size=2),
    extra=st.dictionaries(st.sampled_from(["agent", "reason", "seq", "x"]), _text, max_size=2),
)
def test_the_written_line_is_the_json_of_the_record(
    fields: list[str],
    rules: list[str],
    outcome: str | None,
    arguments: dict[str, str] | None,
    extra: dict[str, str],
) -> None:
    ts, session, call, tool, effect, behavior, source, reason, preset, sandbox, approval, sha = (
        fields
    )
    record = AuditRecord(
        ts, session, call, tool, effect, behavior, source, reason, tuple(rules), preset,
        sandbox, approval, outcome, sha, arguments, extra,
    )  # fmt: skip
    line = record_json(record)
    assert json.loads(line) == record.to_json()
    assert line == json.dumps(record.to_json(), separators=(",", ":"), ensure_ascii=False)
    # Another call with the same decision and knobs (its middle fields written once): the
    # fields of its own are its own.
    again = record._replace(ts=sha, session_id=tool, call_id=reason, arguments_sha256=ts)
    assert record_json(again) == json.dumps(
        again.to_json(), separators=(",", ":"), ensure_ascii=False
    )


def test_a_record_that_lists_its_rules_is_written_as_its_json() -> None:
    # A sink's caller may build its own record; the rules as a list are no memo key.
    listed: object = ["a", "b"]
    record = AuditRecord(
        "t", "s", "c", "read_file", "read", "deny", "rule", "r", listed, "p", "ro", "ask",  # type: ignore[arg-type]
        None, "h",
    )  # fmt: skip
    assert json.loads(record_json(record))["matched_rules"] == ["a", "b"]


def test_the_middle_fields_written_once_are_kept_for_a_bounded_number_of_values() -> None:
    base = AuditRecord(
        "t", "s", "c", "read_file", "read", "allow", "default", "r", (), "p", "ro", "ask",
        None, "h",
    )  # fmt: skip
    for n in range(3 * audit._MIDDLES_KEPT):
        record = base._replace(reason=f"reason {n}")
        assert json.loads(record_json(record))["reason"] == f"reason {n}"
        assert len(audit._MIDDLES) <= audit._MIDDLES_KEPT


def test_enum_fields_are_written_as_their_values() -> None:
    record = AuditRecord(
        "t", "s", "c", "read_file", Effect.READ, "allow", "default", "r", (), "p",
        SandboxMode.READ_ONLY, "ask", None, "h",
    )  # fmt: skip
    assert json.loads(record_json(record))["effect"] == "read"
    assert json.loads(record_json(record))["sandbox"] == "read-only"


def test_timestamps_within_one_second_share_its_text_and_keep_microseconds() -> None:
    first, second = utc_now(), utc_now()
    assert len(first) == len(second) == len("2026-01-01T00:00:00.000000Z")
    assert first <= second or first[:19] != second[:19]


@settings(max_examples=100, deadline=None)
@given(
    instants=st.lists(
        st.integers(min_value=0, max_value=253_402_300_797 * 10**9),  # up to year 9999
        min_size=1,
        max_size=8,
    ),
    nearby=st.lists(st.integers(min_value=-2_000_000_000, max_value=2_000_000_000), max_size=8),
)
def test_every_timestamp_is_the_instant_in_utc_in_any_order(
    instants: list[int], nearby: list[int]
) -> None:
    # The second's text is kept between calls: instants in the same second, the next, the
    # one before and far apart must each read as themselves.
    import time
    from datetime import datetime, timedelta

    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    edge = (instants[0] // 10**9 + 1) * 10**9  # the first nanosecond of the next second
    calls = [*instants, *(max(0, instants[0] + step) for step in nearby), edge - 1, edge]
    real = time.time_ns
    try:
        for ns in calls:
            time.time_ns = lambda ns=ns: ns  # type: ignore[misc]
            expected = (epoch + timedelta(microseconds=ns // 1000)).strftime(
                "%Y-%m-%dT%H:%M:%S.%fZ"
            )
            assert utc_now() == expected, ns
    finally:
        time.time_ns = real


_values = st.none() | st.booleans() | st.integers() | _text | st.lists(_text, max_size=2)


@settings(max_examples=300, deadline=None)
@given(
    arguments=st.dictionaries(_text, _values, max_size=3),
    proxied=st.booleans(),
)
def test_the_hashed_text_of_any_arguments_is_json_with_sorted_keys(
    arguments: dict[str, object], proxied: bool
) -> None:
    # One text argument of text is written directly; it must be the encoder's own text.
    value = MappingProxyType(arguments) if proxied else arguments
    expected = json.dumps(arguments, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert audit.canonical_json(value) == expected
    assert audit.arguments_sha256(value) == hashlib.sha256(expected.encode()).hexdigest()


def test_an_enum_argument_is_hashed_as_its_value() -> None:
    assert audit.canonical_json({"sandbox": SandboxMode.READ_ONLY}) == '{"sandbox":"read-only"}'
    assert audit.canonical_json({"path": 'a\u2028"b'}) == '{"path":"a\u2028\\"b"}'
