"""The rule index: a call sees exactly the rules that can match it, in declaration order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.compile.commands import compile_command_pattern, split_command_line
from toolpolicy.compile.globs import compile_glob
from toolpolicy.compile.index import RuleIndex, command_keys, outside_key, path_key
from toolpolicy.compile.names import NamePattern
from toolpolicy.compile.rules import CallFacts, CompiledRule
from toolpolicy.core.decision import Decision
from toolpolicy.core.vocabulary import Behavior, Effect


def _rule(
    order: int,
    *,
    tools: list[str] | None = None,
    paths: list[str] | None = None,
    commands: list[str] | None = None,
    behavior: str = "deny",
) -> CompiledRule:
    name = f"r{order}"
    return CompiledRule(
        name=name,
        behavior=Behavior.parse(behavior),
        reason=f"reason {order}",
        origin=f"p.yaml:{order}",
        order=order,
        tools=None if tools is None else tuple(NamePattern(t) for t in tools),
        effects=None,
        paths=None if paths is None else tuple(compile_glob(p, gitignore=True) for p in paths),
        commands=None if commands is None else tuple(compile_command_pattern(c) for c in commands),
        decision=Decision(behavior, f"reason {order}", name),
    )


RULES = (
    _rule(0, tools=["read_file"]),
    _rule(1, tools=["read_file"], paths=["src/**"]),
    _rule(2, tools=["read_file"], paths=["*.pem"]),  # no slash: any depth, by extension
    _rule(3, tools=["read_file"], paths=["docs/*.md"]),
    _rule(4, commands=["git push"]),
    _rule(5, commands=["* --force"]),
    _rule(6, tools=["mcp__*"]),
    _rule(7, paths=["secrets/**"]),
)
INDEX = RuleIndex.build(RULES, ["read_file", "shell", "write_file"])


def _names(tool: str, effect: Effect, **facts: object) -> list[str]:
    call = CallFacts(tool=tool, effect=effect, **facts)  # type: ignore[arg-type]
    return [r.name for r in INDEX.rules_for(tool).candidates(call)]


def test_a_path_call_sees_plain_rules_its_segment_and_its_extensions() -> None:
    assert _names("read_file", Effect.READ, path="src/a.py", target="src/a.py") == ["r0", "r1"]
    assert _names("read_file", Effect.READ, path="docs/x.md", target="docs/x.md") == [
        "r0",
        "r3",
    ]
    assert _names("read_file", Effect.READ, path="src/k.pem/x", target="src/k.pem/x") == [
        "r0",
        "r1",
        "r2",
    ]


def test_a_symlink_sees_the_rules_of_its_target_too() -> None:
    assert _names("read_file", Effect.READ, path="docs/link", target="secrets/key.pem") == [
        "r0",
        "r2",
        "r3",
        "r7",
    ]


def test_a_call_without_a_path_sees_only_plain_rules() -> None:
    assert _names("read_file", Effect.READ) == ["r0"]


def test_command_rules_are_keyed_by_the_first_word_of_every_part() -> None:
    line = split_command_line("ls && sudo git push origin")
    assert _names("shell", Effect.EXECUTE, command=line) == ["r4", "r5"]
    assert _names("shell", Effect.EXECUTE, command=split_command_line("ls -la")) == ["r5"]


def test_command_rules_never_reach_file_tools() -> None:
    assert "r4" not in _names("write_file", Effect.WRITE, path="a.txt", target="a.txt")


def test_wildcard_tool_names_are_bucketed_for_unknown_tools() -> None:
    assert _names("mcp__github__create_issue", Effect.EXECUTE) == ["r6"]
    assert _names("WebFetch", Effect.EXECUTE) == []


def test_every_rule_that_matches_is_among_the_candidates() -> None:
    facts = [
        CallFacts("read_file", Effect.READ, "a/b/key.pem", "a/b/key.pem"),
        CallFacts("read_file", Effect.READ, "src/x.py", "secrets/x"),
        CallFacts("shell", Effect.EXECUTE, command=split_command_line("x; git push --force")),
        CallFacts("write_file", Effect.WRITE, "secrets/a", "secrets/a"),
    ]
    for call in facts:
        matching = {r.name for r in RULES if r.matches(call)}
        candidates = {r.name for r in INDEX.rules_for(call.tool).candidates(call)}
        assert matching <= candidates, call


def test_a_deny_prefix_reads_through_options_but_an_allow_stays_a_prefix() -> None:
    deny = _rule(90, commands=["git push"])
    allow = _rule(91, commands=["git push"], behavior="allow")
    line = split_command_line("git -C . --no-pager push origin")
    call = CallFacts("shell", Effect.EXECUTE, command=line)
    assert deny.matches(call)
    assert not allow.matches(call)


@pytest.mark.parametrize(
    ("pattern", "key"),
    [
        ("src/**", ("first", "src")),
        ("/build", ("first", "build")),
        ("secret", ("segment", "secret")),
        ("**/private/**", ("segment", "private")),
        ("*/keys/*.pem", ("segment", "keys")),
        ("*.pem", ("extension", "pem")),
        ("**/id_*.pub", ("extension", "pub")),
        ("*.tar.gz", ("extension", "gz")),
        ("**/*", None),
        ("*.p?m", None),
        ("~/.ssh/**", None),
        ("//etc/shadow", None),
    ],
)
def test_every_path_shape_has_a_table(pattern: str, key: tuple[str, str] | None) -> None:
    assert path_key(pattern) == key


@pytest.mark.parametrize(
    ("pattern", "key"),
    [
        ("//etc/shadow", "shadow"),
        ("~/.ssh/**", ".ssh"),
        ("//home/*/.aws/credentials", "credentials"),
        ("//**/*.pem", None),
        ("~/*", None),
        ("secret", None),
    ],
)
def test_absolute_and_home_patterns_are_keyed_by_their_last_literal_segment(
    pattern: str, key: str | None
) -> None:
    assert outside_key(pattern) == key


def test_at_scale_an_outside_file_sees_only_the_absolute_rules_naming_its_segments() -> None:
    rules = tuple(
        _rule(i, tools=["read_file"], paths=[f"//srv/abs{i}/**", f"~/.conf{i}"])
        for i in range(5_000)
    )
    view = RuleIndex.build(rules, ["read_file"]).rules_for("read_file")
    assert view.has_outside_paths
    facts = CallFacts("read_file", Effect.READ, absolute=("/srv/abs42/x",), home="/h")
    assert [r.name for r in view.candidates(facts)] == ["r42"]
    home = CallFacts("read_file", Effect.READ, absolute=("/h/.conf7",), home="/h")
    assert [r.name for r in view.candidates(home)] == ["r7"]
    assert [r.name for r in rules if r.matches(home)] == ["r7"]


@pytest.mark.parametrize(
    ("pattern", "key"),
    [
        ("git push", ("git", "push")),
        ("rm -rf /", ("rm", "/")),
        ("rm -rf", "rm"),
        ("git status|log", "git"),
        ("npm * x", "npm"),
        ("/usr/bin/git push", ("git", "push")),
        ("* --force", None),
    ],
)
def test_command_patterns_are_keyed_by_their_first_two_plain_words(
    pattern: str, key: object
) -> None:
    assert command_keys(compile_command_pattern(pattern)) == key


def test_at_scale_a_call_sees_only_the_rules_of_its_shape() -> None:
    rules = tuple(
        _rule(i, tools=["read_file", "shell"], **shape)  # type: ignore[arg-type]
        for i, shape in enumerate(
            shape
            for n in range(2_000)
            for shape in (
                {"paths": [f"*.secret{n}"]},
                {"paths": [f"secret{n}"]},
                {"paths": [f"**/private{n}/**"]},
                {"commands": [f"git sub{n}"]},
            )
        )
    )
    index = RuleIndex.build(rules, ["read_file", "shell"])
    path = "a/private7/b.secret9/secret11"
    facts = CallFacts("read_file", Effect.READ, path, path)
    assert [r.name for r in index.rules_for("read_file").candidates(facts)] == [
        "r30",
        "r36",
        "r45",
    ]
    line = CallFacts("shell", Effect.EXECUTE, command=split_command_line("sudo git sub5 x"))
    assert [r.name for r in index.rules_for("shell").candidates(line)] == ["r23"]


_segment = st.sampled_from(["a", "b", "key.pem", "x.tar.gz", ".pem", "id_rsa.pub", "**", "*"])
_SHAPES = [
    "*.pem", "*.gz", "id_*.pub", "key.pem", "a", "**/b/**", "*/a/*.pem", "k?y.pem", "/a", "a/",
    "~/a/**", "//h/a", "**/*.pem", "a/**/x.tar.gz", "*", "**",
]  # fmt: skip
_shapes = st.sampled_from(_SHAPES)
_composed = st.builds(
    lambda lead, parts, trail: lead + "/".join(parts) + trail,
    st.sampled_from(["", "/", "~/", "//"]),
    st.lists(
        st.one_of(_segment, st.sampled_from(["*.pem", "id_*.pub", "k?y.pem", "[ab]", "*.gz"])),
        min_size=1,
        max_size=4,
    ),
    st.sampled_from(["", "/"]),
)
_glob = st.one_of(_shapes, _composed)
_path = st.lists(
    st.sampled_from(["a", "b", "key.pem", "x.tar.gz", ".pem", "id_rsa.pub", "kay.pem", "c"]),
    min_size=1,
    max_size=5,
).map("/".join)
_word = st.sampled_from(["git", "push", "rm", "-rf", "-r", "/", "x", "--force", "sudo", "log"])
_COMMANDS = [
    "git push", "git status|log", "rm -rf", "rm -rf /", "sudo x", "* --force", "git * x",
    "x -r|--recursive log", "/usr/bin/git log",
]  # fmt: skip
_command = st.sampled_from(_COMMANDS) | st.lists(
    st.one_of(_word, st.sampled_from(["status|log", "*"])), min_size=1, max_size=4
).map(" ".join)
_line = st.sampled_from(
    ["git log", "sudo git log", "x; rm -r -f /", "x -r log", "/usr/bin/git push", "'git push'"]
) | st.lists(
    st.one_of(_word, st.sampled_from([";", "&&", "|", "'git push'", "$(rm -rf /)"])),
    min_size=1,
    max_size=8,
).map(" ".join)


def _compiled(order: int, behavior: str, globs: list[str], commands: list[str]) -> CompiledRule:
    try:
        return _rule(order, paths=globs or None, commands=commands or None, behavior=behavior)
    except ValueError:
        return _rule(order, behavior=behavior)


@settings(max_examples=300, deadline=None)
@given(
    specs=st.lists(
        st.tuples(
            st.sampled_from(["allow", "ask", "deny"]),
            st.lists(_glob, max_size=2),
            st.lists(_command, max_size=2),
        ),
        min_size=1,
        max_size=8,
    ),
    path=_path,
    target=st.none() | _path,
    line=_line,
)
def test_indexed_candidates_hold_every_rule_that_matches(
    specs: list[tuple[str, list[str], list[str]]], path: str, target: str | None, line: str
) -> None:
    rules = tuple(
        _compiled(i, behavior, globs, [] if globs else commands)
        for i, (behavior, globs, commands) in enumerate(specs)
    )
    view = RuleIndex.build(rules, ["read_file", "shell"])
    for facts in (
        CallFacts("read_file", Effect.READ, path, target if target is not None else path),
        CallFacts("read_file", Effect.READ, path, target, absolute=("/h/" + path,), home="/h"),
        CallFacts("shell", Effect.EXECUTE, command=split_command_line(line)),
    ):
        matching = [r.name for r in rules if r.matches(facts)]
        candidates = {r.name for r in view.rules_for(facts.tool).candidates(facts)}
        assert set(matching) <= candidates, (facts, matching)
