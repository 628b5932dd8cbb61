"""Soundness of the rule analyses, checked against the engine's own matcher: what a check
claims about patterns must hold for every call the patterns can meet."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.compile.commands import compile_command_pattern, split_command_line
from toolpolicy.compile.globs import compile_glob
from toolpolicy.compile.names import NamePattern
from toolpolicy.compile.rules import CallFacts, CompiledRule
from toolpolicy.core.decision import Decision
from toolpolicy.core.vocabulary import Behavior, Effect
from toolpolicy.engine.selection import load
from toolpolicy.lint.checks import allow_anything, never_matches, shadowed_allow

TOOLS = load(profile="P03").tools
TOOL_PATTERNS = ["shell", "read_file", "write_file", "edit_file", "glob", "read_*", "*", "mcp__*"]
GLOBS = ["docs", "/docs", "docs/", "docs/**", "docs/*.md", "**", "*", "a/b.txt", "/a/b.txt", "src"]
COMMANDS = ["git", "git push", "git *", "*", "rm -rf", "python -m pytest", "bash -c", "sudo"]
PATHS = ["docs", "docs/a.md", "docs/x/y.txt", "a/b.txt", "x/docs/y", "src/x.py", "src", "z"]
LINES = [
    "git push origin",
    "git status",
    "rm -rf /",
    "python -m pytest -q",
    "git push && rm -rf x",
    "sudo rm -rf x",
    "bash -c 'git push'",
    "echo $(rm -rf x)",
]
EXTRA_TOOLS = [("mcp__a__b", Effect.READ), ("mcp__a__w", Effect.WRITE)]

_order = iter(range(10**9))


def _optional(values: list[str], size: int = 3) -> st.SearchStrategy[tuple[str, ...] | None]:
    return st.none() | st.lists(
        st.sampled_from(values), min_size=1, max_size=size, unique=True
    ).map(tuple)


@st.composite
def rules(draw: st.DrawFn, behavior: Behavior | None = None) -> CompiledRule:
    chosen = behavior or draw(st.sampled_from([Behavior.ALLOW, Behavior.ASK, Behavior.DENY]))
    tools = draw(_optional(TOOL_PATTERNS))
    effects = draw(st.none() | st.frozensets(st.sampled_from(list(Effect)), min_size=1))
    paths = draw(_optional(GLOBS))
    commands = draw(_optional(COMMANDS))
    return CompiledRule(
        name="r",
        behavior=chosen,
        reason="r",
        origin="p.yaml:1",
        order=next(_order),
        tools=None if tools is None else tuple(NamePattern(t) for t in tools),
        effects=effects,
        paths=None if paths is None else tuple(compile_glob(p, gitignore=True) for p in paths),
        commands=None if commands is None else tuple(compile_command_pattern(c) for c in commands),
        decision=Decision(chosen, "r", "r"),
    )


def every_call() -> list[CallFacts]:
    """Every call the small vocabulary can make, shaped as the engine shapes facts."""
    calls: list[CallFacts] = []
    for name in TOOLS.names:
        definition = TOOLS.get(name)
        assert definition is not None
        if definition.effect is Effect.EXECUTE:
            calls += [
                CallFacts(name, definition.effect, command=split_command_line(line))
                for line in LINES
            ]
        elif definition.path_argument is not None:
            calls += [CallFacts(name, definition.effect, path=p, target=p) for p in PATHS]
        else:
            calls.append(CallFacts(name, definition.effect))
    calls += [CallFacts(name, effect) for name, effect in EXTRA_TOOLS]
    return calls


CALLS = every_call()


@settings(max_examples=200)
@given(rules(), rules(Behavior.ALLOW))
def test_a_covered_allow_never_matches_a_call_the_cover_misses(
    wide: CompiledRule, narrow: CompiledRule
) -> None:
    if shadowed_allow.covers(wide, narrow, TOOLS):
        for call in CALLS:
            assert not narrow.matches(call) or wide.matches(call), call


@settings(max_examples=200)
@given(rules())
def test_a_rule_said_to_never_match_matches_no_builtin_call(rule: CompiledRule) -> None:
    if never_matches.why_never(rule, TOOLS) is not None:
        assert not any(rule.matches(call) for call in CALLS[: -len(EXTRA_TOOLS)])


@settings(max_examples=200)
@given(st.lists(rules(), max_size=12), rules(Behavior.ALLOW))
def test_the_cover_index_never_hides_a_covering_rule(
    others: list[CompiledRule], allow: CompiledRule
) -> None:
    strong = [r for r in others if r.behavior > Behavior.ALLOW]
    index = shadowed_allow.CoverIndex(strong)
    covering = {id(r) for r in strong if shadowed_allow.covers(r, allow, TOOLS)}
    reachable = shadowed_allow.reachable_tools(allow, TOOLS)
    assert covering <= {id(r) for r in index.candidates(allow, reachable)}


@settings(max_examples=200)
@given(rules(Behavior.ALLOW))
def test_an_allow_that_lets_a_destructive_line_run_is_flagged(rule: CompiledRule) -> None:
    # an allow that lets "rm -rf /" run through the shell must be called open-ended
    shell = CallFacts("shell", Effect.EXECUTE, command=split_command_line("rm -rf /"))
    if rule.matches(shell) and not any(p.words[0] == "rm" for p in rule.commands or ()):
        assert allow_anything.lets_anything_run(rule, TOOLS) is not None
