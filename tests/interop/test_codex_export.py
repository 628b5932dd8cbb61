"""Export to a Codex execpolicy .rules file: prefix_rule calls carrying the policy's examples.

The file is read back the way Codex reads it: every top-level statement is a
``prefix_rule(...)`` call with literal keyword arguments (Starlark shares Python's syntax for
these), a pattern token matches exactly and the pattern is a prefix of the argv
(openai/codex ``codex-rs/execpolicy/src/rule.rs``, ``PrefixPattern::matches_prefix``), and
every ``match`` example must match its rule while no ``not_match`` example may
(``validate_match_examples`` / ``validate_not_match_examples``).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.compile.commands import compile_command_pattern
from toolpolicy.core.vocabulary import Behavior
from toolpolicy.interop import export_policy
from toolpolicy.interop.prefixes import UntranslatablePattern, literal_prefix

from .conftest import load, policy_with_rules, write_policy


def read_rules(text: str) -> list[dict[str, Any]]:
    """Every ``prefix_rule`` call of a .rules file as its keyword arguments."""
    calls = []
    for statement in ast.parse(text).body:
        assert isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
        call = statement.value
        assert isinstance(call.func, ast.Name) and call.func.id == "prefix_rule"
        assert not call.args
        calls.append({k.arg: ast.literal_eval(k.value) for k in call.keywords})
    return calls


def codex_matches(pattern: list[str | list[str]], argv: list[str]) -> bool:
    if len(argv) < len(pattern):
        return False
    return all(
        word == token if isinstance(token, str) else word in token
        for token, word in zip(pattern, argv, strict=False)
    )


def test_command_rules_become_prefix_rules_with_the_policys_examples(team: Path) -> None:
    rules = read_rules(export_policy(load(team), "codex-rules").text)
    assert rules == [
        {
            "pattern": ["git", "push"],
            "decision": "prompt",
            "justification": "Pushing needs a human",
            "match": [["git", "push", "origin", "main"]],
            "not_match": [["git", "status"]],
        },
        {
            "pattern": ["npm", "publish"],
            "decision": "prompt",
            "justification": "Pushing needs a human",
        },
        {
            "pattern": ["pytest"],
            "decision": "allow",
            "justification": "Tests are safe to run",
            "match": [["pytest", "-q", "tests"]],
        },
        {
            "pattern": ["git", "status"],
            "decision": "allow",
            "justification": "Tests are safe to run",
            "match": [["git", "status"]],
            "not_match": [["git", "push", "origin", "main"]],
        },
    ]


def test_every_example_holds_as_codex_checks_it_at_load(team: Path) -> None:
    for rule in read_rules(export_policy(load(team), "codex-rules").text):
        assert all(codex_matches(rule["pattern"], argv) for argv in rule.get("match", []))
        assert not any(codex_matches(rule["pattern"], argv) for argv in rule.get("not_match", []))


def test_a_compound_example_line_is_not_offered_as_one_argv(team: Path) -> None:
    text = export_policy(load(team), "codex-rules").text
    assert "&&" not in text and '"rm"' not in text


def test_paths_tool_names_and_wildcards_are_reported(team: Path) -> None:
    policy = load(team)
    exported = export_policy(policy, "codex-rules")
    dropped = [o.line for o in exported.dropped]
    profile_rule = policy.compiled.rules[0].label
    assert dropped == [
        f"not exported: rule {profile_rule}: Codex .rules match command prefixes, not tool names",
        f"not exported: rule no-secrets ({team}:6): Codex .rules match command prefixes, "
        "not file paths",
        f"not exported: rule push-asks ({team}:10) command 'git * main': a literal prefix has no "
        "wildcard for a word before the end",
        f"not exported: rule tests-run ({team}:14) command 'npm run *': a literal prefix has no "
        "one-word wildcard: without its trailing * the allow would also cover the bare command",
        f"not exported: rule mcp-search ({team}:18): Codex .rules match command prefixes, "
        "not tool names",
    ]
    knobs = [o.line for o in exported.omissions if o.subject.startswith("preset")]
    assert knobs == [
        "not expressible: preset workspace-write (sandbox workspace-write, approval ask): set "
        'sandbox_mode = "workspace-write" and approval_policy = "on-request" in Codex\'s '
        "config.toml; a .rules file cannot carry them, and Codex runs a command a rule allows "
        "outside its sandbox"
    ]


def _exported_deny(folder: Path, command: str) -> list[tuple[list[str], str]]:
    """The Codex rules (pattern, decision) a policy denying ``command`` exports."""
    path = write_policy(
        folder,
        policy_with_rules(
            "  - name: no-x\n    behavior: deny\n    reason: Refused\n"
            f"    match: {{commands: ['{command}']}}\n"
        ),
    )
    rules = read_rules(export_policy(load(path), "codex-rules").text)
    return [(r["pattern"], r["decision"]) for r in rules]


def test_a_deny_keeps_its_trailing_wildcard_as_the_bare_prefix(tmp_path: Path) -> None:
    assert _exported_deny(tmp_path, "npm run *") == [(["npm", "run"], "forbidden")]


def test_a_deny_is_exported_as_written_not_as_its_runs_of_words(tmp_path: Path) -> None:
    """toolpolicy breaks a deny's words where a line's words break (``user.email=x`` is
    ``user.email x`` to its engine); Codex matches the command's own words, so the export
    keeps the words as written (broken, the prefix would never match)."""
    assert _exported_deny(tmp_path, "git config user.email=x") == [
        (["git", "config", "user.email=x"], "forbidden")
    ]


def test_a_justification_stays_on_one_line(tmp_path: Path) -> None:
    path = write_policy(
        tmp_path,
        policy_with_rules(
            '  - name: no-rm\n    behavior: deny\n    reason: "Never\\nremove \\"files\\""\n'
            "    match: {commands: ['rm']}\n"
        ),
    )
    text = export_policy(load(path), "codex-rules").text
    assert read_rules(text)[0]["justification"] == 'Never remove "files"'


_WORDS = st.sampled_from(["git", "push", "-f", "main", "*"])


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(_WORDS, min_size=1, max_size=4),
    argv=st.lists(st.sampled_from(["git", "push", "-f", "main", "x"]), min_size=1, max_size=5),
    behavior=st.sampled_from([Behavior.ALLOW, Behavior.ASK, Behavior.DENY]),
)
def test_an_exported_allow_never_matches_more_and_a_deny_never_less(
    words: list[str], argv: list[str], behavior: Behavior
) -> None:
    pattern = compile_command_pattern(" ".join(words))
    try:
        prefix = literal_prefix(pattern, behavior)
    except UntranslatablePattern:
        return
    exported = codex_matches(list(prefix), argv)
    ours = pattern.matches(tuple(argv))
    if behavior is Behavior.ALLOW:
        assert not exported or ours
    else:
        assert not ours or exported
