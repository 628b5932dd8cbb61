"""``engine.plain_text.plain_text`` (the definition, without ``re``) and the in-process lane's
compiled regular expression (``plain_lane.is_plain_text``) say the same of every text."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolpolicy.engine.plain_lane import is_plain_text
from toolpolicy.engine.plain_text import plain_text

# Each character class the definition names, and its neighbours.
_PIECES = (
    "a", "Z", "0", "9", "_", "+", "=", "@", "%", ",", "-", ".", "/", " ", "~", "*", "?", "[",
    "\\", ":", "\x00", "\n", "\u00e9", "\u0131", "\u212a", "con", "CON", "nul", "Aux", "com1",
    "lpt9", "com", "lpt10", "prn", "x" * 254,
)  # fmt: skip


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join) | st.text(max_size=12))
@example("con.txt/a")
@example("a/" + "x" * 256)
@example("a/" + "x" * 255)
def test_the_definition_and_the_regular_expression_agree(text: str) -> None:
    assert plain_text(text) is is_plain_text(text)


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("src/a.py", True),
        ("a-b/c_d/e+f=g@h%i,j.k", True),
        ("-v", True),
        ("conx", True),
        ("com10", True),
        ("", False),
        (".git/config", False),
        ("src//a", False),
        ("src/", False),
        ("/etc/passwd", False),
        ("src/../x", False),
        ("con", False),
        ("NUL.txt", False),
        ("a/lpt1.log", False),
        ("a b", False),
        ("caf\u00e9", False),
        ("x" * 256, False),
    ],
)
def test_plain_text_reads_the_docstrings_examples(text: str, plain: bool) -> None:
    assert plain_text(text) is plain
