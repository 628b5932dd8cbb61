"""Compound shell lines that hide a denied command: the deny always hits, an allow never covers.

Lines are built by nesting hiding places (``a && X``, ``$(X)``, backquotes, ``bash -c 'X'``,
newlines, ``VAR=x X``, quotes inside words, wrappers nobody listed such as ``ionice``,
``taskset``, ``flock``, ``strace``, ``script -qc``, ``mapfile -C``) around a denied command
whose words may themselves be quoted or its program spelled as a path. The decision is the
real ``ToolPolicy.check`` on P03 with the rules in a real policy file.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.core.vocabulary import Behavior
from toolpolicy.engine.selection import ToolPolicy, load

from .conftest import policy_file

EXAMPLES = 500

DENIED = [("rm", "-rf"), ("git", "push"), ("curl",)]
HARMLESS = ["echo hi", "ls", "true", "cat README.md", "git status"]
# What the visible commands are allowed by: programs that only do what their words say.
ALLOWED_PREFIXES = ["echo", "ls", "true", "cat", "git status"]
# Programs that run code from their arguments: an allow on them covers what they run (lint
# warns: allow-runs-code), but a deny still wins.
RUNNERS = ["bash", "sh", "env", "sudo", "xargs"]


def _quoted_word(word: str, style: int) -> str:
    """``word`` spelled so that the shell still reads ``word`` (quotes are removed)."""
    if style == 1:
        return f"'{word}'"
    if style == 2:
        return f'"{word}"'
    if style == 3 and len(word) > 1:
        return f"{word[0]}''{word[1:]}"
    if style == 4 and len(word) > 1:
        return f"{word[0]}\\{word[1:]}"
    if style == 5:
        return f"$'{word}'"
    if style == 6:
        return f"\\{word}"
    return word


def _program(word: str, style: int) -> str:
    """A program word, maybe as a path (bash runs the same program by its basename)."""
    return [word, f"/usr/bin/{word}", f"../../../usr/bin/{word}", f"'/bin/{word}'"][style % 4]


@st.composite
def denied_commands(draw: st.DrawFn) -> tuple[tuple[str, ...], str]:
    """A denied prefix and a command line that runs it (with arguments, words maybe quoted)."""
    prefix = draw(st.sampled_from(DENIED))
    words = [*prefix, draw(st.sampled_from(["x", "origin main", "-v", "http://e.test"]))]
    if prefix == ("rm", "-rf"):  # options are a set: any order, any grouping, others between
        spelling = draw(st.sampled_from(["-rf", "-fr", "-r -f", "-f -r", "-r -v -f", "-vfr"]))
        words[1:2] = spelling.split()
    words[0] = _program(words[0], draw(st.integers(0, 7)))
    spelled = " ".join(_quoted_word(w, draw(st.integers(0, 6))) for w in words)
    return prefix, spelled


def _hide(inner: str, simple: bool, how: int, harmless: str) -> tuple[str, bool]:
    """One hiding place around ``inner``; returns the line and whether it is a simple command.

    Prefixes that only apply to a simple command (``VAR=x``, ``sudo``...) wrap anything else in
    ``bash -c`` first: ``VAR=x { X; }`` is a syntax error and runs nothing.
    """
    quoted = shlex.quote(inner)
    simple_inner = inner if simple else f"bash -c {quoted}"
    forms = [
        (f"{harmless} && {inner}", False),
        (f"{harmless} || {inner}", False),
        (f"{harmless}; {inner}", False),
        (f"{harmless} | {inner}", False),
        (f"{harmless} & {inner}", False),
        (f"{harmless}\n{inner}", False),
        # A space after "$(": "$((" would start arithmetic, which runs nothing.
        (f"echo $( {inner})", True),
        (f"echo `{inner}`" if "`" not in inner else f"echo $( {inner})", True),
        (f'echo "$( {inner})"', True),
        (f"bash -c {quoted}", True),
        (f"sh -c {quoted}", True),
        (f"eval {quoted}", True),
        # Not simple for a wrapper: "timeout 5 VAR=x X" runs a program called "VAR=x".
        (f"VAR=x {simple_inner}", False),
        (f"X=$( {inner}) {harmless}", False),
        (f"( {inner} )", False),
        (f"{{ {inner}; }}", False),
        (f"if {harmless}; then {inner}; fi", False),
        (f"while false; do :; done; {inner}", False),
        (f"sudo {simple_inner}", True),
        (f"env A=1 {simple_inner}", True),
        (f"timeout 5 {simple_inner}", True),
        (f"cat <( {inner})", True),
        (f"ionice {simple_inner}", True),
        (f"taskset 1 {simple_inner}", True),
        (f"flock /tmp/l {simple_inner}", True),
        (f"strace -f -o /dev/null {simple_inner}", True),
        (f"script -qc {quoted} /dev/null", True),
        (f"mapfile -C {shlex.quote(inner + ' #')} -c 1 a <<< z", True),
        (f"watch -n1 {quoted}", True),
        (f"ssh host {quoted}", True),
        (f"echo x > out.txt; {inner} 2>&1 | cat", False),
    ]
    return forms[how % len(forms)]


@st.composite
def smuggled_lines(draw: st.DrawFn) -> tuple[tuple[str, ...], str]:
    prefix, line = draw(denied_commands())
    simple = True
    for _ in range(draw(st.integers(1, 3))):
        how, harmless = draw(st.integers(0, 99)), draw(st.sampled_from(HARMLESS))
        line, simple = _hide(line, simple, how, harmless)
    return prefix, line


def _policy(tmp: Path, rules: list[dict[str, object]]) -> ToolPolicy:
    return load(workspace=tmp, policies=[policy_file(tmp, rules)])


@pytest.fixture(scope="module")
def deny_policies(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, ...], ToolPolicy]:
    """For each denied prefix: everything visible allowed, runners too, the prefix denied."""
    return {
        prefix: _policy(
            tmp_path_factory.mktemp("deny"),
            [
                {"behavior": "allow", "match": {"commands": ALLOWED_PREFIXES + RUNNERS}},
                {"behavior": "deny", "match": {"commands": [" ".join(prefix)]}},
            ],
        )
        for prefix in DENIED
    }


@pytest.fixture(scope="module")
def allow_policy(tmp_path_factory: pytest.TempPathFactory) -> ToolPolicy:
    rules: list[dict[str, object]] = [
        {"behavior": "allow", "match": {"commands": ALLOWED_PREFIXES}}
    ]
    return _policy(tmp_path_factory.mktemp("allow"), rules)


@settings(max_examples=EXAMPLES, deadline=None)
@given(case=smuggled_lines())
def test_a_deny_on_a_prefix_hits_wherever_the_command_hides(
    deny_policies: dict[tuple[str, ...], ToolPolicy], case: tuple[tuple[str, ...], str]
) -> None:
    prefix, line = case
    decision = deny_policies[prefix].check("shell", {"command": line})
    assert decision.behavior is Behavior.DENY, (line, decision)
    assert decision.source == "r1"


@settings(max_examples=EXAMPLES, deadline=None)
@given(case=smuggled_lines())
def test_an_allow_on_the_visible_commands_never_covers_the_hidden_one(
    allow_policy: ToolPolicy, case: tuple[tuple[str, ...], str]
) -> None:
    _, line = case
    decision = allow_policy.check("shell", {"command": line})
    assert decision.behavior is not Behavior.ALLOW, (line, decision)


@pytest.mark.parametrize(
    "line",
    [
        "watch rm -rf x",
        "setsid rm -rf x",
        "su -c 'rm -rf x'",
        "fish -c 'rm -rf x'",
        "busybox sh -c 'rm -rf x'",
        "trap 'rm -rf x' EXIT",
        ". /dev/stdin <<< 'rm -rf x'",
        "unknown-runner --flag 'rm -fr x'",
    ],
)
def test_a_deny_on_a_prefix_hits_behind_other_programs_that_run_commands(
    tmp_path: Path, line: str
) -> None:
    policy = _policy(tmp_path, [{"behavior": "deny", "match": {"commands": ["rm -rf"]}}])
    assert policy.check("shell", {"command": line}).behavior is Behavior.DENY


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(line)
        for b, line in [
            ("printf -v", "printf -v 'a[$(rm -rf x)]' 1"),
            ("let", "let 'a[$(rm -rf x)]=1'"),
            ("test -v", "test -v 'a[$(rm -rf x)]'"),
        ]
    ],
)
def test_an_allow_on_a_builtin_never_covers_a_command_in_an_array_subscript(
    tmp_path: Path, line: str
) -> None:
    policy = _policy(
        tmp_path, [{"behavior": "allow", "match": {"commands": ["printf", "let", "test"]}}]
    )
    assert policy.check("shell", {"command": line}).behavior is not Behavior.ALLOW


# Global options before a subcommand do not hide it from a deny on "git push".
@pytest.mark.parametrize(
    "line",
    [
        "git -C . push origin main",
        "git --no-pager push",
        "git -c core.sshCommand=ssh push",
        "git --git-dir=.git push",
    ],
)
def test_a_deny_on_a_subcommand_hits_behind_global_options(tmp_path: Path, line: str) -> None:
    policy = _policy(
        tmp_path,
        [
            {"behavior": "allow", "match": {"commands": ["git"]}},
            {"behavior": "deny", "match": {"commands": ["git push"]}},
        ],
    )
    assert policy.check("shell", {"command": line}).behavior is Behavior.DENY


def test_git_push_with_its_own_options_is_still_denied(tmp_path: Path) -> None:
    policy = _policy(tmp_path, [{"behavior": "deny", "match": {"commands": ["git push"]}}])
    for line in ("git push", "git push --force origin main", "/usr/bin/git push", "sudo git push"):
        assert policy.check("shell", {"command": line}).behavior is Behavior.DENY, line


@pytest.mark.parametrize(
    "line",
    ["{rm,-rf,x}", "coproc rm -rf x", "rm -r -f x", "rm -f -r x", "rm -fr x"],
)
def test_a_deny_hits_a_command_spelled_by_brace_expansion_or_coproc(
    tmp_path: Path, line: str
) -> None:
    policy = _policy(tmp_path, [{"behavior": "deny", "match": {"commands": ["rm -rf"]}}])
    assert policy.check("shell", {"command": line}).behavior is Behavior.DENY


def test_no_allow_covers_code_sourced_from_stdin(tmp_path: Path) -> None:
    """Formerly a known gap: the here-string was not split. Now the line is not plain, so no
    allow applies, and a deny inside the string hits."""
    line = ". /dev/stdin <<< 'rm -rf x'"
    allow_all = _policy(tmp_path, [{"behavior": "allow", "match": {"commands": [".", "rm"]}}])
    assert allow_all.check("shell", {"command": line}).behavior is Behavior.ASK
    denied = _policy(tmp_path, [{"behavior": "deny", "match": {"commands": ["rm -rf"]}}])
    assert denied.check("shell", {"command": line}).behavior is Behavior.DENY
