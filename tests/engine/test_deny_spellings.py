"""A deny hits the other spellings of the line it was written for (red team, round 32,
second look; strict xfails until round 33): a single-dash long option in its double-dash
spelling and back (Go's flags take both), operands in another order, ``${VAR}/x`` against
``$VAR/x``; and (red team, round 33) a quoted or escaped separator, a Go flag's value, ``--``
a path's other spellings and a glob; and (round 37) a path through ``name/..``. In each, an
``allow`` of the program would let the line through if the deny missed it. The properties
cover the kinds: every order of a deny's plain words with other words between them, every
spelling of an option, both spellings of a variable, separators quoted anywhere, every
spelling of a path. The gaps left are strict xfails (SECURITY.md)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy import load
from toolpolicy.compile.command_patterns import compile_occurrence_pattern
from toolpolicy.compile.command_scan import scan_runs

_APPLY = "terraform apply"
_DD = "dd if=/dev/zero of=/dev/sda"
SPELLINGS = [
    pytest.param(f"{_APPLY} -auto-approve", f"{_APPLY} --auto-approve", id="single-dash-long"),
    pytest.param(f"{_APPLY} -auto-approve", f"{_APPLY} --auto-approve=1", id="long-with-value"),
    pytest.param(f"{_APPLY} --auto-approve", f"{_APPLY} -auto-approve", id="go-single-dash"),
    pytest.param(f"{_APPLY} --auto-approve", f"{_APPLY} -auto-approve=1", id="go-with-value"),
    pytest.param(_DD, "dd of=/dev/sda if=/dev/zero", id="swapped-operands"),
    pytest.param(_DD, "dd bs=1M of=/dev/sda status=none if=/dev/zero", id="among-others"),
    pytest.param("rm -rf /", "rm / -rf", id="operand-before-option"),
    pytest.param("cat $HOME/.ssh/id_rsa", "cat ${HOME}/.ssh/id_rsa", id="braced-variable"),
    pytest.param("cat ${HOME}/.ssh/id_rsa", "cat $HOME/.ssh/id_rsa", id="unbraced-variable"),
    pytest.param("cat $HOME/.ssh/id_rsa", 'cat "$HOME"/.ssh/id_rsa', id="quoted-variable"),
    # red team, round 33: a quoted or escaped separator is text, not the end of the command
    pytest.param("git commit --amend", "git commit -m 'a;b' --amend", id="quoted-semicolon"),
    pytest.param("git commit --amend", 'git commit -m "a|b" --amend', id="quoted-pipe"),
    pytest.param("git commit --amend", "git commit -m 'a\nb' --amend", id="quoted-newline"),
    pytest.param("git commit --amend", "git commit -m a\\&b --amend", id="escaped-ampersand"),
    pytest.param("rm -rf", "rm -r 'a;b' -f x", id="quoted-between-options"),
    # a Go flag's value in the pattern: read by the flag's name, as a long option's is
    pytest.param(f"{_APPLY} -auto-approve=true", f"{_APPLY} -auto-approve", id="go-value-bare"),
    pytest.param(f"{_APPLY} -auto-approve=true", f"{_APPLY} --auto-approve=1", id="go-value-long"),
    # "--" ends the options: the line may well do the same without it
    pytest.param("git checkout -- .", "git checkout .", id="end-of-options"),
    pytest.param("rm -rf -- build", "rm -rf build", id="end-of-options-rm"),
    # a path in another spelling: "./" in front, "/" at the end, "//", "/."
    pytest.param("rm -rf build", "rm -rf build/", id="trailing-slash"),
    pytest.param("rm -rf build", "rm -rf ./build", id="dot-slash"),
    pytest.param("rm -rf build/", "rm -rf build//.", id="slashes-and-dot"),
    pytest.param("rm -rf /", "rm -rf //", id="root-twice"),
    # round 37: a path through "name/..", which names the same file when no name on the way
    # is a symbolic link (an allow of cat let "cat b/../secret" through)
    pytest.param("cat secret", "cat b/../secret", id="dot-dot"),
    pytest.param("rm -rf build", "rm -rf ./b/c/../../build/", id="dot-dot-twice"),
    pytest.param("rm -rf /etc", "rm -rf /tmp/../etc", id="dot-dot-absolute"),
    pytest.param("rm -rf build", "rm -rf x/../buil?", id="dot-dot-glob"),
    # a value glued to a short option in the pattern: the option, and the value apart
    pytest.param("curl -XDELETE", "curl -X DELETE https://api.example/r", id="pattern-glued"),
    pytest.param("ssh -oProxyCommand", "ssh -o ProxyCommand=nc h", id="pattern-glued-key"),
    # a glob the shell may expand to the deny's word
    pytest.param("rm -rf build", "rm -rf buil?", id="glob-question"),
    pytest.param("rm -rf build", "rm -rf *", id="glob-star"),
    pytest.param("rm -rf build/out", "rm -rf b*/[o]ut", id="glob-segments"),
    # alternatives that break into as many words: read place by place
    pytest.param(
        "cat $HOME/.netrc|$HOME/.aws/credentials",
        "cat ${HOME}/.aws/credentials",
        id="broken-alternatives",
    ),
]


def _policy(tmp_path: Path, pattern: str, behavior: str = "deny") -> Path:
    program = pattern.split()[0]
    policy = tmp_path / "p.yaml"
    policy.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: p\nextends: P03\nrules:\n"
        f"  - name: no-x\n    behavior: {behavior}\n    reason: refused\n    match:\n"
        f'      tools: [shell]\n      commands: ["{pattern}"]\n'
        f"  - name: any\n    behavior: allow\n    reason: ok\n    match:\n"
        f'      tools: [shell]\n      commands: ["{program} *"]\n',
        encoding="utf-8",
    )
    return policy


@pytest.mark.parametrize(("pattern", "line"), SPELLINGS)
def test_a_deny_hits_another_spelling_of_its_line(tmp_path: Path, pattern: str, line: str) -> None:
    policy = load(str(_policy(tmp_path, pattern)), workspace=tmp_path)
    decided = policy.check("shell", {"command": line})
    assert (decided.behavior.label, decided.source, decided.reason) == ("deny", "no-x", "refused")
    # the allow does cover the program: without the deny, the line would run
    other = policy.check("shell", {"command": pattern.split()[0] + " --version"})
    assert (other.behavior.label, other.source) == ("allow", "any")


NOT_HIT = [
    # the Go reading takes a single-dash word of three letters or more, never abbreviated:
    # "-am" is the cluster of -a and -m, not --amend
    pytest.param("git commit --amend", "git commit -am fix", id="two-letter-cluster"),
    pytest.param("git commit --amend", "git commit -ame fix", id="no-abbreviation"),
    pytest.param("rm -rf /", "rm -Rf /", id="letters-stay-case-sensitive"),
    # a plain word needs a word of its own: one word does not stand for two
    pytest.param("dd if=/dev/zero of=/dev/zero", "dd if=/dev/zero", id="one-word-for-two"),
    # a glob's * never crosses a /: "*" names no path under /
    pytest.param("rm -rf /", "rm -rf *", id="glob-stays-in-its-folder"),
    # $HOME/x is HOME and /x: the relative path HOME/x is another file
    pytest.param("cat $HOME/.netrc", "cat HOME/.netrc", id="not-a-variable"),
    # "secret/.." leaves the file: what follows is another one
    pytest.param("cat secret", "cat secret/../other", id="dot-dot-leaves"),
]  # fmt: skip


GAPS = [
    # a URL's scheme and host in capitals
    pytest.param("curl https://x.example", "curl HTTPS://X.example", id="url-case"),
]  # fmt: skip


@pytest.mark.xfail(strict=True, reason="known gap: SECURITY.md, Known gaps")
@pytest.mark.parametrize(("pattern", "line"), GAPS)
def test_known_gaps(tmp_path: Path, pattern: str, line: str) -> None:
    policy = load(str(_policy(tmp_path, pattern)), workspace=tmp_path)
    decided = policy.check("shell", {"command": line})
    assert (decided.behavior.label, decided.source) == ("deny", "no-x")


@pytest.mark.parametrize(("pattern", "line"), NOT_HIT)
def test_a_deny_does_not_hit_a_line_it_was_not_written_for(
    tmp_path: Path, pattern: str, line: str
) -> None:
    policy = load(str(_policy(tmp_path, pattern, "ask")), workspace=tmp_path)
    decided = policy.check("shell", {"command": line})
    assert decided.source != "no-x", decided


_OPTIONS = st.sampled_from(["-r", "-f", "-rf", "--force", "-auto-approve", "--dry-run"])
_WORDS = st.sampled_from(["a", "b", "c", "x", "/dev/sda", "of", "if", "build/out", "."])
# other words, some holding a quoted or escaped separator (text to bash)
_NOISE = st.sampled_from(["n", "--other", "-z", "7", "'a;b'", '"x|y"', "a\\;b", "'p\nq&'"])


@st.composite
def _pattern_and_line(draw: st.DrawFn) -> tuple[str, str]:
    """A deny pattern, and a line holding its plain words in some order and its options in
    some spelling, with other words between them."""
    plain = draw(st.lists(_WORDS, min_size=0, max_size=4))
    options = draw(st.lists(_OPTIONS, max_size=2, unique=True))
    pattern = " ".join(["prog", *plain, *options])
    words = [draw(st.sampled_from(_path_spellings(word))) for word in draw(st.permutations(plain))]
    for option in options:
        spelled = draw(st.sampled_from(_spellings(option)))
        words.insert(draw(st.integers(0, len(words))), spelled)
    for _ in range(draw(st.integers(0, 3))):
        words.insert(draw(st.integers(0, len(words))), draw(_NOISE))
    return pattern, " ".join(["prog", *words])


def _path_spellings(word: str) -> list[str]:
    """The ways a line may write the path ``word`` that a deny must read as it (or a glob
    the shell may expand to it)."""
    globbed = [word[:-1] + "?", "*"] if "/" not in word else [word[:-1] + "*"]
    through = "/x/.." + word if word.startswith("/") else "x/../" + word  # round 37
    if "/" not in word and word != ".":
        return [word, *globbed, through]
    relative = [] if word.startswith("/") else ["./" + word]
    return [word, word + "/", word.replace("/", "//"), word + "/.", *relative, *globbed, through]


def _spellings(option: str) -> list[str]:
    """The ways a line may write ``option`` that a deny must read as it."""
    if option.startswith("--"):
        return [option, option + "=1", option[1:], option[1:] + "=1"]
    if len(option) > 3:  # a cluster, or a Go flag's long name
        return [option, "-" + option, "-" + option + "=1"]
    letters = option[1:]
    return ["-" + "".join(p) for p in itertools.permutations(letters)] + [
        " ".join("-" + letter for letter in letters)
    ]


@settings(max_examples=300, deadline=None)
@given(_pattern_and_line())
def test_every_order_and_option_spelling_of_a_deny_is_hit(case: tuple[str, str]) -> None:
    pattern, line = case
    compiled = compile_occurrence_pattern(pattern)
    assert any(compiled.occurs_in(run) for run in scan_runs(line)), (pattern, line)


@settings(max_examples=200, deadline=None)
@given(
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True),
    st.from_regex(r"/[a-z._/]{1,8}", fullmatch=True),
)
def test_a_variable_reads_alike_braced_or_not(name: str, rest: str) -> None:
    spellings = [f"cat ${name}{rest}", f"cat ${{{name}}}{rest}", f'cat "${name}"{rest}']
    runs = [set(scan_runs(spelling)) for spelling in spellings]
    assert all((("cat", name, rest)) in found for found in runs), runs
    pattern = compile_occurrence_pattern(spellings[0])
    assert all(any(pattern.occurs_in(run) for run in found) for found in runs)
