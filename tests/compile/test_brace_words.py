"""Brace expansion as bash does it (``compile/brace_words.py``), checked against real bash.

The kind of miss: a word bash assembles from braces (``cp x .gi{t,}/config``) is cut apart
by the conservative runs, so the protected set never saw the file it names. The property:
every word real bash makes of a random brace word is among what ``brace_words`` reports.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolpolicy.compile.brace_words import MAX_WORDS, brace_words

BASH = shutil.which("bash") or "bash"

ATOMS = st.sampled_from(["a", "b", ".git", "/", "config", "x=", "", "1"])


@st.composite
def brace_word(draw: st.DrawFn, depth: int = 0) -> str:
    """A word of atoms and brace groups (alternatives or a sequence), nested up to twice."""
    pieces = []
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        kind = draw(st.integers(min_value=0, max_value=2 if depth < 2 else 0))
        if kind == 0:
            pieces.append(draw(ATOMS))
        elif kind == 1:
            alternatives = draw(st.lists(brace_word(depth + 1), min_size=2, max_size=3))
            pieces.append("{" + ",".join(alternatives) + "}")
        else:
            a, b = draw(st.sampled_from([("1", "3"), ("a", "c"), ("3", "1"), ("s", "u")]))
            pieces.append(f"{{{a}..{b}}}")
    return "".join(pieces)


def test_the_words_bash_makes_of_braces() -> None:
    assert brace_words("cp x .gi{t,}/config") == ((".git/config", ".gi/config"), True)
    assert brace_words("dd if=a of=.gi{t,}/config &") == (
        ("of=.git/config", ".git/config", "of=.gi/config", ".gi/config"), True,
    )  # fmt: skip
    assert brace_words("echo {a..c}{1..2}") == (("a1", "a2", "b1", "b2", "c1", "c2"), True)
    assert brace_words("echo {x} a{b,c") == (("{x}",), True)  # no expansion: the word itself
    # past the bound the expansion says it stopped: a name could hide after it
    words, complete = brace_words("touch {1..5000}.gi{x,t}/config")
    assert not complete and ".git/config" not in [w[-11:] for w in words[:1]]
    # a whole expansion whose carried paths pass the bound is complete; a brace word after
    # it is then left unexpanded, and that is said too
    words, complete = brace_words("touch x={1..3000}")
    assert complete and len(words) == 6000
    words, complete = brace_words("touch x={1..3000} .gi{t,}/config")
    assert not complete and ".git/config" not in words


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@settings(max_examples=150, deadline=None)
@given(word=brace_word())
# 3,150 words, whose carried paths (after ``x=``) took the reported set past the bound: the
# expansion was whole, yet it said it had stopped (found by this property, round 37)
@example(word="{{1..3},{a,x=}{a,b,aaa}}{{a,b},{1..3}a{a,b},{1..3}{1..3}{1..3}}{a,{1..3}{1..3}}")
def test_every_word_bash_makes_is_reported(word: str) -> None:
    done = subprocess.run(
        [BASH, "--noprofile", "--norc", "-c", f"printf '%s\\n' {word}"],
        capture_output=True,
        text=True,
        timeout=10,
        check=True,
    )
    made = [line for line in done.stdout.split("\n")[:-1] if line]
    words, complete = brace_words(f"touch {word}")
    assert complete or len(made) >= MAX_WORDS, word
    if complete:
        assert set(made) <= set(words) | {word}, (word, made)
