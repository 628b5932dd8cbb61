"""Check-then-use: the file is swapped while the human is deciding.

A policy denies everything under ``secrets/**`` and asks before anything under ``src/**``.
The approver below is a real responder: it performs the swap while "the human is deciding"
and then says yes. The decision looked at ``src/notes.txt``; what the tool opens is
``secrets/key``. The tools apply the rules again to the path they actually opened, so the
secret never reaches the model and nothing under ``secrets`` changes. Each case runs with the
kernel's ``openat2`` and with the ``O_NOFOLLOW`` walk.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import toolpolicy
from toolpolicy import ApprovalOutcome, ApprovalRequest, ToolCall, ToolContext, ToolResult

from .conftest import MemorySink

SECRET = "SECRET-KEY-9c1e"
DENIED = "Error [permission_denied]: Secrets are off limits"
ELSEWHERE = (
    "Error [permission_denied]: The path opened is not the path decided, and a rule asks before it"
)
POLICY = {
    "apiVersion": "toolpolicy/v1",
    "kind": "Policy",
    "name": "swap",
    "extends": "P03",
    "rules": [
        {
            "name": "secrets",
            "behavior": "deny",
            "reason": "Secrets are off limits",
            "match": {"paths": ["secrets/**"]},
        },
        {
            "name": "sources",
            "behavior": "ask",
            "reason": "Sources need a look",
            "match": {"paths": ["src/**"]},
        },
        {"name": "listing", "behavior": "ask", "reason": "Listing", "match": {"tools": ["glob"]}},
    ],
}


@dataclass
class SwappingApprover:
    """A human who says yes, while something swaps the file under the decision."""

    swap: Callable[[], None]
    name: str = "swapping-human"
    requests: list[ApprovalRequest] = field(default_factory=list)

    def respond(self, request: ApprovalRequest) -> ApprovalOutcome:
        self.requests.append(request)
        self.swap()
        return ApprovalOutcome.ALLOWED_ONCE


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "secrets").mkdir()
    (root / "src" / "notes.txt").write_text("notes\n")
    (root / "secrets" / "key").write_text(SECRET)
    (root / "policy.yaml").write_text(json.dumps(POLICY))
    return root


def _handle(
    ws: Path, approver: SwappingApprover, tool: str, arguments: dict[str, object]
) -> ToolResult:
    gate = toolpolicy.load(workspace=ws, policies=[ws / "policy.yaml"]).gate(
        approval=toolpolicy.ApprovalService([approver]), audit=[MemorySink()]
    )
    return gate.handle(ToolCall("c1", tool, arguments), ToolContext(str(ws), "c1"))


def _link_notes_to_the_secret(ws: Path) -> Callable[[], None]:
    def swap() -> None:
        notes = ws / "src" / "notes.txt"
        notes.unlink()
        notes.symlink_to("../secrets/key")

    return swap


@pytest.mark.usefixtures("resolution")
def test_read_file_swapped_during_the_ask_never_returns_the_secret(ws: Path) -> None:
    approver = SwappingApprover(_link_notes_to_the_secret(ws))
    result = _handle(ws, approver, "read_file", {"path": "src/notes.txt"})
    assert len(approver.requests) == 1  # the human was asked about src/notes.txt
    assert result.content == DENIED
    assert SECRET not in result.content


@pytest.mark.usefixtures("resolution")
def test_edit_file_swapped_during_the_ask_never_edits_the_secret(ws: Path) -> None:
    approver = SwappingApprover(_link_notes_to_the_secret(ws))
    arguments = {"path": "src/notes.txt", "old_string": "SECRET", "new_string": "LEAKED"}
    result = _handle(ws, approver, "edit_file", arguments)
    assert result.content == DENIED
    assert (ws / "secrets" / "key").read_text() == SECRET


@pytest.mark.usefixtures("resolution")
def test_write_file_swapped_during_the_ask_never_writes_into_the_denied_folder(ws: Path) -> None:
    def swap() -> None:
        # The whole folder becomes a link into the denied one.
        (ws / "src").rename(ws / "src.away")
        (ws / "src").symlink_to("secrets")

    approver = SwappingApprover(swap)
    result = _handle(ws, approver, "write_file", {"path": "src/planted.txt", "content": "x"})
    assert len(approver.requests) == 1
    assert result.content == DENIED
    assert sorted(os.listdir(ws / "secrets")) == ["key"]


@pytest.mark.usefixtures("resolution")
def test_write_file_swapped_onto_the_secret_itself_leaves_it_alone(ws: Path) -> None:
    approver = SwappingApprover(_link_notes_to_the_secret(ws))
    result = _handle(ws, approver, "write_file", {"path": "src/notes.txt", "content": "x"})
    assert result.content == DENIED
    assert (ws / "secrets" / "key").read_text() == SECRET


@pytest.mark.usefixtures("resolution")
def test_glob_never_lists_what_reading_is_denied_whatever_appears_during_the_ask(
    ws: Path,
) -> None:
    def swap() -> None:
        (ws / "secrets" / "second-key").write_text(SECRET)
        (ws / "src" / "peek").symlink_to("../secrets")
        (ws / "src" / "alias").symlink_to("../secrets/key")

    approver = SwappingApprover(swap)
    result = _handle(ws, approver, "glob", {"pattern": "**"})
    assert len(approver.requests) == 1
    assert result.content.splitlines() == [
        "policy.yaml",
        "src/notes.txt",
        "[2 matches withheld: the policy denies reading them]",
    ]


@pytest.mark.usefixtures("resolution")
def test_an_ask_on_a_path_the_human_was_not_asked_about_is_refused_without_asking_again(
    ws: Path,
) -> None:
    (ws / "pub").mkdir()
    (ws / "pub" / "readme.txt").write_text("public\n")

    def swap() -> None:
        readme = ws / "pub" / "readme.txt"
        readme.unlink()
        readme.symlink_to("../src/notes.txt")

    approver = SwappingApprover(swap)
    # The human approves reading pub/readme.txt (P03 asks before every edit) ...
    arguments = {"path": "pub/readme.txt", "old_string": "notes", "new_string": "changed"}
    result = _handle(ws, approver, "edit_file", arguments)
    assert len(approver.requests) == 1
    # ... not src/notes.txt, which its own rule asks about: refused, and no one asked again.
    assert result.content == f"{ELSEWHERE}: src/notes.txt"
    assert (ws / "src" / "notes.txt").read_text() == "notes\n"


@pytest.mark.usefixtures("resolution")
def test_a_link_to_an_asked_path_is_refused_at_the_open_and_the_real_path_asks(
    ws: Path,
) -> None:
    # The engine decides on the text: docs/notes.txt names no asked path, so nobody is
    # asked; the open finds src/notes.txt behind the link, which nobody approved.
    (ws / "docs").symlink_to("src")
    approver = SwappingApprover(lambda: None)
    result = _handle(ws, approver, "read_file", {"path": "docs/notes.txt"})
    assert approver.requests == []
    assert result.content == f"{ELSEWHERE}: src/notes.txt"
    # The model calls again with the real path: the human is asked, and says yes.
    result = _handle(ws, approver, "read_file", {"path": "src/notes.txt"})
    assert len(approver.requests) == 1
    assert result.content == "notes\n"


@pytest.mark.usefixtures("resolution")
def test_an_absolute_rule_on_a_workspace_file_holds_at_the_open(ws: Path) -> None:
    policy = json.loads((ws / "policy.yaml").read_text())
    policy["rules"].append(
        {
            "name": "by-absolute-path",
            "behavior": "deny",
            "reason": "Closed by its absolute path",
            "match": {"paths": [f"/{ws}/vault/**"]},
        }
    )
    (ws / "policy.yaml").write_text(json.dumps(policy))
    (ws / "vault").mkdir()
    (ws / "vault" / "key").write_text(SECRET)

    def swap() -> None:
        notes = ws / "src" / "notes.txt"
        notes.unlink()
        notes.symlink_to("../vault/key")

    result = _handle(ws, SwappingApprover(swap), "read_file", {"path": "src/notes.txt"})
    assert result.content == "Error [permission_denied]: Closed by its absolute path"


def test_a_refusal_at_the_open_is_audited_after_the_allow(ws: Path) -> None:
    approver = SwappingApprover(_link_notes_to_the_secret(ws))
    sink = MemorySink()
    gate = toolpolicy.load(workspace=ws, policies=[ws / "policy.yaml"]).gate(
        approval=toolpolicy.ApprovalService([approver]), audit=[sink]
    )
    result = gate.handle(
        ToolCall("c1", "read_file", {"path": "src/notes.txt"}), ToolContext(str(ws), "c1")
    )
    assert result.content == DENIED
    assert [(r.call_id, r.behavior, r.source, r.reason) for r in sink.records] == [
        ("c1", "allow", "swapping-human", "User approved this tool call"),
        ("c1", "deny", "open-check", "Secrets are off limits"),
    ]
