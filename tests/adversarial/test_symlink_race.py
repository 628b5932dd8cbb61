"""A folder swapped for a symlink to the outside while the real tools write through it.

A thread flips ``ws/d`` between a real folder and a symlink to ``outside`` as fast as it can;
meanwhile the gate runs allowed ``write_file`` and ``edit_file`` calls on ``d/...``. Whatever
the interleaving, nothing outside changes and every refusal has a stable code.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from contextlib import suppress
from pathlib import Path

import pytest

from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.selection import load
from toolpolicy.tools.builtin import builtin_registry
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import AlwaysAllow, MemorySink, snapshot_tree

CALLS = 300
STABLE = {
    "permission_denied",
    "path_escape",
    "invalid_path",
    "file_not_found",
    "not_a_file",
    "edit_no_match",
}


def _flip(ws: Path, outside: Path, stop: threading.Event) -> None:
    folder, saved = ws / "d", ws / "d_saved"
    while not stop.is_set():
        with suppress(OSError):
            # Repair first: a write may have re-created "d" while it was away.
            if folder.is_symlink():
                folder.unlink()
            if folder.is_dir() and saved.is_dir():
                shutil.rmtree(saved)
            if saved.is_dir() and not os.path.lexists(folder):
                saved.rename(folder)
            folder.rename(saved)
            folder.symlink_to(outside)
            folder.unlink()
            saved.rename(folder)


@pytest.mark.parametrize("profile", ["P02", "P03"])
def test_a_folder_swapped_for_a_symlink_mid_call_never_lets_a_write_out(
    tmp_path: Path, profile: str
) -> None:
    ws, outside = tmp_path / "ws", tmp_path / "outside"
    (ws / "d").mkdir(parents=True)
    outside.mkdir()
    (ws / "d" / "x.txt").write_text("a" * 1000)
    (outside / "x.txt").write_text("a" * 1000)
    before = snapshot_tree(outside)
    gate = load(profile=profile, workspace=ws).gate(
        approval=ApprovalService([AlwaysAllow()]),
        audit=[MemorySink()],
        registry=builtin_registry().snapshot(),
    )
    stop = threading.Event()
    flipper = threading.Thread(target=_flip, args=(ws, outside, stop), daemon=True)
    flipper.start()
    codes: set[str | None] = set()
    try:
        for index in range(CALLS):
            call = (
                ToolCall(f"w{index}", "write_file", {"path": f"d/new{index}.txt", "content": "P"})
                if index % 2
                else ToolCall(
                    f"e{index}",
                    "edit_file",
                    {"path": "d/x.txt", "old_string": "a", "new_string": "P", "replace_all": True},
                )
            )
            time.sleep(0.0002)  # let the flipper run between calls too
            result = gate.handle(call, ToolContext(str(ws), call.id))
            codes.add(result.error_code)
            assert snapshot_tree(outside) == before
    finally:
        stop.set()
        flipper.join(timeout=30)
    assert codes - {None} <= STABLE, codes


def test_a_symlink_removed_between_lstat_and_readlink_gives_a_stable_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws, outside = tmp_path / "ws", tmp_path / "outside"
    ws.mkdir()
    outside.mkdir()
    link = ws / "d"
    link.symlink_to(outside)
    real_lstat = os.lstat

    def lstat_then_remove(path: str | os.PathLike[str]) -> os.stat_result:
        result = real_lstat(path)
        if os.fspath(path) == str(link) and link.is_symlink():
            link.unlink()  # the race, at its exact moment
        return result

    monkeypatch.setattr(os, "lstat", lstat_then_remove)
    tools = builtin_registry().snapshot()
    call = ToolCall("c", "edit_file", {"path": "d/x.txt", "old_string": "a", "new_string": "b"})
    result = tools.invoke(tools.prepare(call), ToolContext(str(ws), "c"))
    monkeypatch.undo()
    assert result.error_code in STABLE, result
