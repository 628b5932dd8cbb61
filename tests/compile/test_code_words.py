"""A word a program may run as code is read for the files it names, blank or not.

``plain_subset.code_runs`` reads every argument that is more than a path or an option as a
run of words (``python3 -c "open('.git/config','w')"`` holds no blank, yet writes
``.git/config``); the engine decides each word of those runs as a possible write.
"""

from __future__ import annotations

import shlex

from hypothesis import given
from hypothesis import strategies as st

from toolpolicy.compile.commands import split_command_line

_AROUND = st.text(alphabet="()'\",;[]{}:=+ abcxyz_.", max_size=6)
_PATHS = st.sampled_from([".git/config", ".claude/settings.json", "toolpolicy.yaml", "a/b.txt"])


@given(
    before=_AROUND,
    path=_PATHS,
    after=_AROUND,
    program=st.sampled_from(["python3 -c", "node -e", "perl -e", "cp"]),
)
def test_a_path_standing_between_code_delimiters_is_a_possible_write(
    before: str, path: str, after: str, program: str
) -> None:
    """A path quoted, called, listed or assigned in code (``open('P'``, ``["P",``,
    ``x=P;``) is among the words the line may write, however the code word is quoted."""
    left = before[-1:] if before else ""
    right = after[:1] if after else ""
    if (left and left not in "()'\",;:= ") or (right and right not in "()'\",; "):
        return  # the path runs into a letter or a bracket: another word, not this path
    line = f"{program} {shlex.quote(before + path + after)}"
    found = split_command_line(line)
    written = set(found.plain.maybe_written if found.plain is not None else found.maybe_written)
    assert path in written, (line, sorted(written))
