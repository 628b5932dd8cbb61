"""A shell line the engine does not read loses no deny.

Without rules that look at commands or files, the engine reads a line only when a test on
its text says it may matter (``DecisionEngine._reads_line``: a ``>``, the protected set
named, a program that writes below its folders, a glob, a quote, an escape, an expansion);
every other line gets the profile's answer unread. Text tests are easy to fool: under P03,
``tou''ch .gi''t/config`` and ``r\\m -rf .`` were not read, so they asked where the same
words unquoted were denied — and the agents that honour only a deny ran them.

The property: for random lines of programs, options and paths in every spelling bash
accepts (quoted, escaped, ANSI-C, behind wrappers and operators), an engine that reads
every line and the real engine agree on every deny.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from toolpolicy.compile.index import RuleView
from toolpolicy.core.vocabulary import Behavior
from toolpolicy.engine.evaluate import DecisionEngine
from toolpolicy.engine.selection import ToolPolicy, load


class _ReadingEveryLine(DecisionEngine):
    """The engine with no line left unread."""

    def _reads_line(self, text: object, bucket: RuleView) -> bool:
        return isinstance(text, str)


PROGRAMS = ("rm", "r\\m", "'rm'", '"r"m', "cp", "c''p", "touch", "tou''ch", "find", "chmod",
            "git", "g\\it", "mv", "ls", "echo", "sudo rm", "sh -c 'rm", "/bin/rm")  # fmt: skip
WORDS = ("-rf", "-R", "700", "-delete", "config", "core.hooksPath", "x", "--", "-t")
PATHS = (".", "..", "./", ".git", ".gi''t", ".g\\it", "$'\\x2egit'", ".git/config",
         '".git"/config', ".claude/settings.json", ".cl''aude/settings.json", "src", "x", "/",
         ".git/..", "src/..", "'.'")  # fmt: skip
OPERATORS = (" ; ", " && ", " | ", " &", "")

command = st.builds(
    lambda program, words: " ".join((program, *words)),
    st.sampled_from(PROGRAMS),
    st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(PATHS)), max_size=4),
)
lines = st.builds(
    lambda first, operator, second: (
        f"{first}{operator}{second}" if operator.strip() != "&" else f"{first}{operator}"
    ),
    command,
    st.sampled_from(OPERATORS),
    command,
)


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> ToolPolicy:
    ws = tmp_path_factory.mktemp("unread") / "ws"
    (ws / ".git").mkdir(parents=True)
    (ws / ".git" / "config").write_text("")
    (ws / ".claude").mkdir()
    (ws / "src").mkdir()
    return load("P03", workspace=ws)


def _reading(policy: ToolPolicy) -> DecisionEngine:
    engine = policy.engine
    return _ReadingEveryLine(
        engine.policy, engine._boundary, enforces=True, protected=engine.protected
    )


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(line=lines)
@example(line="tou''ch .gi''t/config")
@example(line="r\\m -rf .")
@example(line="ls ; r\\m -rf .")
def test_an_unread_line_loses_no_deny(policy: ToolPolicy, line: str) -> None:
    request = policy.request("shell", {"command": line})
    read = _reading(policy).evaluate(request, policy.knobs).effective
    decided = policy.check("shell", {"command": line})
    if read.behavior is Behavior.DENY:
        assert (decided.behavior, decided.reason) == (read.behavior, read.reason), line


def test_the_quoted_spellings_are_denied_like_the_plain_ones(policy: ToolPolicy) -> None:
    for line in ("tou''ch .gi''t/config", "r\\m -rf .", '"r"m -rf .', "c''p x .git/config"):
        decided = policy.check("shell", {"command": line})
        assert (decided.behavior, decided.reason) == (
            Behavior.DENY,
            "Writing inside .git is forbidden",
        ), line
    assert policy.check("shell", {"command": "ls src"}).behavior is Behavior.ASK
