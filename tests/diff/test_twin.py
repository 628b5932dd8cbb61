"""A large diff decides a share of its calls, on both sides, in a forked twin: the report
must be the one the diff gives in one process, the twin must never outlive the diff nor
write anything, and a twin that fails or dies must cost nothing but time (its work is done
here)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from processes import alive
from toolpolicy.diff import generate_probes, render_json
from toolpolicy.diff.compare import Ahead, compare
from toolpolicy.diff.run import TWIN_RULES
from toolpolicy.diff.scratch import scratch_workspace
from toolpolicy.diff.sides import load_sides, parse_side
from toolpolicy.diff.twin import SHARE_CHUNK, Here, Pending, Sides, Twin, Work, second_hand

from .test_completeness import _write

P = TypeVar("P")
R = TypeVar("R")

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")

_BEHAVIORS = ("deny", "ask", "allow")


def _rules(count: int, flip: bool) -> list[dict[str, object]]:
    """Path and command rules over many programs and folders (batches of commands large
    enough to go to the twin); ``flip`` turns every 7th rule's behavior."""
    out: list[dict[str, object]] = []
    for i in range(count):
        behavior = _BEHAVIORS[i % 3]
        if flip and i % 7 == 0:
            behavior = "allow" if behavior == "deny" else "deny"
        if i % 4 == 3:
            out.append({"behavior": behavior, "commands": [f"tool{i} run", f"tool{i} * --force"]})
        else:
            out.append(
                {
                    "behavior": behavior,
                    "tools": ["write_file", "read_file"],
                    "paths": [f"area{i}/**/*.c", f"docs{i}/*.md"],
                }
            )
    return out


def _pid_of(hand: Here) -> int | None:
    return hand._pid if isinstance(hand, Twin) else None


def _child_pid(sides: Sides, payload: int) -> int:
    return os.getpid() + payload


def _fails_in_a_child(sides: Sides, parent: int) -> str:
    if os.getpid() != parent:
        raise RuntimeError("only in the twin")
    return "done here"


@contextlib.contextmanager
def _p03_twin() -> Iterator[tuple[Here, int]]:
    """A twin forked for P03 in a scratch workspace, and its pid."""
    with scratch_workspace() as ws:
        sides = load_sides(parse_side("P03"), parse_side("P03"), ws.root)
        with second_hand(sides, fork=True) as hand:
            pid = _pid_of(hand)
            assert pid is not None
            yield hand, pid


def _report(left: str, right: str, root: str, fork: bool) -> tuple[str, int | None]:
    sides = load_sides(parse_side(left), parse_side(right), root)
    with second_hand(sides, fork=fork) as hand:
        pid = _pid_of(hand)
        ahead = Ahead(hand)  # as run_diff does: the file tools' probes decided meanwhile
        probes = generate_probes(*sides, escape_link="link", hand=hand, early=ahead.start)
        report = compare(*sides, probes, hand=hand, ahead=ahead)
    return render_json(report), pid


class _Partly(Here):
    """Work ahead of which only the first ``done`` chunks were done when asked for (a
    shared batch's too: this process takes back the rest); it counts as beside this
    process (``parallel``), so the diff hands work ahead over."""

    parallel = True

    def __init__(self, sides: Sides, done: int) -> None:
        super().__init__(sides)
        self.done = done
        self.chunks: list[tuple[str, int]] = []  # each work's name, the chunks handed over
        self.shared: list[str] = []  # each shared batch's work

    def kept(self, count: int) -> int:
        return count // 2

    def ahead(
        self, work: Work[P, R], chunks: Sequence[P], *, first: bool = False
    ) -> Pending[list[R]]:
        if first:
            self.shared.append(work.__name__)
        else:
            self.chunks.append((work.__name__, len(chunks)))
        return Pending(lambda: [work(self.sides, chunk) for chunk in chunks[: self.done]])


def test_the_report_is_the_same_however_much_was_decided_ahead(tmp_path: Path) -> None:
    left = _write(tmp_path / "left.yaml", _rules(80, flip=False))
    right = _write(tmp_path / "right.yaml", _rules(80, flip=True))
    reports = []
    with scratch_workspace() as ws:
        sides = load_sides(parse_side(left), parse_side(right), ws.root)
        whole = render_json(compare(*sides, generate_probes(*sides, escape_link="link")))
        for done in (0, 1, 2, 10**6):
            hand = _Partly(sides, done)
            ahead = Ahead(hand)
            probes = generate_probes(*sides, escape_link="link", hand=hand, early=ahead.start)
            reports.append(render_json(compare(*sides, probes, hand=hand, ahead=ahead)))
            # the command search's first batch, the file tools' probes, the background
            # lines of the parts known then, the command lines' probes; in chunks
            names = ["_each_signed", "_both", "_each_signed", "_both"]
            assert [name for name, _ in hand.chunks] == names, hand.chunks
            assert min(count for _, count in hand.chunks) >= 2, hand.chunks
            assert set(hand.shared) == {"_each_signed", "_both"}, hand.shared
    assert reports == [whole] * 4


