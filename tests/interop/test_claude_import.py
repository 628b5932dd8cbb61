"""Import Claude Code permissions: rules where toolpolicy decides the same, comments elsewhere;
the result passes the real ``toolpolicy lint``, and export → import round trips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolpolicy.core.vocabulary import Behavior
from toolpolicy.diff import Verdict, run_diff
from toolpolicy.interop import export_policy, import_claude_settings

from .conftest import load, policy_with_rules, run_cli, write_policy


def _import(**lists: list[str]) -> str:
    return import_claude_settings(lists, name="imported", extends="P03", source="settings.json")


def _rules_and_comments(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.startswith("  ")]


def test_each_entry_becomes_one_rule() -> None:
    text = _import(
        allow=["Bash(npm run test:*)", "Read", "mcp__github", "Edit(src/**)"],
        ask=["Bash(git push *)", "Write(./docs/**)"],
        deny=["Read(./.env)", "Bash(npm publish)", "mcp__search__*"],
    )
    assert text.splitlines()[:6] == [
        "# Imported by `toolpolicy import claude-settings` from settings.json.",
        "# Claude Code paths are read relative to the project root (the workspace).",
        "apiVersion: toolpolicy/v1",
        "kind: Policy",
        "name: imported",
        'extends: "P03"',
    ]
    assert _rules_and_comments(text) == [
        "- name: deny-read-env",
        "behavior: deny",
        'reason: "Claude Code settings: deny Read(./.env)"',
        'match: {tools: ["read_file"], paths: ["/.env"]}',
        "- name: deny-bash-npm-publish",
        "behavior: deny",
        'reason: "Claude Code settings: deny Bash(npm publish)"',
        'match: {tools: ["shell"], commands: ["npm publish"]}',
        "- name: deny-mcp-search",
        "behavior: deny",
        'reason: "Claude Code settings: deny mcp__search__*"',
        'match: {tools: ["mcp__search__*"]}',
        "- name: ask-bash-git-push",
        "behavior: ask",
        'reason: "Claude Code settings: ask Bash(git push *)"',
        'match: {tools: ["shell"], commands: ["git push"]}',
        "- name: ask-write-docs",
        "behavior: ask",
        'reason: "Claude Code settings: ask Write(./docs/**)"',
        'match: {tools: ["write_file"], paths: ["/docs/**"]}',
        "- name: allow-bash-npm-run-test",
        "behavior: allow",
        'reason: "Claude Code settings: allow Bash(npm run test:*)"',
        'match: {tools: ["shell"], commands: ["npm run test"]}',
        "- name: allow-read",
        "behavior: allow",
        'reason: "Claude Code settings: allow Read"',
        'match: {tools: ["read_file"]}',
        "- name: allow-mcp-github",
        "behavior: allow",
        'reason: "Claude Code settings: allow mcp__github"',
        'match: {tools: ["mcp__github__*"]}',
        "- name: allow-edit-src",
        "behavior: allow",
        'reason: "Claude Code settings: allow Edit(src/**)"',
        'match: {tools: ["write_file", "edit_file"], paths: ["src/**"]}',
    ]


_TILDE = "invalid glob '~user/x': '~' is only understood as '~/' (the home folder) in rule paths"
_STAR = "Claude Code's * spans any run of characters; toolpolicy's * is one whole word"
_EXACT = "an exact command: toolpolicy's commands are prefixes, the allow would be wider"
_FETCH = "toolpolicy matches WebFetch by name only, not by 'domain:x.org'"
_PIPE = "Claude Code's | is a pipe; in toolpolicy | separates alternatives of one word"


def test_absolute_and_home_paths_keep_their_root() -> None:
    text = _import(deny=["Read(~/.ssh/**)", "Edit(//etc/**)"])
    assert [line for line in _rules_and_comments(text) if line.startswith("match")] == [
        'match: {tools: ["read_file"], paths: ["~/.ssh/**"]}',
        'match: {tools: ["write_file", "edit_file"], paths: ["//etc/**"]}',
    ]


@pytest.mark.parametrize(
    ("behavior", "entry", "reason"),
    [
        ("deny", "Read(~user/x)", _TILDE),
        ("allow", "WebFetch(domain:x.org)", _FETCH),
        ("allow", "Bash(npm run test)", _EXACT),
        ("deny", "Bash(git * main)", _STAR),
        ("allow", "Bash(npm*)", _STAR),
        ("allow", "Grep", "toolpolicy decides Grep as read_file: write the rule for read_file"),
        ("ask", "Agent(explorer)", "toolpolicy matches Agent by name only, not by 'explorer'"),
        ("deny", "Bash(curl x | bash:*)", _PIPE),
        ("allow", "Bash(git log|rm:*)", _PIPE),
        ("deny", "Read(../up/**)", "invalid glob '../up/**': '..' segments are not allowed"),
        ("deny", "not a rule!", "not a Claude Code permission rule"),
    ],
)  # fmt: skip
def test_an_entry_that_would_decide_differently_is_a_comment(
    behavior: str, entry: str, reason: str
) -> None:
    text = _import(**{behavior: [entry]})
    assert _rules_and_comments(text) == [f"# not imported: {behavior} {entry}: {reason}"]
    assert "rules: []" in text.splitlines()


def test_the_imported_policy_passes_the_real_lint(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(
        json.dumps(
            {
                "permissions": {
                    "allow": [
                        "Bash(git status *)",
                        "Read(docs/**)",
                        "Bash(pytest:*)",
                        "mcp__search__*",
                        "Bash(npm*)",
                    ],
                    "ask": ["Bash(git push:*)", "Edit(/src/**)"],
                    "deny": ["Read(./.env)", "Bash(rm -rf)", "WebFetch", "Read(~/.ssh/**)"],
                }
            }
        )
    )
    done = run_cli("import", "claude-settings", str(settings), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (tmp_path / "imported.yaml").write_text(done.stdout)
    lint = run_cli("lint", "imported.yaml", "--format", "json", cwd=tmp_path)
    assert lint.returncode == 0, lint.stdout
    summary = json.loads(lint.stdout)["summary"]
    assert summary["errors"] == 0
    assert all(f["severity"] != "error" for f in json.loads(lint.stdout)["findings"])


ROUND_TRIP_POLICY = policy_with_rules(
    "  - name: no-secrets\n    behavior: deny\n    reason: Secrets stay private\n"
    "    match: {tools: [read_file, write_file, edit_file],\n"
    "            paths: ['.env', 'secrets/**', 'out/']}\n"
    "  - name: keys-stay-home\n    behavior: deny\n    reason: Keys stay home\n"
    "    match: {tools: [read_file], paths: ['~/.ssh/**', '//etc/ssl']}\n"
    "  - name: push-asks\n    behavior: ask\n    reason: Pushing needs a human\n"
    "    match: {commands: ['git push', 'npm publish']}\n"
    "  - name: tests-run\n    behavior: allow\n    reason: Tests are safe\n"
    "    match: {commands: ['pytest', 'git status']}\n"
    "  - name: docs-read\n    behavior: allow\n    reason: Docs are public\n"
    "    match: {tools: [read_file], paths: ['/docs/**']}\n"
    "  - name: mcp-search\n    behavior: allow\n    reason: Reads only\n"
    "    match: {tools: ['mcp__search__*', mcp__github__get_issue]}\n"
)


def test_export_then_import_round_trips_on_the_claude_side(tmp_path: Path) -> None:
    original = write_policy(tmp_path, ROUND_TRIP_POLICY)
    first = json.loads(export_policy(load(original), "claude-settings").text)["permissions"]
    text = import_claude_settings(first, name="back", extends="P03", source="exported")
    assert "not imported" not in text
    imported = write_policy(tmp_path, text, "back.yaml")
    second = json.loads(export_policy(load(imported), "claude-settings").text)["permissions"]
    assert {k: sorted(v) for k, v in second.items()} == {k: sorted(v) for k, v in first.items()}


def test_export_then_import_decides_every_probe_the_same(tmp_path: Path) -> None:
    original = write_policy(tmp_path, ROUND_TRIP_POLICY)
    first = json.loads(export_policy(load(original), "claude-settings").text)["permissions"]
    text = import_claude_settings(first, name="back", extends="P03", source="exported")
    imported = write_policy(tmp_path, text, "back.yaml")
    report = run_diff(str(original), str(imported))
    assert report.verdict is Verdict.EQUIVALENT


def test_the_allowed_commands_share_one_rule_in_order_each_with_its_entry() -> None:
    text = _import(
        allow=["Bash(pytest:*)", "Read", "Bash(npm*)", "Bash(git status *)"],
        ask=["Bash(git push:*)"],
        deny=["Bash(rm:*)"],
    )
    assert _rules_and_comments(text) == [
        "- name: deny-bash-rm",
        "behavior: deny",
        'reason: "Claude Code settings: deny Bash(rm:*)"',
        'match: {tools: ["shell"], commands: ["rm"]}',
        "- name: ask-bash-git-push",
        "behavior: ask",
        'reason: "Claude Code settings: ask Bash(git push:*)"',
        'match: {tools: ["shell"], commands: ["git push"]}',
        "- name: allow-bash-pytest-bash-git-status",
        "behavior: allow",
        'reason: "Claude Code settings: allow Bash(pytest:*), Bash(git status *)"',
        "match:",
        'tools: ["shell"]',
        "commands:",
        '- "pytest"  # allow Bash(pytest:*)',
        '- "git status"  # allow Bash(git status *)',
        "- name: allow-read",
        "behavior: allow",
        'reason: "Claude Code settings: allow Read"',
        'match: {tools: ["read_file"]}',
        f"# not imported: allow Bash(npm*): {_STAR}",
    ]


def test_a_compound_line_is_allowed_when_each_command_has_an_allow_entry(tmp_path: Path) -> None:
    """As in Claude Code: each subcommand may be allowed by a different entry; a line with
    one command no entry allows is not allowed."""
    text = _import(allow=["Bash(pytest:*)", "Bash(git status *)"])
    imported = load(write_policy(tmp_path, text, "imported.yaml"))
    rule = "allow-bash-pytest-bash-git-status"
    reason = "Claude Code settings: allow Bash(pytest:*), Bash(git status *)"
    for line in ("pytest ; git status", "git status && pytest -q", "pytest | git status"):
        decided = imported.check("shell", {"command": line})
        assert (decided.behavior, decided.source, decided.reason) == (Behavior.ALLOW, rule, reason)
    for line in ("pytest ; rm x", "rm x", "git status && curl x | bash"):
        decided = imported.check("shell", {"command": line})
        assert (decided.behavior, decided.source, decided.reason) == (
            Behavior.ASK,
            "shell-default",
            "Shell execution requires approval",
        ), line


def test_the_tool_tables_agree_with_the_hooks_catalog() -> None:
    """What export and import call each Claude Code tool is what the hook decides it as."""
    from toolpolicy.hooks.claude_code import CATALOG
    from toolpolicy.interop.claude_import import _FOLDED
    from toolpolicy.interop.claude_settings import CLAUDE_TOOL_NAMES

    for ours, claude in CLAUDE_TOOL_NAMES.items():
        assert CATALOG[claude].tool == ours
    catalogued = {name: entry.tool for name, entry in CATALOG.items() if entry.tool is not None}
    folded = {n: t for n, t in catalogued.items() if n not in CLAUDE_TOOL_NAMES.values()}
    assert folded == _FOLDED
