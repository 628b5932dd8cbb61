"""The plain ``str`` character tests answer exactly as the regular expressions they replace.

``core.text_checks`` and the workspace's illegal-character test stand for expressions the
path, glob and tool-name checks compiled at import (issue 14: no ``re`` on the hook's warm
path). Each property draws text from the characters at the edges of each class (ASCII and
not, C0 and C1 controls, their neighbours, look-alike letters and digits) and any text.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.core.text_checks import has_control_character, is_word, starts_with_drive
from toolpolicy.tools.workspace import _has_illegal_character

EDGES = (
    'aZz09_:/.\\ -<>"|?*'
    "\x00\x01\x1f\x20\x7e\x7f\x80\x9f\xa0\xad"
    "\u00b2\u0660\uff10\u212a\u0131\u00e9\u2028\U0001d7ce"
)
texts = st.text(alphabet=st.sampled_from(EDGES), max_size=6) | st.text(max_size=6)
SETTINGS = settings(max_examples=400, deadline=None)


# One character, then a colon: the shape every drive has, whichever the character.
colon_second = st.builds(
    lambda first, rest: first + ":" + rest, st.sampled_from(EDGES) | st.characters(), texts
)


@SETTINGS
@given(texts | colon_second)
def test_a_drive_is_what_the_drive_expression_matches(text: str) -> None:
    assert starts_with_drive(text) == bool(re.match(r"[A-Za-z]:", text))


@SETTINGS
@given(texts)
def test_a_control_character_is_what_the_control_class_finds(text: str) -> None:
    assert has_control_character(text) == bool(re.search(r"[\x00-\x1f\x7f-\x9f]", text))


@SETTINGS
@given(texts)
def test_a_word_is_what_the_name_expression_matches_whole(text: str) -> None:
    assert is_word(text) == bool(re.fullmatch(r"[A-Za-z0-9_]+", text))


@SETTINGS
@given(texts)
def test_an_illegal_path_character_is_what_the_illegal_class_finds(text: str) -> None:
    expected = bool(re.search(r'[<>:"|?*\x00-\x1f\x7f-\x9f]', text))
    assert _has_illegal_character(text) == expected