def test_the_twin_gives_the_report_one_process_gives(tmp_path: Path) -> None:
    left = _write(tmp_path / "left.yaml", _rules(120, flip=False))
    right = _write(tmp_path / "right.yaml", _rules(120, flip=True))
    with scratch_workspace() as ws:
        alone, no_pid = _report(left, right, ws.root, fork=False)
        twinned, pid = _report(left, right, ws.root, fork=True)
    assert no_pid is None
    assert pid is not None and pid != os.getpid()
    assert not alive(pid), "the twin outlived the diff"
    assert twinned == alone
    document = json.loads(twinned)
    assert document["verdict"] == "incomparable"
    assert len(document["differences"]) > 10


def test_work_runs_in_the_twin_and_the_twin_ends_when_closed(tmp_path: Path) -> None:
    with _p03_twin() as (hand, pid):
        pending = hand.send(_child_pid, 0)
        assert pending.result() == pid
        assert pending.result() == pid  # asked again: the same answer, nothing read twice
        assert hand.send(_child_pid, 1).result() == pid + 1  # the same twin serves on
        hand.close()
        assert not alive(pid)
        assert hand.send(_child_pid, 0).result() == os.getpid()  # closed: done here


def test_work_the_twin_fails_is_done_here_and_the_twin_ends(tmp_path: Path) -> None:
    with _p03_twin() as (hand, pid):
        assert hand.send(_fails_in_a_child, os.getpid()).result() == "done here"
        assert _pid_of(hand) is None
        assert not alive(pid)
        assert hand.send(_child_pid, 0).result() == os.getpid()


def _slow_square(sides: Sides, payload: int) -> int:
    time.sleep(0.05)
    return payload * payload


def _fails_on_three(sides: Sides, payload: int) -> int:
    if payload == 3:
        raise RuntimeError("three")
    return payload


def test_work_ahead_yields_to_work_sent_later_and_stops_when_collected(tmp_path: Path) -> None:
    with _p03_twin() as (hand, pid):
        start = time.perf_counter()
        pending = hand.ahead(_slow_square, list(range(40)))  # 2 s of work ahead
        assert hand.ahead(_slow_square, [1]).result() == []  # behind the first: not begun
        assert hand.send(_child_pid, 0).result() == pid  # answered between two chunks
        assert time.perf_counter() - start < 1.0
        time.sleep(0.3)
        done = pending.result()
        assert 1 <= len(done) < 40
        assert done == [i * i for i in range(len(done))]  # the first chunks, in order
        assert time.perf_counter() - start < 1.5  # collecting stopped the work ahead
        assert hand.send(_child_pid, 1).result() == pid + 1  # the twin serves on


def test_works_ahead_are_done_one_after_another_and_collected_each_alone(
    tmp_path: Path,
) -> None:
    with _p03_twin() as (hand, pid):
        first = hand.ahead(_slow_square, [1, 2, 3])
        second = hand.ahead(_child_pid, [10, 20])
        third = hand.ahead(_slow_square, list(range(100)))  # 5 s: never all of it
        time.sleep(0.4)
        assert second.result() == [pid + 10, pid + 20]  # after the first, in the twin
        assert first.result() == [1, 4, 9]
        start = time.perf_counter()
        done = third.result()
        assert done == [i * i for i in range(len(done))] and 1 <= len(done) < 100
        assert time.perf_counter() - start < 0.5  # collecting it stopped it
        assert hand.send(_child_pid, 1).result() == pid + 1  # the twin serves on


