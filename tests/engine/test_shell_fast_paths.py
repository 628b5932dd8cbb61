"""The fast shell decision is the slow one: every evaluation of a random line under a random
policy, in a workspace with links in and out, equals the evaluation of a reference engine
that reads lines with the character-by-character recogniser alone, looks command rules up
as the index used to (names and words gathered at each lookup) and resolves each read with
``os.path.realpath``.

Candidates, reasons, sources, matched rules, paths and the line as read are all compared,
on the lexical boundary (``check``) and on the physical one (the diff and the hook), with
and without an escalation, with the diff's memos and without.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from types import MappingProxyType

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from toolpolicy import load
from toolpolicy.compile.command_patterns import held_words, program_key
from toolpolicy.compile.command_scan import scan_runs
from toolpolicy.compile.commands import CommandLine, beyond_plain
from toolpolicy.compile.plain_subset import (
    NotPlain,
    _carried,
    _Recogniser,
    _Refused,
    recognise_plain,
)
from toolpolicy.compile.program_table import WRITES_BELOW_HINTS
from toolpolicy.engine.evaluate import DecisionEngine, _inside
from toolpolicy.engine.selection import ToolPolicy
from toolpolicy.engine.shell_files import (
    ShellSupport,
    below_writes,
    file_accesses,
    file_request,
    files_ruled,
    named_writes,
    written_accesses,
)
from toolpolicy.tools.workspace import WorkspaceBoundary

# -- the reference: the readings as they were before the fast paths ---------------------------


def _reference_plain(line: str) -> object:
    if len(line) > 16 * 1024:
        return recognise_plain(line)
    try:
        return _Recogniser(line).line()
    except _Refused as refused:
        return refused.found


def _reference_split(line: str) -> CommandLine:
    """``split_command_line`` as it was: the index's names and words gathered the old way
    (what the line may write beyond its plain reading is not what this compares:
    ``beyond_plain`` gives it)."""
    found = _reference_plain(line)
    runs = scan_runs(line)
    positions: dict[str, list[tuple[int, int]]] = {}
    for run_index, run in enumerate(runs):
        for word_index, word in enumerate(run):
            positions.setdefault(program_key(word), []).append((run_index, word_index))
    where = MappingProxyType({key: tuple(places) for key, places in positions.items()})
    programs = set(where)
    words = {held for run in runs for word in run for held in held_words(word)}
    if isinstance(found, NotPlain):
        return CommandLine(
            None,
            found,
            runs,
            where,
            frozenset(programs),
            frozenset(words),
            *beyond_plain(line, found, runs),
        )
    assert not isinstance(found, str)
    for command in found.commands:  # type: ignore[attr-defined]
        if command.words:
            programs.add(program_key(command.words[0]))
            words.update(command.words)
    return CommandLine(
        found,  # type: ignore[arg-type]
        None,
        runs,
        where,
        frozenset(programs),
        frozenset(words),
        *beyond_plain(line, found, runs),  # type: ignore[arg-type]
    )


class _ReferenceEngine(DecisionEngine):
    """The engine with a path resolved as it was: ``os.path.realpath`` of the joined path."""

    def _read_target(self, path: str, real_path: Callable[[str, str], str]) -> str | None:
        root = self.workspace
        try:
            return _inside(root, os.path.realpath(os.path.join(root, path)))
        except (OSError, ValueError):
            return None

    def _holds_workspace(self, path: str, support: ShellSupport) -> bool:
        root = self.workspace
        return root.startswith(os.path.realpath(os.path.join(root, path)).rstrip("/") + "/")


def _unused_real_path(path: str, known: str) -> str:
    raise AssertionError("the reference engine resolves reads with os.path.realpath")


def _reference_engine(engine: DecisionEngine) -> DecisionEngine:
    reference = _ReferenceEngine(
        engine.policy,
        engine._boundary,
        enforces=engine.enforces_policy,
        protected=engine.protected,
    )
    reference._shell = ShellSupport(
        _reference_split,
        file_accesses,
        written_accesses,
        named_writes,
        below_writes,
        file_request,
        _unused_real_path,
        files_ruled(engine.policy.rule_index),
        WRITES_BELOW_HINTS,
    )
    return reference


# -- lines ------------------------------------------------------------------------------------

WORDS = ("a", "b", "git", "push", "rm", "tool", "x", "-rf", "-a", "-ab", "--all", "--out=b")
PATHS = (
    "a", "d", "d/a", "in/a", "in", "out", "out/x", "up/ws/a", "dangling", "d/../a",
    "in/../a", "../x", "/etc/passwd", "~/x", "~", "./a", "d/*", "a*", "-fout/x", "-oin/a",
    "a\\b", "'d\\a'", "'in\\a'", ".git/config", "d//a", "missing/../in/a", "d/../../ws/a",
    "deep/../a", "deep/../../a",
)  # fmt: skip
OPERATORS = (";", "&&", "||", "|", "\n", "&")
REDIRECTS = (">", ">>", "<", "2>", "&>", "2>&1", ">|")
QUOTED = ("'a b'", '"git"', "g'i't", "$(x)", "${a:-git}", "\\rm", "#c")

soup = st.lists(
    st.tuples(
        st.one_of(
            st.sampled_from(WORDS),
            st.sampled_from(PATHS),
            st.sampled_from(OPERATORS),
            st.sampled_from(REDIRECTS),
            st.sampled_from(QUOTED),
        ),
        st.sampled_from((" ", " ", "", "  ", "\t")),
    ),
    min_size=1,
    max_size=7,
).map(lambda parts: "".join(token + gap for token, gap in parts).strip(" "))
"""Any tokens, glued or apart: mostly lines that are not plain."""

command = st.builds(
    lambda program, arguments, redirect: " ".join((program, *arguments, *redirect)),
    st.sampled_from(("cat", "git", "rm", "tool", "a")),
    st.lists(st.one_of(st.sampled_from(PATHS), st.sampled_from(WORDS)), max_size=3),
    st.lists(
        st.builds(
            lambda op, path: f"{op} {path}", st.sampled_from(REDIRECTS[:3]), st.sampled_from(PATHS)
        ),
        max_size=1,
    ),
)
plain_lines = st.lists(command, min_size=1, max_size=3).flatmap(
    lambda commands: st.sampled_from(("; ", " && ", " | ", ";")).map(lambda op: op.join(commands))
)
"""Commands with path arguments and redirections: mostly plain lines."""

lines = st.one_of(plain_lines, plain_lines, soup)

# -- policies ---------------------------------------------------------------------------------

GLOBS = (
    "a",
    "d/**",
    "**/a",
    "in/**",
    "out/**",
    "*",
    "d/*",
    "//etc/**",
    "~/x",
    "x",
    "*.c",
    "ws/a",
    "d?a",
)
PREFIXES = ("git", "git push", "rm -rf", "rm -r|--recursive", "tool *", "x", "* -a", "a b")
rules = st.one_of(
    st.fixed_dictionaries(
        {
            "behavior": st.sampled_from(("deny", "ask", "allow")),
            "tools": st.sampled_from((["read_file"], ["write_file"], ["read_file", "write_file"])),
            "paths": st.lists(st.sampled_from(GLOBS), min_size=1, max_size=2, unique=True),
        }
    ),
    st.fixed_dictionaries(
        {
            "behavior": st.sampled_from(("deny", "ask", "allow")),
            "tools": st.sampled_from((None, ["shell"])),
            "commands": st.lists(st.sampled_from(PREFIXES), min_size=1, max_size=2, unique=True),
        }
    ),
)
policies = st.lists(rules, min_size=1, max_size=5)


def _write_policy(folder: Path, rule_list: list[dict[str, object]], number: int) -> str:
    path = folder / f"policy{number}.yaml"
    document = {
        "apiVersion": "toolpolicy/v1",
        "kind": "Policy",
        "name": f"p{number}",
        "extends": "P03",
        "rules": [
            {
                "name": f"r{index}",
                "behavior": rule["behavior"],
                "reason": f"Rule {index}",
                "match": {k: v for k, v in rule.items() if k != "behavior" and v is not None},
            }
            for index, rule in enumerate(rule_list)
        ],
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def workspace(linked_workspace: Path) -> Path:
    """The workspace with links in, out, up and dangling (``conftest.linked_workspace``)."""
    return linked_workspace


def _engines(policy: ToolPolicy) -> Iterator[tuple[DecisionEngine, DecisionEngine]]:
    lexical = policy.engine
    physical = DecisionEngine(
        lexical.policy,
        WorkspaceBoundary(lexical.workspace),
        enforces=lexical.enforces_policy,
        protected=lexical.protected,
    )
    for engine in (lexical, physical):
        yield engine, _reference_engine(engine)
    remembering, reference = physical, _reference_engine(physical)
    remembering.remember_arguments()
    reference.remember_arguments()
    yield remembering, reference


_counter = iter(range(10**9))


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rule_list=policies, line_list=st.lists(lines, min_size=1, max_size=6))
@example(  # a link, then "..": bash climbs from the link's target, the file tools from the link
    rule_list=[{"behavior": "deny", "tools": ["read_file"], "paths": ["d/*"]}],
    line_list=["cat deep/../a", "cat < deep/../a", "cat in/../d/a"],
)
@example(  # a backslash: one name to bash, a separator to the file tools
    rule_list=[{"behavior": "ask", "tools": ["read_file"], "paths": ["d?a"]}],
    line_list=["cat 'd\\a'", "cat < 'in\\a'"],
)
def test_every_evaluation_equals_the_reference(
    workspace: Path, rule_list: list[dict[str, object]], line_list: list[str]
) -> None:
    policy_file = _write_policy(workspace.parent, rule_list, next(_counter))
    policy = load(policies=[policy_file], workspace=workspace)
    for engine, reference in _engines(policy):
        for line in line_list:
            for extra in ({}, {"sandbox_permissions": "danger-full-access", "justification": "j"}):
                request = policy.request("shell", {"command": line, **extra})
                assert engine.evaluate(request, policy.knobs) == reference.evaluate(
                    request, policy.knobs
                ), line


# -- the token reader is the character reader -------------------------------------------------

TOKEN_WORDS = ("a", "git", "-rf", "x=1", "eval", "!", "if", "2", "a/b", "../c", "--x=y", "]")
token_lines = st.lists(
    st.tuples(
        st.sampled_from((*TOKEN_WORDS, ";", "&&", "||", "|", ">", ">>", "<")),
        st.sampled_from((" ", "\t", "  ")),
    ),
    min_size=1,
    max_size=9,
).map(lambda parts: "".join(t + gap for t, gap in parts)[: -len(parts[-1][1]) or None])


@settings(max_examples=600, deadline=None)
@given(line=token_lines, lead=st.sampled_from(("", " ", "\t")))
def test_the_token_reader_reads_as_the_character_reader(line: str, lead: str) -> None:
    assert recognise_plain(lead + line) == _reference_plain(lead + line)


@pytest.mark.parametrize(
    "line",
    ["a ; > x", "a && > x", "a > ; b", "> x a", "a >", "a ;", "; a", "a | | b", "x=1 a", "a && "],
)
def test_the_token_reader_on_chosen_lines(line: str) -> None:
    assert recognise_plain(line) == _reference_plain(line)


# -- a word without a carrier carries only itself -----------------------------------------------


@settings(max_examples=500, deadline=None)
@given(word=st.text(alphabet='ab/=@,<:;.-~"%?#[]{}FILEfile\u0130\u017f\u212a', max_size=12))
def test_a_word_carries_itself_and_every_tail_after_a_carrier(word: str) -> None:
    """The short cut (a word without ``= @ , < :`` carries only itself) and the general
    reading agree with what ``_carried`` promises: the word first, then every non-empty tail
    after a ``=``, ``@``, ``,`` or ``<``, and after a ``:`` that starts no ``//``."""
    carried = list(_carried(word))
    if not word:
        assert carried == []
        return
    assert carried[0] == word
    if not any(c in word for c in "=@,<:"):
        assert carried == [word]
    for index, char in enumerate(word):
        tail = word[index + 1 :]
        if tail and (char in "=@,<" or (char == ":" and not tail.startswith("//"))):
            assert tail in carried
