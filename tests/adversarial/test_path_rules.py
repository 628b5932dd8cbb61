"""A deny rule on a path covers every spelling of that path the write handler accepts.

Rules and handlers must read a path the same way; where they did not (backslashes and C1
controls, found by this suite and fixed in 09bfd53), a write reached a file that a rule was
written to protect.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from toolpolicy.core.errors import WorkspacePathError
from toolpolicy.core.vocabulary import Behavior
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.selection import load
from toolpolicy.tools.builtin import builtin_registry
from toolpolicy.tools.registry import ToolCall, ToolContext
from toolpolicy.tools.workspace import split_relative

from .conftest import MemorySink, build_trap, policy_file, snapshot_tree

EXAMPLES = 200

RULES: list[dict[str, object]] = [
    {"behavior": "deny", "match": {"paths": ["secret/**"]}},
    {"behavior": "allow", "match": {"tools": ["write_file", "edit_file"]}},
]


def _write(base: Path, path: str) -> tuple[Path, dict[str, tuple[str, bytes | str]]]:
    """Run write_file on ``path`` under P02 + deny secret/** + allow writes; the secret dir."""
    trap = build_trap(base)
    secret = trap.ws / "secret"
    before = snapshot_tree(secret)
    policy = load(
        profile="P02", policies=[policy_file(base, RULES, extends="P02")], workspace=trap.ws
    )
    gate = policy.gate(
        approval=ApprovalService([]), audit=[MemorySink()], registry=builtin_registry().snapshot()
    )
    gate.handle(
        ToolCall("c", "write_file", {"path": path, "content": "PWNED"}),
        ToolContext(str(trap.ws), "c"),
    )
    return secret, before


@pytest.mark.parametrize(
    "path",
    [
        "secret/new.txt",
        "./secret//new.txt",
        "a/../secret/new.txt",
        "secret/./keep.txt",
        "alias_secret/new.txt",
        "inner/../secret/new.txt",
    ],
)
def test_a_deny_rule_on_a_folder_refuses_the_plain_spellings(tmp_path: Path, path: str) -> None:
    secret, before = _write(tmp_path, path)
    assert snapshot_tree(secret) == before


@pytest.mark.parametrize(
    "path",
    [
        "secret\\new.txt",
        "alias_secret\\new.txt",
        "secret/\x85new.txt",
    ],
)
def test_a_deny_rule_on_a_folder_refuses_backslash_and_c1_spellings(
    tmp_path: Path, path: str
) -> None:
    secret, before = _write(tmp_path, path)
    assert snapshot_tree(secret) == before


SECRET_SEGMENTS = ["secret", "alias_secret", "keep.txt", "new.txt", "a", "inner", "..", ".", ""]
SECRET_SEPARATORS = ["/", "//", "\\", "/./"]


@st.composite
def secret_paths(draw: st.DrawFn) -> str:
    segments = draw(st.lists(st.sampled_from(SECRET_SEGMENTS), min_size=1, max_size=5))
    path = segments[0]
    for segment in segments[1:]:
        path += draw(st.sampled_from(SECRET_SEPARATORS)) + segment
    return path


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(path=secret_paths())
@example(path="secret\\new.txt")
def test_no_spelling_of_a_path_writes_into_a_denied_folder(
    tmp_path_factory: pytest.TempPathFactory, path: str
) -> None:
    secret, before = _write(tmp_path_factory.mktemp("rules"), path)
    assert snapshot_tree(secret) == before


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    path=st.lists(
        st.sampled_from(["a", "b", "..", ".", "", "\\", "/", "\x85", "\u2215", "x y"]),
        min_size=1,
        max_size=8,
    ).map("".join)
)
@example(path="a\\b")
@example(path="a/\x85")
def test_a_deny_rule_on_the_path_the_handler_would_write_always_hits(
    tmp_path_factory: pytest.TempPathFactory, path: str
) -> None:
    try:
        parts = split_relative(path)
    except WorkspacePathError:
        return
    if not parts:
        return
    base = tmp_path_factory.mktemp("exact")
    rules: list[dict[str, object]] = [
        {"behavior": "deny", "match": {"paths": ["/".join(parts)]}},
        {"behavior": "allow", "match": {"tools": ["write_file"]}},
    ]
    policy = load(profile="P02", policies=[policy_file(base, rules, extends="P02")], workspace=base)
    decision = policy.check("write_file", {"path": path, "content": "x"})
    assert decision.behavior is Behavior.DENY, (path, parts, decision)
