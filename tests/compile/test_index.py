"""The rule index: a call sees exactly the rules that can match it, in declaration order."""

from __future__ import annotations

from toolpolicy.compile.commands import compile_command_pattern, split_command_line
from toolpolicy.compile.globs import compile_glob
from toolpolicy.compile.index import RuleIndex
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
    _rule(2, tools=["read_file"], paths=["*.pem"]),  # no slash: any depth, unkeyed
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


def test_a_path_call_sees_plain_rules_its_segment_and_unkeyed_patterns() -> None:
    assert _names("read_file", Effect.READ, path="src/a.py", target="src/a.py") == [
        "r0",
        "r1",
        "r2",
    ]
    assert _names("read_file", Effect.READ, path="docs/x.md", target="docs/x.md") == [
        "r0",
        "r2",
        "r3",
    ]


def test_a_symlink_sees_the_rules_of_its_target_too() -> None:
    assert _names("read_file", Effect.READ, path="docs/link", target="secrets/key") == [
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
