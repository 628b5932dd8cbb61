"""Each check in-process, on small documents written for it; messages are asserted verbatim."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy.compile.commands import compile_command_pattern
from toolpolicy.compile.globs import compile_glob
from toolpolicy.compile.names import NamePattern
from toolpolicy.compile.rules import CompiledRule
from toolpolicy.core.decision import Decision
from toolpolicy.core.vocabulary import Behavior, Effect
from toolpolicy.engine.selection import load
from toolpolicy.lint import Finding, Severity, lint_bytes
from toolpolicy.lint.checks import allow_anything, never_matches, outside_workspace, shadowed_allow

HEAD = "apiVersion: toolpolicy/v1\nkind: Policy\nname: team\n"


def lint(text: str, workspace: str, path: str = "p.yaml") -> list[Finding]:
    return lint_bytes(text.encode(), path, workspace)


def summary(findings: list[Finding]) -> list[tuple[int, int, str, str]]:
    return [(f.line, f.column, f.severity.label, f.code) for f in findings]


def rule(
    behavior: Behavior,
    *,
    tools: tuple[str, ...] | None = None,
    effects: tuple[Effect, ...] | None = None,
    paths: tuple[str, ...] | None = None,
    commands: tuple[str, ...] | None = None,
) -> CompiledRule:
    return CompiledRule(
        name="r",
        behavior=behavior,
        reason="r",
        origin="p.yaml:1",
        order=0,
        tools=None if tools is None else tuple(NamePattern(t) for t in tools),
        effects=None if effects is None else frozenset(effects),
        paths=None if paths is None else tuple(compile_glob(p, gitignore=True) for p in paths),
        commands=None if commands is None else tuple(compile_command_pattern(c) for c in commands),
        decision=Decision(behavior, "r", "r"),
    )


# -- loader ------------------------------------------------------------------------------


def test_every_loader_problem_is_an_error_in_one_run(workspace: str) -> None:
    text = HEAD + "name: again\nrules:\n  - name: sandbox\n    behavior: maybe\n    reason: r\n"
    findings = lint(text, workspace)
    assert summary(findings) == [
        (4, 1, "error", "duplicate-key"),
        (6, 5, "error", "schema"),
        (6, 11, "error", "reserved-name"),
        (7, 15, "error", "schema"),
    ]
    assert findings[0].message == "duplicate key 'name' (first defined at line 3, column 1)"


def test_a_pattern_that_does_not_compile_is_an_error_at_the_pattern_itself(
    workspace: str,
) -> None:
    text = HEAD + "rules:\n  - name: a\n    behavior: deny\n    reason: r\n"
    text += "    match: {paths: ['src/[z-a]']}\n"
    [finding] = lint(text, workspace)
    assert (finding.line, finding.column, finding.code, finding.severity) == (
        8,
        21,
        "invalid-pattern",
        Severity.ERROR,
    )
    assert finding.message == "invalid glob 'src/[z-a]': reversed range 'z-a'"


def test_every_bad_pattern_of_a_rule_is_reported_at_its_own_place(workspace: str) -> None:
    text = HEAD + "rules:\n  - name: a\n    behavior: deny\n    reason: r\n    match:\n"
    text += "      paths:\n        - ok/**\n        - 'src/[z-a]'\n"
    text += "      commands:\n        - git push\n        - 'rm x*'\n"
    findings = lint(text, workspace)
    assert [(f.line, f.column, f.code) for f in findings] == [
        (11, 11, "invalid-pattern"),
        (14, 11, "invalid-pattern"),
    ]


def test_an_extends_that_names_nothing_is_an_error_at_the_extends_line(
    workspace: str, tmp_path: Path
) -> None:
    path = tmp_path / "child.yaml"
    path.write_text(HEAD + "extends: missing.yaml\n")
    [finding] = lint(path.read_text(), workspace, str(path))
    assert (finding.line, finding.column, finding.code) == (4, 10, "extends-unknown")


def test_a_broken_parent_is_reported_in_the_parent_file(workspace: str, tmp_path: Path) -> None:
    (tmp_path / "parent.yaml").write_text(HEAD + "bogus: 1\n")
    child = tmp_path / "child.yaml"
    child.write_text(HEAD + "extends: parent.yaml\n")
    [finding] = lint(child.read_text(), workspace, str(child))
    assert finding.path == str(tmp_path / "parent.yaml")
    assert (finding.line, finding.code) == (4, "schema")


def test_a_user_profile_is_refused_but_a_shipped_one_is_linted(workspace: str) -> None:
    from toolpolicy.language import builtin_profiles

    shipped = builtin_profiles()["P03"]
    data = Path(shipped.path).read_bytes()
    assert lint_bytes(data, shipped.path, workspace) == []
    changed = data.replace(b"chapter: 3", b"chapter: 4")
    [finding] = lint_bytes(changed, "mine.yaml", workspace)
    assert (finding.code, finding.line) == ("profile-not-builtin", 5)


# -- examples ----------------------------------------------------------------------------


def test_a_wrong_example_shows_expected_and_actual(workspace: str) -> None:
    text = HEAD + "extends: P03\nexamples:\n"
    text += "  - call: {tool: write_file, arguments: {path: a.txt, content: x}}\n"
    text += "    expect: {behavior: allow, source: default}\n"
    [finding] = lint(text, workspace)
    assert (finding.line, finding.column, finding.code) == (6, 5, "example-failed")
    assert finding.message == (
        'example write_file {"content": "x", "path": "a.txt"}: expected allow from default, '
        "got ask from confirm-file-write (File writes require explicit approval from "
        "chapter 3 onward)"
    )


def test_an_example_is_decided_under_its_preset(workspace: str) -> None:
    text = HEAD + "examples:\n"
    text += "  - call: {tool: write_file, arguments: {path: a.txt, content: x}}\n"
    text += "    expect: {behavior: deny, source: sandbox}\n    preset: read-only\n"
    text += "  - call: {tool: write_file, arguments: {path: a.txt, content: x}}\n"
    text += "    expect: {behavior: deny, source: approval-policy}\n"
    text += "    preset: danger-full-access\n"
    assert lint(text, workspace) == []


def test_a_rejected_call_and_an_unknown_preset_fail_their_examples(workspace: str) -> None:
    text = HEAD + "examples:\n"
    text += "  - call: {tool: shell, arguments: {cmd: ls}}\n    expect: ask\n"
    text += "  - call: {tool: glob, arguments: {pattern: '*'}}\n    expect: allow\n"
    text += "    preset: yolo\n"
    first, second = lint(text, workspace)
    assert first.message == (
        'example shell {"cmd": "ls"}: expected ask, but the call is rejected '
        "(invalid_arguments): Error [invalid_arguments]: unexpected argument: cmd"
    )
    assert second.message == (
        'example glob {"pattern": "*"}: cannot use preset \'yolo\': unknown preset: yolo '
        "(known: workspace-write, danger-full-access, read-only)"
    )


def test_examples_do_not_touch_the_workspace(workspace: str) -> None:
    text = HEAD + "extends: P02\nexamples:\n"
    text += "  - call: {tool: write_file, arguments: {path: made.txt, content: x}}\n"
    text += "    expect: allow\n"
    assert lint(text, workspace) == []
    assert list(Path(workspace).iterdir()) == []


def test_the_profile_examples_are_not_repeated_for_every_policy(workspace: str) -> None:
    # P03's own examples belong to p03.yaml; a policy on P03 only runs its own
    text = HEAD + "extends: P03\nexamples:\n"
    text += "  - call: {tool: read_file, arguments: {path: a}}\n    expect: deny\n"
    assert [f.line for f in lint(text, workspace)] == [6]


# -- unknown-tool ------------------------------------------------------------------------


def test_an_unknown_tool_gets_a_did_you_mean(workspace: str) -> None:
    text = HEAD + "rules:\n  - name: a\n    behavior: deny\n    reason: r\n"
    text += "    match:\n      tools:\n        - read_fil\n        - 'mcp__x__*'\n"
    text += "        - mcp__github__push\n        - 'shell*'\n        - zzz\n"
    first, second = lint(text, workspace)
    assert (first.line, first.column, first.severity) == (10, 11, Severity.WARNING)
    assert first.message == (
        "rule 'a' names unknown tool 'read_fil', so it never matches that name; "
        "did you mean 'read_file'?"
    )
    assert second.message == (
        "rule 'a' names unknown tool 'zzz', so it never matches that name; "
        "known tools: edit_file, glob, read_file, shell, write_file"
    )


def test_claude_code_tools_decided_by_name_are_known_and_the_others_name_their_builtin(
    workspace: str,
) -> None:
    text = HEAD + "rules:\n  - name: a\n    behavior: deny\n    reason: r\n"
    text += "    match:\n      tools: [WebFetch, TodoWrite, Task, WebSearch, Read]\n"
    [finding] = lint(text, workspace)
    assert finding.message == (
        "rule 'a' names the agent tool 'Read', which toolpolicy decides as 'read_file', "
        "so it never matches; name 'read_file'"
    )


# -- shadowed-allow ----------------------------------------------------------------------


def test_an_allow_under_a_wider_deny_is_shadowed(workspace: str) -> None:
    text = HEAD + "extends: P02\nrules:\n"
    text += "  - name: no-secrets\n    behavior: deny\n    reason: r\n"
    text += "    match: {paths: [secrets]}\n"
    text += "  - name: one-secret\n    behavior: allow\n    reason: r\n"
    text += "    match: {tools: [read_file], paths: [/secrets/a.txt]}\n"
    [finding] = lint(text, workspace)
    assert (finding.line, finding.code) == (10, "shadowed-allow")
    assert finding.message == (
        "allow rule 'one-secret' never takes effect: every call it matches also matches deny "
        "rule no-secrets (p.yaml:6), and deny beats allow"
    )


@pytest.mark.parametrize(
    ("wide", "narrow", "expected"),
    [
        (rule(Behavior.DENY), rule(Behavior.ALLOW, tools=("shell",)), True),
        (rule(Behavior.DENY, tools=("*",)), rule(Behavior.ALLOW, tools=("mcp__a__*",)), True),
        (rule(Behavior.DENY, tools=("mcp__*",)), rule(Behavior.ALLOW, tools=("mcp__a__*",)), False),
        (rule(Behavior.DENY, tools=("read_file",)), rule(Behavior.ALLOW), False),
        (
            rule(Behavior.DENY, effects=(Effect.WRITE,)),
            rule(Behavior.ALLOW, tools=("write_file", "edit_file")),
            True,
        ),
        (
            rule(Behavior.DENY, effects=(Effect.WRITE,)),
            rule(Behavior.ALLOW, tools=("write_file", "mcp__x")),
            False,
        ),
        (
            rule(Behavior.ASK, paths=("docs/**",)),
            rule(Behavior.ALLOW, paths=("docs/**",), tools=("read_file",)),
            True,
        ),
        (rule(Behavior.ASK, paths=("docs",)), rule(Behavior.ALLOW, paths=("docs/*.md",)), False),
        (rule(Behavior.ASK, paths=("/docs",)), rule(Behavior.ALLOW, paths=("docs",)), False),
        (rule(Behavior.ASK, paths=("docs",)), rule(Behavior.ALLOW, paths=("/docs",)), True),
        (rule(Behavior.ASK, paths=("**",)), rule(Behavior.ALLOW, paths=("a/*.py",)), True),
        (rule(Behavior.ASK, paths=("a",)), rule(Behavior.ALLOW), False),
        (
            rule(Behavior.DENY, commands=("git",)),
            rule(Behavior.ALLOW, commands=("git push", "git status")),
            True,
        ),
        (
            rule(Behavior.DENY, commands=("git push",)),
            rule(Behavior.ALLOW, commands=("git push", "git status")),
            False,
        ),
        (
            rule(Behavior.DENY, commands=("git *",)),
            rule(Behavior.ALLOW, commands=("git * origin",)),
            True,
        ),
        (
            rule(Behavior.DENY, commands=("git push",)),
            rule(Behavior.ALLOW, commands=("git *",)),
            False,
        ),
    ],
)
def test_covers_claims_only_what_the_patterns_prove(
    wide: CompiledRule, narrow: CompiledRule, expected: bool
) -> None:
    tools = load(profile="P03").tools
    assert shadowed_allow.covers(wide, narrow, tools) is expected


# -- identical-rule ----------------------------------------------------------------------


def test_a_rule_repeating_the_profile_is_identical(workspace: str) -> None:
    text = HEAD + "extends: P03\nrules:\n  - name: again\n    behavior: ask\n    reason: r\n"
    text += "    match: {tools: [edit_file, write_file]}\n"
    findings = lint(text, workspace)
    assert [f.code for f in findings] == ["identical-rule"]
    assert findings[0].message == (
        "rule 'again' has the same behavior and match as rule confirm-file-write "
        "(built-in p03.yaml:13); it never changes a decision"
    )


def test_the_first_of_two_identical_rules_is_not_reported(workspace: str) -> None:
    rules = "".join(
        f"  - name: r{i}\n    behavior: deny\n    reason: r\n    match: {{paths: [x]}}\n"
        for i in range(3)
    )
    findings = lint(HEAD + "rules:\n" + rules, workspace)
    assert [(f.line, f.code) for f in findings] == [(9, "identical-rule"), (13, "identical-rule")]


# -- outside-workspace -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "outside"),
    [
        ("../x", True),
        ("a/../../x", True),
        ("~user/x", True),
        ("C:/Windows/**", True),
        ("/etc/passwd", True),
        ("/home/*/.bashrc", True),
        ("/Users/me/x", True),
        ("~/.ssh/id_rsa", False),  # written as a home path: it names one
        ("//etc/passwd", False),  # written as an absolute path: it names one
        ("/etc", False),  # a workspace-anchored top-level name
        ("/src/**", False),
        ("etc/**", False),
        ("docs/*.md", False),
    ],
)
def test_looks_outside_reads_patterns_as_written(pattern: str, outside: bool) -> None:
    assert outside_workspace.looks_outside(pattern) is outside


def test_a_single_slash_system_path_says_how_to_name_an_absolute_path(workspace: str) -> None:
    text = HEAD + "extends: P02\nrules:\n  - name: hosts\n    behavior: deny\n    reason: r\n"
    text += "    match:\n      tools: [read_file]\n      paths: [/etc/hosts]\n"
    [finding] = lint(text, workspace)
    assert (finding.line, finding.column, finding.code) == (11, 14, "outside-workspace")
    assert finding.message == (
        "rule 'hosts' only names paths outside the workspace ('/etc/hosts') in a form rule "
        "paths do not read that way: a leading '/' anchors at the workspace root; write '//' "
        "for an absolute path ('//etc/hosts') and '~/' for the home folder"
    )


def test_an_allow_on_writes_outside_the_workspace_is_reported(workspace: str) -> None:
    text = HEAD + "extends: P02\nrules:\n  - name: hosts\n    behavior: allow\n    reason: r\n"
    text += "    match:\n      tools: [write_file]\n      paths: [//etc/hosts]\n"
    [finding] = lint(text, workspace)
    assert (finding.line, finding.code) == (11, "outside-workspace")
    assert finding.message == (
        "rule 'hosts' allows writes to paths outside the workspace ('//etc/hosts'); the "
        "workspace boundary denies every write outside the workspace whatever a rule says: "
        "limit the rule to reads (effects: [read])"
    )


def test_a_workspace_deny_never_shadows_an_allow_outside_it_and_back(workspace: str) -> None:
    text = HEAD + "extends: P03\nrules:\n"
    for name, behavior, paths in (
        ("local", "deny", "['etc/**']"),
        ("sys", "allow", "['//etc/hosts']"),
        ("everything", "deny", "['**']"),
        ("key", "allow", "['~/.ssh/config']"),
        ("home", "deny", "['~/.aws/**']"),
        ("aws", "allow", "['~/.aws/config']"),
    ):
        text += f"  - {{name: {name}, behavior: {behavior}, reason: r, "
        text += f"match: {{effects: [read], paths: {paths}}}}}\n"
    [finding] = lint(text, workspace)
    assert (finding.code, finding.line) == ("shadowed-allow", 11)
    assert "allow rule 'aws' never takes effect" in finding.message


@pytest.mark.parametrize(
    "match",
    [
        "{effects: [read], paths: ['~/.ssh/**', '//etc/shadow']}",
        "{tools: [read_file], paths: ['//etc/hosts']}",
        "{paths: ['~/.aws/**']}",
    ],
)
def test_read_rules_and_denies_outside_the_workspace_are_fine(workspace: str, match: str) -> None:
    for behavior in ("allow", "deny") if "read" in match else ("deny",):
        text = HEAD + f"extends: P02\nrules:\n  - name: r\n    behavior: {behavior}\n"
        text += f"    reason: r\n    match: {match}\n"
        assert lint(text, workspace) == []


# -- never-matches -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("compiled", "reason"),
    [
        (
            rule(Behavior.DENY, tools=("glob",), paths=("a",)),
            "paths only match tools with a path argument, and these have none: glob",
        ),
        (
            rule(Behavior.DENY, tools=("read_file",), commands=("rm",)),
            "commands only match tools that run commands, and these run none: read_file",
        ),
        (
            rule(Behavior.DENY, effects=(Effect.READ,), commands=("rm",)),
            "commands only match tools with the execute effect, and effects excludes it",
        ),
        (
            rule(Behavior.DENY, tools=("shell",), effects=(Effect.READ,)),
            "effects read fit none of the tools (shell)",
        ),
        (rule(Behavior.DENY, tools=("shell", "read_file"), paths=("a",)), None),
        (rule(Behavior.DENY, tools=("mcp__x",), paths=("a",)), None),
        (rule(Behavior.DENY, effects=(Effect.EXECUTE,), paths=("a",)), None),
    ],
)
def test_why_never_names_the_contradiction(compiled: CompiledRule, reason: str | None) -> None:
    assert never_matches.why_never(compiled, load(profile="P03").tools) == reason


# -- allow-anything ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("compiled", "open_ended"),
    [
        (rule(Behavior.ALLOW, commands=("*",)), True),
        (rule(Behavior.ALLOW, commands=("* --help",)), True),
        (rule(Behavior.ALLOW, commands=("sh",)), True),
        (rule(Behavior.ALLOW, commands=("/usr/bin/python3 -c",)), True),
        (rule(Behavior.ALLOW, commands=("sudo *",)), True),
        (rule(Behavior.ALLOW, commands=("env",)), True),
        (rule(Behavior.ALLOW, tools=("shell",)), True),
        (rule(Behavior.ALLOW, effects=(Effect.EXECUTE,)), True),
        (rule(Behavior.ALLOW, commands=("python -m pytest",)), False),
        (rule(Behavior.ALLOW, commands=("git status",)), False),
        (rule(Behavior.ALLOW, tools=("read_file",)), False),
        (rule(Behavior.ALLOW, effects=(Effect.READ,)), False),
        (rule(Behavior.ALLOW, paths=("src/**",)), False),
        (rule(Behavior.DENY, commands=("*",)), False),
        (rule(Behavior.ASK, tools=("shell",)), False),
    ],
)
def test_lets_anything_run_flags_open_ended_allows(
    compiled: CompiledRule, open_ended: bool
) -> None:
    reason = allow_anything.lets_anything_run(compiled, load(profile="P03").tools)
    assert (reason is not None) is open_ended


# -- preset-tie --------------------------------------------------------------------------


def test_two_presets_with_one_combination_are_an_info_at_the_later_key(workspace: str) -> None:
    text = "apiVersion: toolpolicy/v1\nkind: PresetTable\ndefault: a\npresets:\n"
    text += "  a: {sandbox: read-only, approval: ask}\n"
    text += "  b: {sandbox: read-only, approval: never}\n"
    text += "  'c': {sandbox: read-only, approval: ask}\n"
    [finding] = lint(text, workspace)
    assert (finding.line, finding.column, finding.severity) == (7, 3, Severity.INFO)
    assert finding.message == (
        "presets 'a' and 'c' both set sandbox read-only and approval ask: when the knobs match "
        "both, the table order decides which name is shown ('a')"
    )


def test_the_builtin_preset_table_has_no_tie(workspace: str) -> None:
    from toolpolicy.language import builtin_presets

    shipped = builtin_presets()
    assert lint_bytes(Path(shipped.path).read_bytes(), shipped.path, workspace) == []


def test_extends_names_a_builtin_profile_case_sensitively_like_the_loader(
    workspace: str, tmp_path: Path
) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(HEAD + "extends: p03\n")
    [finding] = lint(path.read_text(), workspace, str(path))
    assert (finding.line, finding.column, finding.code) == (4, 10, "extends-unknown")


# -- unknown-suppression -----------------------------------------------------------------


def test_an_ignore_comment_that_cannot_work_is_reported(workspace: str) -> None:
    text = HEAD + "# toolpolicy: ignore[unknown-tol, identical-rule]\n"
    text += "description: x  # toolpolicy: ignore[yaml-syntax]\n"
    first, second = lint(text, workspace)
    assert (first.line, first.column, first.code) == (4, 1, "unknown-suppression")
    assert first.message == "ignore[unknown-tol] names no lint code; did you mean 'unknown-tool'?"
    assert (second.line, second.column) == (5, 17)
    assert second.message == (
        "ignore[yaml-syntax] has no effect: loader findings cannot be suppressed, the file is "
        "refused when loaded whatever the comment says"
    )


def test_loader_findings_are_never_suppressed(workspace: str) -> None:
    text = HEAD + "bogus: 1  # toolpolicy: ignore[schema]\n"
    assert [f.code for f in lint(text, workspace)] == ["schema", "unknown-suppression"]


# -- the registry --------------------------------------------------------------------------


def test_every_check_documents_a_failing_and_a_passing_example() -> None:
    from toolpolicy.lint import CHECKS, REGISTRY, check_for

    for check in CHECKS:
        documentation = getattr(check, "__doc__", None) or ""
        assert "FAIL::" in documentation and "PASS::" in documentation, check.CODE
        assert check_for(check.CODE) is check
        assert isinstance(check.SEVERITY, Severity)
    assert len(REGISTRY) == 24 + len(CHECKS) - 1  # the loader check reports 24 codes


def test_asking_for_an_unknown_code_is_a_clear_error() -> None:
    from toolpolicy.lint import check_for

    with pytest.raises(KeyError, match="unknown lint code 'no-such-code' \\(known: "):
        check_for("no-such-code")


# -- all at once -------------------------------------------------------------------------

_BROKEN_RULE = "  - name: broken\n    behavior: maybe\n    reason: r\n    match: {paths: [x]}\n"
_RULE_SNIPPETS = tuple(
    "  - name: r{i}\n    behavior: " + behavior + "\n    reason: r\n    match: {{" + match + "}}\n"
    for behavior, match in (
        ("deny", "tools: [writefile]"),
        ("deny", "tools: [shell], paths: [a]"),
        ("allow", "tools: [shell]"),
        ("deny", "paths: ['../x/**']"),
        ("deny", "paths: ['[z-a]']"),
        ("deny", "paths: [.env]"),
    )
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(snippets=st.lists(st.sampled_from(_RULE_SNIPPETS), min_size=1, max_size=5))
def test_a_rule_that_fails_the_schema_hides_nothing_about_the_others(
    snippets: list[str], workspace: str
) -> None:
    rules = "".join(s.format(i=i) for i, s in enumerate(snippets))
    alone = lint(HEAD + "rules:\n" + rules, workspace)
    together = lint(HEAD + "rules:\n" + rules + _BROKEN_RULE, workspace)
    broken_line = len((HEAD + "rules:\n" + rules).splitlines()) + 2
    assert [f for f in together if f.line < broken_line] == alone
    assert [(f.line, f.code) for f in together if f.line >= broken_line] == [
        (broken_line, "schema")
    ]


def test_examples_wait_until_every_rule_validates(workspace: str) -> None:
    text = HEAD + "rules:\n" + _BROKEN_RULE.replace("broken", "a")
    text += "examples:\n  - call: {tool: read_file, arguments: {path: x}}\n    expect: deny\n"
    assert summary(lint(text, workspace)) == [(6, 15, "error", "schema")]


def test_nothing_is_judged_when_the_problem_is_not_inside_one_rule(workspace: str) -> None:
    text = "apiVersion: toolpolicy/v1\nkind: Policy\nrules:\n"
    text += "  - name: a\n    behavior: deny\n    reason: r\n    match: {tools: [writefile]}\n"
    assert summary(lint(text, workspace)) == [(1, 1, "error", "schema")]


def test_a_salvaged_rule_is_judged_on_the_parent_file_it_extends(
    workspace: str, tmp_path: Path
) -> None:
    (tmp_path / "base.yaml").write_text(
        HEAD + "rules:\n  - name: no-push\n    behavior: deny\n    reason: r\n"
        "    match: {commands: [git push]}\n"
    )
    child = tmp_path / "child.yaml"
    child.write_text(
        HEAD
        + "extends: base.yaml\nrules:\n"
        + _BROKEN_RULE
        + "  - name: again\n    behavior: deny\n    reason: r\n    match: {commands: [git push]}\n"
    )
    findings = lint(child.read_text(), workspace, str(child))
    assert summary(findings) == [(7, 15, "error", "schema"), (10, 5, "warning", "identical-rule")]
