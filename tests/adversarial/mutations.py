"""Hypothesis strategies that mutate valid documents: byte surgery with YAML/JSON-significant
payloads, so that fuzzing starts from inputs that get past the first parser check.
"""

from __future__ import annotations

from hypothesis import strategies as st

__all__ = ["PAYLOADS", "mutated"]

PAYLOADS: tuple[bytes, ...] = (
    b"&a ",
    b"*a",
    b"!!python/object/apply:os.system ['touch /tmp/pwned']",
    b"!!binary ",
    b"<<: *a",
    b"{",
    b"}",
    b"[",
    b"]",
    b"\t",
    b"\x00",
    b"\xff\xfe",
    b"\xef\xbb\xbf",
    b"---\n",
    b"...\n",
    b"? ",
    b"- ",
    b"\n  ",
    b"'",
    b'"',
    b"#",
    b"%YAML 1.1\n",
    b"~",
    b"null",
    b"1e999",
    b"0x1F",
    b"9" * 400,
    b"yes",
    b"on",
    b"2026-01-01",
    b"\\u0000",
    b"\xe2\x80\xae",
    b"\r",
    b"a" * 5000,
    b"[" * 200,
    b": ",
    b"extends: ",
    b"behavior: ",
    b"paths: ['../**']",
    b"commands: ['']",
)


@st.composite
def mutated(draw: st.DrawFn, document: bytes) -> bytes:
    """``document`` after 1 to 4 random edits (delete, insert, replace, duplicate, truncate)."""
    data = bytearray(document)
    for _ in range(draw(st.integers(1, 4))):
        size = len(data)
        start = draw(st.integers(0, size))
        end = draw(st.integers(start, min(size, start + 64)))
        payload = draw(st.sampled_from(PAYLOADS) | st.binary(min_size=1, max_size=16))
        operation = draw(st.sampled_from(["delete", "insert", "replace", "duplicate", "truncate"]))
        if operation == "delete":
            del data[start:end]
        elif operation == "insert":
            data[start:start] = payload
        elif operation == "replace":
            data[start:end] = payload
        elif operation == "duplicate":
            data[start:start] = data[start:end] * draw(st.integers(1, 50))
        else:
            del data[start:]
    return bytes(data)
