"""``may_match_below``: whether a glob may match a path below a folder, never a false no.

The folder walk of a read skips a ``.git`` folder unless a deny or ask rule may close a file
in it; a false "no" would hide a closed file (``repo/.git/config``) from the check. The
property: whenever a glob matches some path below a folder, ``may_match_below`` says yes.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.compile.globs import compile_glob, may_match_below

ROOT = "/ws"
HOME = "/home/u"
NAMES = st.sampled_from(["a", "b", ".git", "config", "x.pem", "repo"])
GLOB_SEGMENTS = st.sampled_from(
    ["a", "b", ".git", "config", "*", "**", "?", "*.pem", "[ab]", ".g*", "r*o", "[!a]"]
)


@st.composite
def globs(draw: st.DrawFn) -> str:
    segments = draw(st.lists(GLOB_SEGMENTS, min_size=1, max_size=4))
    text = "/".join(segments)
    if draw(st.booleans()):
        text += "/"
    # none (any depth, or anchored by a slash), the workspace root, an absolute //ws/
    return draw(st.sampled_from(["", "", "/", f"/{ROOT}/"])) + text


@settings(max_examples=600, deadline=None)
@given(
    text=globs(),
    folder=st.lists(NAMES, min_size=1, max_size=3),
    rest=st.lists(NAMES, min_size=1, max_size=3),
    gitignore=st.booleans(),
)
def test_a_glob_that_matches_below_a_folder_may_match_below_it(
    text: str, folder: list[str], rest: list[str], gitignore: bool
) -> None:
    if not gitignore and text.startswith("/"):
        return  # an anchored glob of the glob tool has no leading '/'
    glob = compile_glob(text, gitignore=gitignore)
    relative = "/".join(folder)
    path = "/".join([*folder, *rest])
    absolute = f"{ROOT}/{path}"
    matched = glob.matches_absolute(absolute, HOME) if glob.outside else glob.matches(path)
    if matched:
        assert may_match_below(glob, relative, f"{ROOT}/{relative}", HOME), (text, path)


def test_what_may_match_below_a_git_folder() -> None:
    def below(text: str) -> bool:
        glob = compile_glob(text, gitignore=True)
        return may_match_below(glob, "repo/.git", f"{ROOT}/repo/.git", HOME)

    assert below("repo/.git/config")
    assert below("**/*.pem")
    assert below("secret.txt")  # any depth: repo/.git/secret.txt
    assert below("repo")  # the folder above: all below it
    assert below("//ws/repo/.git/**")
    assert not below(".git/config")  # anchored at the root: .git/config only
    assert not below("secrets/**")
    assert not below("src/**")
    assert not below("~/x/**")
    # a folder outside the workspace: only absolute and home patterns can reach it
    outside = "/elsewhere/.git"
    assert not may_match_below(compile_glob("**", gitignore=True), None, outside, HOME)
    assert may_match_below(compile_glob("//elsewhere/**", gitignore=True), None, outside, HOME)
