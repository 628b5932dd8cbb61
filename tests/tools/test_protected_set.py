"""``ProtectedSet``: which writes it refuses, with which reason, and what the sandbox anchors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolpolicy.tools.protected import (
    AGENT_SETTINGS_REASON,
    FIXED_PROTECTED,
    GIT_REASON,
    POLICY_FILE_REASON,
    ProtectedEntry,
    ProtectedSet,
)


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        (".git", GIT_REASON),
        (".git/hooks/pre-commit", GIT_REASON),
        (".GIT/config", GIT_REASON),
        (".claude/settings.json", AGENT_SETTINGS_REASON),
        (".claude/settings.local.json", AGENT_SETTINGS_REASON),
        (".codex", AGENT_SETTINGS_REASON),
        (".codex/config.toml", AGENT_SETTINGS_REASON),
        (".gemini/settings.json", AGENT_SETTINGS_REASON),
        (".github/hooks", AGENT_SETTINGS_REASON),
        (".github/hooks/toolpolicy.json", AGENT_SETTINGS_REASON),
        (".github/copilot/settings.json", AGENT_SETTINGS_REASON),
        (".github/copilot/settings.local.json", AGENT_SETTINGS_REASON),
        (".github/copilot/instructions.md", None),
        (".claude/commands/x.md", None),
        (".gitignore", None),
        (".github/workflows/ci.yml", None),
        ("src/.git", GIT_REASON),
        ("README.md", None),
    ],
)
def test_the_fixed_entries(path: str, reason: str | None) -> None:
    assert FIXED_PROTECTED.refusal(path) == reason


def test_a_policy_at_the_root_protects_the_file_and_one_in_a_folder_protects_the_folder(
    tmp_path: Path,
) -> None:
    root = tmp_path / "ws"
    (root / "conf" / "policies").mkdir(parents=True)
    outside = tmp_path / "elsewhere.yaml"
    protected = ProtectedSet.for_workspace(
        str(root),
        [str(root / "team.yaml"), str(root / "conf" / "policies" / "p.yaml"), str(outside)],
    )
    assert protected.refusal("team.yaml") == POLICY_FILE_REASON
    assert protected.refusal("other.yaml") is None  # the root itself is never protected
    assert protected.refusal("conf/policies/new.yaml") == POLICY_FILE_REASON
    assert protected.refusal("conf/policies") == POLICY_FILE_REASON
    assert protected.refusal("conf/other.yaml") is None
    assert protected.refusal("elsewhere.yaml") is None
    assert protected.anchors() == (".claude", ".gemini", ".github", "conf", ".github/copilot")


@given(st.text(alphabet="ab./", max_size=12))
def test_only_paths_under_an_entry_are_refused(relative: str) -> None:
    protected = ProtectedSet.for_workspace("/ws", ["/ws/a/p.yaml"])
    folded = relative.casefold()
    expected = folded == "a" or folded.startswith("a/")
    assert (protected.refusal(relative) == POLICY_FILE_REASON) is expected


@pytest.mark.parametrize("path", ["vendor/lib/.git/config", "a/.GIT/hooks/x", "b/.git"])
def test_a_git_folder_below_the_root_is_refused_to_the_file_tools(path: str) -> None:
    assert FIXED_PROTECTED.refusal(path) == GIT_REASON


@pytest.mark.parametrize("path", ["a/.gitignore", "a/x.git/config", "a/.github/x"])
def test_only_a_git_folder_itself_is(path: str) -> None:
    assert FIXED_PROTECTED.refusal(path) is None


def test_a_policy_reached_through_a_link_is_protected_both_ways(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "conf" / "pol").mkdir(parents=True)
    (root / "conf" / "pol" / "team.yaml").write_text("x")
    (root / "policies").symlink_to("conf/pol")
    protected = ProtectedSet.for_workspace(str(root), [str(root / "policies" / "team.yaml")])
    assert protected.refusal("policies/team.yaml") == POLICY_FILE_REASON
    assert protected.refusal("conf/pol/team.yaml") == POLICY_FILE_REASON


_SEGMENTS = st.sampled_from([".git", ".GIT", "a", "A", "b", "ß", "ss"])
_PATHS = st.lists(_SEGMENTS, max_size=4).map("/".join)
_ENTRIES = st.lists(
    st.builds(
        ProtectedEntry,
        path=_PATHS.filter(bool),
        folder=st.booleans(),
        reason=st.sampled_from(["first", "second", "third"]),
        anywhere=st.booleans(),
    ),
    max_size=6,
)


@settings(max_examples=400)
@given(entries=_ENTRIES, relative=st.one_of(_PATHS, st.text(alphabet="aAß.gitG/", max_size=10)))
@example(  # an earlier, shallower folder entry wins over a later, deeper one
    entries=[ProtectedEntry("a", True, "first"), ProtectedEntry("a/b", True, "second")],
    relative="a/b/c",
)
def test_refusal_is_the_reason_of_the_first_entry_that_covers_the_path(
    entries: list[ProtectedEntry], relative: str
) -> None:
    """``refusal`` looks the path up in tables built from the entries; the answer is the one
    asking each entry in order gives, whatever the entries' case, overlaps and order (``ß``
    folds to ``ss``)."""
    protected = ProtectedSet(tuple(entries))
    first = next((e.reason for e in entries if e.covers(relative)), None)

    assert protected.refusal(relative) == first
    assert protected.refusal(relative) == first  # the tables, kept, answer the same
