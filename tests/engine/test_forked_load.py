"""A large selection's policies are read in two halves at once, the second by a forked copy
of the process (``core.forked.Beside``): the documents, their order and every error must be
those of reading the files one after another, and no copy may outlive the load."""

from __future__ import annotations

import os
import pickle
import threading
import time
from pathlib import Path

import pytest

from processes import alive
from toolpolicy import load
from toolpolicy.core.errors import PolicyLoadError
from toolpolicy.core.forked import Beside
from toolpolicy.engine import selection
from toolpolicy.engine.selection import gather_sources

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")


def _policies(folder: Path, files: int, rules: int) -> list[str]:
    paths = []
    for f in range(files):
        lines = ["apiVersion: toolpolicy/v1", "kind: Policy", f"name: part-{f}", "rules:"]
        lines += [
            f"  - {{name: r-{f}-{i}, behavior: deny, reason: closed {i}, "
            f"match: {{tools: [read_file], paths: ['d{f}x{i}/**']}}}}"
            for i in range(rules)
        ]
        path = folder / f"part-{f}.yaml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(path))
    return paths


def test_the_work_runs_in_a_copy_and_its_result_comes_back() -> None:
    with Beside(os.getpid) as copy:
        assert copy.forked
        assert copy.result() != os.getpid()  # the copy's pid: it ran there
        assert not copy.forked


def test_a_failing_copy_leaves_the_work_to_this_process() -> None:
    here = os.getpid()

    def only_here() -> int:
        if os.getpid() != here:
            raise RuntimeError("not in the copy")
        return 7

    with Beside(only_here) as copy:
        assert copy.result() == 7
    with Beside(only_here) as copy:  # an error here is the work's own, raised here
        with pytest.raises(ZeroDivisionError):
            Beside(lambda: 1 // 0).result()
        assert copy.result() == 7


def test_leaving_the_block_ends_a_copy_still_at_work() -> None:
    with Beside(lambda: time.sleep(30)) as copy:
        pid = copy._pid
        assert pid is not None and alive(pid)
    assert not alive(pid)


def test_no_copy_beside_a_second_thread() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        with Beside(os.getpid) as copy:
            assert not copy.forked
            assert copy.result() == os.getpid()
    finally:
        stop.set()
        thread.join()


def test_a_large_selection_is_read_in_halves_as_one_after_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _policies(tmp_path, 5, 40)
    alone = gather_sources("P03", paths)
    assert selection._half(paths) is None  # 5 small files: read one after another
    monkeypatch.setattr(selection, "BESIDE_BYTES", 1)
    half = selection._half(paths)
    assert half is not None and 0 < half < len(paths)
    halves = gather_sources("P03", paths)
    assert halves == alone
    # what the copy sends back survives the pipe (else this process would read it again)
    assert pickle.loads(pickle.dumps(alone.layers, pickle.HIGHEST_PROTOCOL)) == alone.layers
    assert [layer.path for layer in halves.layers] == paths
    workspace = tmp_path / "ws"
    workspace.mkdir()
    policy = load("P03", policies=paths, workspace=str(workspace))
    decision = policy.check("read_file", {"path": "d4x39/a.txt"})
    assert (decision.behavior.label, decision.source, decision.reason) == (
        "deny",
        "r-4-39",
        "closed 39",
    )


@pytest.mark.parametrize("broken", [0, 4])  # in this process's half, in the copy's
def test_an_error_in_either_half_is_the_one_read_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, broken: int
) -> None:
    paths = _policies(tmp_path, 5, 40)
    text = Path(paths[broken]).read_text(encoding="utf-8")
    Path(paths[broken]).write_text(text.replace("behavior: deny", "behavior: maybe", 1))
    with pytest.raises(PolicyLoadError) as alone:
        gather_sources("P03", paths)
    monkeypatch.setattr(selection, "BESIDE_BYTES", 1)
    before = set(os.listdir("/proc")) if os.path.isdir("/proc") else set()
    with pytest.raises(PolicyLoadError) as halves:
        gather_sources("P03", paths)
    assert str(halves.value) == str(alone.value)
    assert f"{paths[broken]}:5:" in str(halves.value)
    if before:  # no copy outlives the load
        left = {p for p in set(os.listdir("/proc")) - before if p.isdigit()}
        assert not [p for p in left if alive(int(p)) and _parent(p) == os.getpid()]


def _parent(pid: str) -> int:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return int(handle.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1
