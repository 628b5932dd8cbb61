"""Shared parts for the adversarial tests: a booby-trapped workspace, tree snapshots, policies.

Every test here drives the real tools (``builtin_registry``) through a real gate; the only
stand-ins are responders (they answer from a script) and, where a test must count runs, a
wrapper that counts and then calls the real handler.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from doubles import MemorySink, ScriptedResponder
from toolpolicy.core.protocols import ApprovalRequest
from toolpolicy.core.results import ToolResult
from toolpolicy.core.vocabulary import ApprovalOutcome
from toolpolicy.tools.builtin import builtin_handlers
from toolpolicy.tools.definitions import builtin_definitions
from toolpolicy.tools.registry import Handler, ToolContext, ToolSnapshot

__all__ = [
    "OUTSIDE_SECRET",
    "AlwaysAllow",
    "CountingRealTools",
    "MemorySink",
    "ScriptedResponder",
    "Trap",
    "build_trap",
    "policy_file",
    "snapshot_tree",
]

# Only ever inside files outside the workspace: a tool result that shows it leaked a read.
OUTSIDE_SECRET = "OUTSIDE-SECRET-7f3a"

# What a snapshot remembers of one entry: its kind and its content or link target.
Entry = tuple[str, bytes | str]


def snapshot_tree(root: Path, *, skip: Path | None = None) -> dict[str, Entry]:
    """Every entry under ``root`` (symlinks not followed), except the ``skip`` subtree."""
    found: dict[str, Entry] = {}
    for current, dirs, files in os.walk(root, followlinks=False):
        here = Path(current)
        if skip is not None and here == skip:
            dirs.clear()
            continue
        for name in (*dirs, *files):
            path = here / name
            if skip is not None and path == skip:
                continue
            key = str(path.relative_to(root))
            if path.is_symlink():
                found[key] = ("link", os.readlink(path))
            elif path.is_dir():
                found[key] = ("dir", b"")
            elif path.is_file():
                found[key] = ("file", path.read_bytes())
            else:
                found[key] = ("special", b"")  # a FIFO must never be opened here
    return found


@dataclass(frozen=True)
class Trap:
    """A temporary tree: ``ws`` (the workspace, full of traps) next to ``outside``."""

    base: Path
    ws: Path
    outside: Path

    def outside_state(self) -> dict[str, Entry]:
        """Everything in the tree except the workspace's own contents."""
        return snapshot_tree(self.base, skip=self.ws)


def build_trap(base: Path) -> Trap:
    """A workspace with symlink chains (in→out, loops, dangling), a hard link to an outside
    file and a FIFO, next to an outside to protect.

    ``outside/existing.txt`` contains ``a`` so that an edit that reached it would change it.
    """
    ws, outside = base / "ws", base / "outside"
    ws.mkdir()
    outside.mkdir()
    (outside / "existing.txt").write_text("a")
    (outside / "secret.txt").write_text(OUTSIDE_SECRET)
    (ws / "a").mkdir()
    (ws / "a" / "existing.txt").write_text("a")
    (ws / "secret").mkdir()
    (ws / "secret" / "keep.txt").write_text("a")
    links = {
        "link_out": str(outside),
        "link_out_rel": "../outside",
        "chain1": "chain2",
        "chain2": "chain3",
        "chain3": "link_out_rel",
        "loop_a": "loop_b",
        "loop_b": "loop_a",
        "self_loop": "self_loop",
        "dangling_out": "../outside/new.txt",
        "dangling_in": "missing_dir/missing.txt",
        "file_link_out": "../outside/existing.txt",
        "secret_link_out": "../outside/secret.txt",
        "inner": "a",
        "inner_file": "a/existing.txt",
        "up_and_back": "../ws/a",
        "root_link": "/",
        "alias_secret": "secret",
    }
    for name, target in links.items():
        (ws / name).symlink_to(target)
    (ws / "a" / "deep_out").symlink_to("../../outside")
    # A hard link shares the outside file's inode: writing through it would change outside.
    os.link(outside / "existing.txt", ws / "hard_link")
    os.mkfifo(ws / "fifo")
    return Trap(base, ws, outside)


def policy_file(directory: Path, rules: list[dict[str, object]], *, extends: str = "P03") -> Path:
    """A real Policy document (JSON is YAML) layered on ``extends``."""
    doc = {
        "apiVersion": "toolpolicy/v1",
        "kind": "Policy",
        "name": "adversarial",
        "extends": extends,
        "rules": [
            {"name": f"r{i}", "reason": f"generated rule {i}", **rule}
            for i, rule in enumerate(rules)
        ],
    }
    path = directory / "adversarial-policy.yaml"
    path.write_text(json.dumps(doc))
    return path


@dataclass
class AlwaysAllow:
    """The most permissive human there is: every ask becomes allowed-once."""

    name: str = "always-allow"
    asked: int = 0

    def respond(self, request: ApprovalRequest) -> ApprovalOutcome | None:
        self.asked += 1
        return ApprovalOutcome.ALLOWED_ONCE


@dataclass
class CountingRealTools:
    """The real built-in handlers, each call counted before it runs."""

    calls: list[str] = field(default_factory=list)

    def snapshot(self) -> ToolSnapshot:
        real = builtin_handlers()

        def counted(name: str) -> Handler:
            handler = real[name]

            def run(arguments: Mapping[str, object], context: ToolContext) -> ToolResult:
                self.calls.append(name)
                return handler(arguments, context)

            return run

        return ToolSnapshot(builtin_definitions(handlers={name: counted(name) for name in real}))