def _squares_slow_in_the_twin(sides: Sides, items: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Each item's square and the process that made it; the twin (not the process named
    in the item) takes 20 ms an item."""
    out: list[tuple[int, int]] = []
    for parent, value in items:
        if os.getpid() != parent:
            time.sleep(0.02)
        out.append((os.getpid(), value * value))
    return out


def test_a_shared_batch_is_taken_back_from_a_slow_twin(tmp_path: Path) -> None:
    with _p03_twin() as (hand, pid):
        here = os.getpid()
        items = [(here, i) for i in range(200)]
        found = hand.share(_squares_slow_in_the_twin, items)
        assert [square for _, square in found] == [i * i for i in range(200)]
        kept = hand.kept(200)
        by = [who for who, _ in found]
        twin = by[kept:].count(pid)
        # this process's share, then the twin's whole chunks done when asked back (its 90
        # items take it 1.8 s: never all), then the rest, taken back and done here
        assert twin % SHARE_CHUNK == 0 and twin < 200 - kept
        assert by == [here] * kept + [pid] * twin + [here] * (200 - kept - twin)
        assert hand.send(_child_pid, 1).result() == pid + 1  # the twin serves on


def test_a_shared_batch_is_decided_here_without_a_twin(tmp_path: Path) -> None:
    with _p03_twin() as (hand, pid):
        os.kill(pid, signal.SIGKILL)
        here = os.getpid()
        found = hand.share(_squares_slow_in_the_twin, [(here, i) for i in range(100)])
        assert found == [(here, i * i) for i in range(100)]
        assert _pid_of(hand) is None
    with scratch_workspace() as ws:
        alone = Here(load_sides(parse_side("P03"), parse_side("P03"), ws.root))
        assert alone.share(_squares_slow_in_the_twin, [(here, 3)]) == [(here, 9)]


class _Scripted(Here):
    """A twin that, each time a shared batch is handed over, does the number of chunks
    the script says next (of those it was given), and keeps the given share of each batch."""

    parallel = True

    def __init__(self, sides: Sides, keeps: float, script: list[int]) -> None:
        super().__init__(sides)
        self.keeps = keeps
        self.script = script
        self.rounds = 0

    def kept(self, count: int) -> int:
        return int(count * self.keeps)

    def ahead(
        self, work: Work[P, R], chunks: Sequence[P], *, first: bool = False
    ) -> Pending[list[R]]:
        done = self.script[self.rounds % len(self.script)]
        self.rounds += 1
        return Pending(lambda: [work(self.sides, chunk) for chunk in chunks[:done]])


def _tagged(sides: Sides, items: list[int]) -> list[tuple[int, int]]:
    return [(item, item * item) for item in items]


@settings(max_examples=80, deadline=None)
@given(
    count=st.integers(0, 400),
    keeps=st.sampled_from((0.0, 0.3, 0.55, 0.9)),
    script=st.lists(st.integers(0, 20), min_size=1, max_size=5),
)
def test_a_shared_batch_gives_each_item_once_in_order_whatever_the_twin_does(
    count: int, keeps: float, script: list[int]
) -> None:
    hand = _Scripted((None, None), keeps, script)  # type: ignore[arg-type]
    assert hand.share(_tagged, list(range(count))) == [(i, i * i) for i in range(count)]
    assert hand.rounds <= max(1, count)  # every round but the last takes a chunk or more


def test_work_ahead_stops_at_a_failing_chunk(tmp_path: Path) -> None:
    with _p03_twin() as (hand, pid):
        pending = hand.ahead(_fails_on_three, list(range(10)))
        time.sleep(0.2)
        assert pending.result() == [0, 1, 2]  # what came before it; the rest is the caller's
        assert _pid_of(hand) == pid and alive(pid)


def test_work_ahead_of_a_dead_twin_is_none(tmp_path: Path) -> None:
    with _p03_twin() as (hand, pid):
        pending = hand.ahead(_slow_square, list(range(40)))
        os.kill(pid, signal.SIGKILL)
        assert pending.result() == []
        assert _pid_of(hand) is None
        assert hand.ahead(_slow_square, [2]).result() == []  # here, nothing is done ahead


def test_a_twin_killed_midway_costs_only_time(tmp_path: Path) -> None:
    with _p03_twin() as (hand, pid):
        os.kill(pid, signal.SIGKILL)
        assert hand.send(_child_pid, 0).result() == os.getpid()
        assert _pid_of(hand) is None


def test_no_twin_beside_a_second_thread(tmp_path: Path) -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        with scratch_workspace() as ws:
            sides = load_sides(parse_side("P03"), parse_side("P03"), ws.root)
            with second_hand(sides, fork=True) as hand:
                assert not isinstance(hand, Twin)
                assert hand.send(_child_pid, 0).result() == os.getpid()
    finally:
        stop.set()
        thread.join()


def test_the_cli_prints_one_report_with_a_twin(tmp_path: Path) -> None:
    count = TWIN_RULES // 2 + 1  # both sides together reach the twin's threshold
    left = _write(tmp_path / "left.yaml", _rules(count, flip=False))
    right = _write(tmp_path / "right.yaml", _rules(count, flip=True))
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "toolpolicy", "diff", left, right, "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr == ""
    document = json.loads(done.stdout)  # one document: the twin wrote nothing
    assert document["verdict"] == "incomparable"
    assert list(scratch.iterdir()) == []  # the scratch workspace is gone, twin or not
