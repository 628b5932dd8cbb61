"""The written files a line's plain reading does not show (``compile/redirect_scan.py``).

The kind of miss: a literal redirection kept out of every check, so the protected set and the
workspace boundary never saw it, and the agents that honour only a deny ran the line — in a
line the plain subset refuses (an expansion anywhere, a ``&``, a bracket glob), and in a
plain line's words that a program runs as shell code (``bash -c 'echo x > .git/config'``,
however the outer line quotes it). The properties: whatever real bash writes through a
redirection whose word it does not assemble at run time is among what the scan reports (as
written, or as a glob that matches it), and the engine denies every such line that writes
into ``.git``.
"""

from __future__ import annotations

import glob
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from toolpolicy import Behavior, load
from toolpolicy.compile.commands import split_command_line
from toolpolicy.compile.plain_subset import PlainLine, recognise_plain
from toolpolicy.compile.redirect_scan import WrittenTarget, scan_written

BASH = shutil.which("bash") or "bash"  # the tests that run it are skipped without one

# Pieces of a redirection's word, each with the characters bash makes of it.
PIECES = st.sampled_from(
    [
        ("a", "a"),
        ("b.c", "b.c"),
        ("'x y'", "x y"),
        ('"q"', "q"),
        ('"d\\"e"', 'd"e'),
        ("\\ ", " "),
        ("\\z", "z"),
        ("$'\\x67'", "g"),
        ("$'t\\n'", "t\n"),
        ('$"l"', "l"),
        ("'*'", "*"),
    ]
)
OPERATORS = st.sampled_from([">", ">>", ">|", "&>", "2>", "1>", ">&", "<>"])
SPELLED_GIT = [".git/config", "'.git'/config", '".git/config"', ".g\\it/config",
               "$'.git'/config", ".gi[t' ']/config", "./.git/hooks/pre-commit"]  # fmt: skip
TAILS = st.sampled_from(["", " $X", "; : $(true)", " &", " ${Y:-}", " `true`", "; wait"])


@st.composite
def redirected_lines(draw: st.DrawFn) -> tuple[str, str]:
    """A line writing one file through a word of random pieces, and that file's name."""
    pieces = draw(st.lists(PIECES, min_size=1, max_size=4))
    word = "".join(p for p, _ in pieces)
    name = "".join(n for _, n in pieces)
    operator = draw(OPERATORS)
    blank = draw(st.sampled_from(["", " ", "\t"]))
    return f"echo x {operator}{blank}{word}{draw(TAILS)}", name


RUNNERS = st.sampled_from(["bash -c", "env bash -c", "timeout 9 bash -c", "nice bash -c"])


def _escaped(code: str) -> str:
    """``code`` as one word with a backslash before every character that is not a letter or
    a digit (a newline goes in single quotes: a backslash before it continues the line)."""
    return "".join("'\n'" if c == "\n" else c if c.isalnum() else "\\" + c for c in code)


def _double_quoted(code: str) -> str:
    return '"' + "".join("\\" + c if c in '"\\$`' else c for c in code) + '"'


QUOTINGS = st.sampled_from([shlex.quote, _escaped, _double_quoted])


@st.composite
def plain_code_lines(draw: st.DrawFn) -> str:
    """A plain line that runs, as the code in one of its words, a line writing a file."""
    code, _ = draw(redirected_lines())
    return f"{draw(RUNNERS)} {draw(QUOTINGS)(code)}"


def test_literal_redirections_are_read_as_bash_reads_them_and_naively() -> None:
    assert scan_written("echo x > .git/config $X") == (WrittenTarget(".git/config", None),)
    # bash's reading (a glob), and the naive one (quotes dropped, cut at the blank)
    assert scan_written("echo x > .gi[t' ']/config &") == (
        WrittenTarget(".gi[t ]/config", ".gi[t ]/config"),
        WrittenTarget(".gi[t", ".gi[t"),
    )
    assert scan_written("a > '*'.txt; b $X") == (
        WrittenTarget("*.txt", None),
        WrittenTarget("*.txt", "*.txt"),
    )
    assert scan_written("a > $'.g\\x69t'/config $X") == (WrittenTarget(".git/config", None),)
    # a '>' inside quoted code: the naive reading ends the word where the code ends
    assert scan_written("sh -c 'echo x > .git/config' $X") == (
        WrittenTarget(".git/config $X", None),
        WrittenTarget(".git/config", None),
    )
    # what moves a descriptor, a process substitution and a word bash builds: no file
    assert scan_written('a >&2 2>&- 3>&1 > >(cat) > $X > "$HOME/x" > `w` $Y') == ()
    assert scan_written("a >& out $X") == (WrittenTarget("out", None),)  # both outputs


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(case=redirected_lines())
@example(case=("echo x > .gi[t' ']/config $X", ".git/config"))
def test_every_file_bash_writes_is_scanned(tmp_path: Path, case: tuple[str, str]) -> None:
    line, _ = case
    folder = tmp_path / "run"
    written, stderr = _written_by_bash(line, folder, tmp_path / "home")
    assert written <= _scanned(line, folder), (line, stderr)


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much],
)
@given(line=plain_code_lines())
@example(line="bash -c 'echo x > $'\"'\"'.g\\x69t'\"'\"'/config'")
@example(line="bash -c echo\\ x\\ \\>\\ .git/config")
def test_every_file_the_code_in_a_plain_line_writes_is_scanned(tmp_path: Path, line: str) -> None:
    plain = recognise_plain(line)
    if not isinstance(plain, PlainLine):  # some quotings of some code are not plain
        return
    folder = tmp_path / "run"
    written, stderr = _written_by_bash(line, folder, tmp_path / "home")
    assert written <= _expanded(split_command_line(line).written, folder), (line, stderr)


