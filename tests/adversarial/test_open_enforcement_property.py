"""Property: whatever symlinks the workspace holds and whenever they are swapped, no file tool
returns the content of — or writes into — a denied folder or the outside.

Each example builds a fresh workspace with a denied ``secrets/`` folder, an asked ``pub/``
folder and a sibling ``outside/``; plants random symlinks (into the denied folder, outside,
chains, absolute targets); then runs one real tool call through the real gate while an
approver that always says yes replaces a random path with a random link — before the call,
while the human is deciding, or not at all. Run with the kernel's ``openat2`` and with the
``O_NOFOLLOW`` walk.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolpolicy
from toolpolicy import ApprovalOutcome, ApprovalRequest, ToolCall, ToolContext

from .conftest import MemorySink, snapshot_tree

SECRET = "DENIED-CONTENT-51b2"
OUTSIDE = "OUTSIDE-CONTENT-d07c"
POLICY = {
    "apiVersion": "toolpolicy/v1",
    "kind": "Policy",
    "name": "property",
    "extends": "P03",
    "rules": [
        {
            "name": "closed",
            "behavior": "deny",
            "reason": "Closed",
            "match": {"paths": ["secrets/**"]},
        },
        {"name": "asked", "behavior": "ask", "reason": "Asked", "match": {"paths": ["pub/**"]}},
    ],
}
# Link targets, relative to the workspace root unless absolute ("{ws}", "{out}" filled in).
TARGETS = [
    "secrets",
    "secrets/key",
    "./secrets/../secrets/key",
    "../outside",
    "../outside/o.txt",
    "{ws}/secrets",
    "{ws}/secrets/key",
    "{out}",
    "pub",
    "pub/a.txt",
    "l1",
    "missing/x.txt",
]
LINKS = ["l1", "l2", "pub/l3", "pub/sub"]
PATHS = [
    "pub/a.txt",
    "pub/b.txt",
    "pub/new.txt",
    "l1",
    "l1/key",
    "l2/key",
    "l2/new.txt",
    "pub/l3",
    "pub/l3/key",
    "pub/sub/key",
    "pub/sub/new.txt",
]
SWAPPED = ["pub/a.txt", "pub/b.txt", "pub", "pub/new.txt"]


@dataclass
class SwapWhileDeciding:
    """Says yes, after running ``swap`` as the human deliberates."""

    swap: Callable[[], None]
    name: str = "always-yes"
    requests: list[ApprovalRequest] = field(default_factory=list)

    def respond(self, request: ApprovalRequest) -> ApprovalOutcome:
        self.requests.append(request)
        self.swap()
        return ApprovalOutcome.ALLOWED_ONCE


def _relink(ws: Path, outside: Path, name: str, target: str) -> None:
    """Make ``ws/name`` a link to ``target``, whatever was there."""
    path = ws / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)
    text = target.format(ws=ws, out=outside)
    if not os.path.isabs(text):
        # Targets are written from the root; a link in a sub-folder climbs back to it first.
        text = "../" * name.count("/") + text
    path.symlink_to(text)


def _call(tool: str, path: str) -> dict[str, object]:
    if tool == "read_file":
        return {"path": path}
    if tool == "write_file":
        return {"path": path, "content": "written"}
    if tool == "edit_file":
        return {"path": path, "old_string": "-", "new_string": "+", "replace_all": True}
    return {"pattern": "**"}


@pytest.mark.parametrize("resolution", ["openat2", "walk"], indirect=True)
@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    links=st.lists(st.tuples(st.sampled_from(LINKS), st.sampled_from(TARGETS)), max_size=4),
    tool=st.sampled_from(["read_file", "write_file", "edit_file", "glob"]),
    path=st.sampled_from(PATHS),
    swap=st.none() | st.tuples(st.sampled_from(SWAPPED), st.sampled_from(TARGETS)),
    swap_early=st.booleans(),
)
def test_no_file_tool_reaches_a_denied_or_outside_file(
    resolution: str,
    links: list[tuple[str, str]],
    tool: str,
    path: str,
    swap: tuple[str, str] | None,
    swap_early: bool,
) -> None:
    base = Path(tempfile.mkdtemp(prefix="toolpolicy-prop-"))
    try:
        ws, outside = base / "ws", base / "outside"
        (ws / "secrets").mkdir(parents=True)
        (ws / "pub").mkdir()
        outside.mkdir()
        (ws / "secrets" / "key").write_text(f"{SECRET}-")
        (ws / "pub" / "a.txt").write_text("public-")
        (ws / "pub" / "b.txt").write_text("public-")
        (outside / "o.txt").write_text(f"{OUTSIDE}-")
        (base / "policy.yaml").write_text(json.dumps(POLICY))
        for name, target in links:
            _relink(ws, outside, name, target)

        def do_swap() -> None:
            if swap is not None:
                _relink(ws, outside, *swap)

        if swap_early:
            do_swap()
        secrets_before = snapshot_tree(ws / "secrets")
        outside_before = snapshot_tree(outside)
        approver = SwapWhileDeciding(lambda: None if swap_early else do_swap())
        gate = toolpolicy.load(workspace=ws, policies=[base / "policy.yaml"]).gate(
            approval=toolpolicy.ApprovalService([approver]), audit=[MemorySink()]
        )
        result = gate.handle(ToolCall("c", tool, _call(tool, path)), ToolContext(str(ws), "c"))

        assert SECRET not in result.content
        assert OUTSIDE not in result.content
        if tool == "glob":
            assert not any(line.startswith("secrets/") for line in result.content.splitlines())
        if (ws / "secrets").is_dir() and not (ws / "secrets").is_symlink():
            assert snapshot_tree(ws / "secrets") == secrets_before
        assert snapshot_tree(outside) == outside_before
    finally:
        shutil.rmtree(base)
