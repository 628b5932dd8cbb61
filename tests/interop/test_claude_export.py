"""Export to Claude Code settings: what each rule becomes, and what is said instead."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.compile.commands import compile_command_pattern
from toolpolicy.compile.globs import compile_glob
from toolpolicy.interop import export_policy
from toolpolicy.interop.claude_settings import claude_command_specifier, claude_path_specifiers

from .conftest import load, policy_with_rules, write_policy


def _permissions(path: Path, **knobs: str) -> dict[str, list[str]]:
    exported = export_policy(load(path, **knobs), "claude-settings")
    permissions: dict[str, list[str]] = json.loads(exported.text)["permissions"]
    return permissions


def test_the_team_policy_becomes_allow_ask_and_deny_lists(team: Path) -> None:
    assert _permissions(team) == {
        "allow": [
            "Bash(pytest *)",
            "Bash(git status *)",
            "mcp__search__*",
            "mcp__github__get_issue",
            "WebFetch",
        ],
        "ask": ["Write", "Edit", "Bash(git push *)", "Bash(npm publish *)", "Bash(git * main *)"],
        "deny": [
            "Read(/**/.env)",
            "Read(/**/.env/**)",
            "Read(/secrets/**)",
            "Read(/**/build/)",
            "Edit(/**/.env)",
            "Edit(/**/.env/**)",
            "Edit(/secrets/**)",
            "Edit(/**/build/)",
        ],
    }


def test_every_omission_is_one_line_naming_the_rule(team: Path) -> None:
    exported = export_policy(load(team), "claude-settings")
    lines = [o.line for o in exported.omissions]
    assert lines == [
        f"partly exported: rule push-asks ({team}:10): Claude Code matches 'git push', "
        "'npm publish', 'git * main' only at the start of each command; toolpolicy's ask also "
        "hits it behind options, wrappers, 'bash -c' strings and absolute program paths",
        f"not exported: rule tests-run ({team}:14) command 'npm run *': Claude Code's * spans "
        "any run of characters (several words, or none at the end): the allow would reach more "
        "than toolpolicy's one-word *",
        "not expressible: workspace-boundary: writes outside the workspace (absolute paths, "
        "'..', symlink escapes) and to the protected files are denied by toolpolicy only",
        "not expressible: preset workspace-write (sandbox workspace-write, approval ask): "
        "Claude Code's permission mode (defaultMode) and its own sandbox settings decide these",
        "not expressible: profile P03 defaults (read allow, write allow, execute ask): a call "
        "no rule matches is left to the agent's own defaults",
    ]
    assert all("\n" not in line for line in lines)
    assert [o.subject for o in exported.dropped] == [
        f"rule tests-run ({team}:14) command 'npm run *'"
    ]


def test_approval_never_exports_every_ask_as_a_deny(team: Path) -> None:
    permissions = _permissions(team, preset="danger-full-access")
    assert permissions["ask"] == []
    assert "Bash(git push *)" in permissions["deny"]
    assert "Write" in permissions["deny"]
    exported = export_policy(load(team, preset="danger-full-access"), "claude-settings")
    assert exported.omissions[-1].subject == (
        "profile P03 defaults (read allow, write allow, execute deny)"
    )


def test_an_allow_for_one_file_writer_is_not_widened_to_every_writer(tmp_path: Path) -> None:
    path = write_policy(
        tmp_path,
        policy_with_rules(
            "  - name: docs-edits\n    behavior: allow\n    reason: Docs are free\n"
            "    match: {tools: [edit_file, read_file], paths: [docs/**]}\n"
            "  - name: no-lockfile\n    behavior: deny\n    reason: Lockfiles are generated\n"
            "    match: {tools: [edit_file], paths: [package-lock.json]}\n"
        ),
    )
    permissions = _permissions(path)
    assert permissions["allow"] == ["Read(/docs/**)"]
    # A deny may be wider than written: Edit(...) covers Write too; that is conservative.
    assert permissions["deny"] == ["Edit(/**/package-lock.json)", "Edit(/**/package-lock.json/**)"]
    exported = export_policy(load(path), "claude-settings")
    assert exported.dropped[0].detail == (
        "Claude Code's Edit(...) covers every tool that writes files; "
        "the allow names only edit_file"
    )


def test_a_rule_for_every_tool_is_said_to_reach_further(tmp_path: Path) -> None:
    path = write_policy(
        tmp_path,
        policy_with_rules(
            "  - name: nothing-external\n    behavior: deny\n    reason: No external tools\n"
            "    match: {effects: [execute]}\n"
        ),
    )
    assert _permissions(path)["deny"] == ["Bash"]
    exported = export_policy(load(path), "claude-settings")
    assert exported.omissions[0].line.startswith("partly exported: rule nothing-external (")


@settings(max_examples=300, deadline=None)
@given(
    segments=st.lists(
        st.sampled_from(["a", "b", ".env", "*", "**", "x?", "[ab]"]), min_size=1, max_size=3
    ),
    anchored=st.booleans(),
    folder=st.booleans(),
    path=st.lists(st.sampled_from(["a", "b", ".env", "x1", "ab"]), min_size=1, max_size=4),
    is_dir=st.booleans(),
)
def test_claude_specifiers_match_exactly_the_paths_the_glob_matches(
    segments: list[str], anchored: bool, folder: bool, path: list[str], is_dir: bool
) -> None:
    """Claude Code reads a specifier as gitignore anchored at the project root, which is
    how toolpolicy reads an anchored glob: the specifiers together match what the glob does."""
    text = ("/" if anchored else "") + "/".join(segments) + ("/" if folder else "")
    candidate = "/".join(path) + ("/" if is_dir else "")
    original = compile_glob(text, gitignore=True)
    specifiers = [compile_glob(s, gitignore=True) for s in claude_path_specifiers(text)]
    assert all(s.text.startswith("/") for s in specifiers)
    assert original.matches(candidate) == any(s.matches(candidate) for s in specifiers)


def test_absolute_and_home_path_rules_keep_their_root(tmp_path: Path) -> None:
    """Claude Code writes ``//path`` for absolute and ``~/path`` for home paths, as toolpolicy's
    path rules do; they must never become project-relative."""
    path = write_policy(
        tmp_path,
        policy_with_rules(
            "  - name: no-keys\n    behavior: deny\n    reason: Keys stay home\n"
            "    match: {tools: [read_file], paths: ['~/.ssh/**', '//etc/ssl']}\n"
        ),
    )
    assert _permissions(path)["deny"] == [
        "Read(~/.ssh/**)",
        "Read(//etc/ssl)",
        "Read(//etc/ssl/**)",
    ]


def claude_bash_matches(specifier: str, command: str) -> bool:
    """Claude Code's reading of ``Bash(SPECIFIER)`` for one simple command (its permissions
    reference): ``*`` spans any run of characters, and a trailing `` *`` also matches nothing,
    so ``git push *`` covers ``git push`` and ``git push origin`` but not ``git pushx``."""
    pieces = specifier.split("*")
    pattern = ".*".join(re.escape(p) for p in pieces)
    if specifier.endswith(" *"):
        pattern = pattern[: -len(re.escape(" ") + ".*")] + "(?: .*)?"
    return re.fullmatch(pattern, command, re.DOTALL) is not None


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(st.sampled_from(["git", "push", "-f", "main", "*"]), min_size=1, max_size=4),
    argv=st.lists(st.sampled_from(["git", "push", "-f", "main", "x"]), min_size=1, max_size=5),
)
def test_a_claude_bash_rule_covers_what_toolpolicy_prefix_covers(
    words: list[str], argv: list[str]
) -> None:
    """Every command toolpolicy's prefix matches is matched by the exported ``Bash(...)`` (so
    a deny or ask is never narrower there); without ``*`` the two match exactly the same
    commands, which is why only ``*``-free allows are exported."""
    pattern = compile_command_pattern(" ".join(words))
    specifier = claude_command_specifier(pattern.words)
    command = " ".join(argv)
    ours = pattern.matches(tuple(argv))
    theirs = claude_bash_matches(specifier, command)
    assert not ours or theirs
    if "*" not in words:
        assert ours == theirs


def test_the_boundary_line_follows_whether_the_selection_enforces_it(tmp_path: Path) -> None:
    """P02 alone has no boundary (nothing to report); any user policy brings it, even on P02."""
    import toolpolicy

    bare = export_policy(toolpolicy.load(profile="P02", workspace=tmp_path), "claude-settings")
    assert [o.subject for o in bare.omissions if o.subject == "workspace-boundary"] == []
    path = write_policy(tmp_path, policy_with_rules("  []\n").replace("P03", "P02"))
    layered = export_policy(
        toolpolicy.load(profile="P02", policies=[path], workspace=tmp_path), "claude-settings"
    )
    assert layered.omissions[0].subject == "workspace-boundary"


def test_a_rule_on_the_glob_tool_has_no_claude_code_counterpart(tmp_path: Path) -> None:
    path = write_policy(
        tmp_path,
        policy_with_rules(
            "  - name: no-listing\n    behavior: deny\n    reason: No listing\n"
            "    match: {tools: [glob, read_file]}\n"
        ),
    )
    assert _permissions(path)["deny"] == ["Read"]
    exported = export_policy(load(path), "claude-settings")
    assert exported.omissions[0].line == (
        f"partly exported: rule no-listing ({path}:6): no Claude Code tool is decided as glob "
        "(its Glob is read_file)"
    )