@settings(max_examples=40, deadline=None)
@given(
    spelled=st.sampled_from(SPELLED_GIT),
    runner=RUNNERS,
    quoting=QUOTINGS,
    operator=st.sampled_from([">", ">>", ">|", "&>", "2>"]),
)
def test_code_in_a_plain_line_never_writes_into_git(
    git_workspace: Path, spelled: str, runner: str, quoting: object, operator: str
) -> None:
    line = f"{runner} {quoting(f'echo x {operator} {spelled}')}"  # type: ignore[operator]
    assert isinstance(recognise_plain(line), PlainLine), line
    decided = load("P03", workspace=git_workspace).check("shell", {"command": line})
    assert decided.behavior is Behavior.DENY, line
    assert decided.reason == "Writing inside .git is forbidden"


def test_a_quoted_arrow_is_read_as_code_on_the_safe_side(git_workspace: Path) -> None:
    """The price of the scan: a quoted ``>`` that is only text still has its word decided as
    a write, so a commit message pointing outside is refused; inside the workspace it is not."""
    policy = load("P03", workspace=git_workspace)
    refused = policy.check("shell", {"command": "git commit -m 'moved -> ~/.config'"})
    assert refused.behavior is Behavior.DENY
    assert refused.reason == "Writing outside the workspace is forbidden"
    inside = policy.check("shell", {"command": "git commit -m 'rename a -> b'"})
    assert (inside.behavior, inside.reason) == (Behavior.ASK, "Shell execution requires approval")


@settings(max_examples=40, deadline=None)
@given(
    spelled=st.sampled_from(SPELLED_GIT),
    operator=st.sampled_from([">", ">>", ">|", "&>", "2>"]),
    tail=st.sampled_from([" $X", "; : $(true)", " &", " ${Y:-}", "; echo `date`"]),
)
def test_a_line_that_is_not_plain_never_writes_into_git(
    git_workspace: Path, spelled: str, operator: str, tail: str
) -> None:
    line = f"echo x {operator} {spelled}{tail}"
    decided = load("P03", workspace=git_workspace).check("shell", {"command": line})
    assert decided.behavior is Behavior.DENY, line
    assert decided.reason == "Writing inside .git is forbidden"


@pytest.fixture(scope="module")
def git_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = tmp_path_factory.mktemp("gitws")
    (ws / ".git" / "hooks").mkdir(parents=True)
    (ws / ".git" / "config").write_text("")
    return ws


def test_a_write_outside_the_workspace_in_a_line_that_is_not_plain_is_denied(
    git_workspace: Path,
) -> None:
    policy = load("P03", workspace=git_workspace)
    decided = policy.check("shell", {"command": "echo x >> ~/.bashrc $X"})
    assert decided.reason == "Writing outside the workspace is forbidden"
    # a target bash assembles at run time is not known: the line only asks
    unknown = policy.check("shell", {"command": 'echo x > "$F" $X'})
    assert unknown.behavior is Behavior.ASK
    assert unknown.reason == "Shell execution requires approval"


def _written_by_bash(line: str, folder: Path, home: Path) -> tuple[set[str], bytes]:
    """Run ``line`` in real bash in a fresh ``folder`` holding ``.git/config``: the files it
    wrote (relative to ``folder``), and what bash said on stderr."""
    shutil.rmtree(folder, ignore_errors=True)
    (folder / ".git").mkdir(parents=True)
    (folder / ".git" / "config").write_text("")
    before = _contents(folder)
    env = {"PATH": os.environ["PATH"], "HOME": str(home)}
    done = subprocess.run(
        [BASH, "-c", line + "\nwait"], cwd=folder, env=env, capture_output=True, timeout=10
    )
    written = {name for name, content in _contents(folder).items() if before.get(name) != content}
    return written, done.stderr


def _contents(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in folder.rglob("*")
        if path.is_file()
    }


def _scanned(line: str, folder: Path) -> set[str]:
    """What the scan names, each glob expanded in ``folder`` as the engine does."""
    return _expanded(scan_written(line), folder)


def _expanded(targets: tuple[WrittenTarget, ...], folder: Path) -> set[str]:
    out: set[str] = set()
    for target in targets:
        out.add(os.path.normpath(target.path))
        if target.glob is not None:
            out.update(os.path.normpath(m) for m in glob.glob(target.glob, root_dir=folder))
    return out
