"""A share of a large diff's work, in a forked twin of this process.

A diff decides the same calls on two sides. Where the platform can fork and this process
runs a single thread, :func:`second_hand` forks a *twin*: a copy of this process, holding
the same two policies, that decides a share of a batch of calls on both sides while this
process decides the rest; its answers come back pickled. On a second core the two shares
run at once. Each process decides a call on both sides one after the other: the second side
finds the line already read (``compile.commands`` keeps the lines it read), which the
first read for both — splitting the work by side instead would read every line twice.

Elsewhere (no ``fork``, several threads, a small diff), or when the twin fails, the same
work runs here: :class:`Here` has the same interface and the report is the same either way
(``tests/diff/test_twin.py`` checks both). Work is a module-level function of the two
policies and a picklable payload, so the twin needs nothing it does not already hold.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
from collections.abc import Callable
from types import TracebackType
from typing import BinaryIO, Generic, TypeVar

from ..engine.selection import ToolPolicy

__all__ = ["Here", "Pending", "Sides", "Twin", "second_hand"]

P = TypeVar("P")
R = TypeVar("R")
Sides = tuple[ToolPolicy, ToolPolicy]
"""The left and the right policy of a diff."""
Work = Callable[[Sides, P], R]


class Pending(Generic[R]):
    """A result on its way: :meth:`result` waits for it (once; later calls give it again)."""

    __slots__ = ("_get", "_got")

    def __init__(self, get: Callable[[], R]) -> None:
        self._get = get
        self._got: list[R] = []

    def result(self) -> R:
        """The work's result (computed here if the twin could not give it)."""
        if not self._got:
            self._got.append(self._get())
        return self._got[0]


class Here:
    """A share of the work, done in this process when asked for."""

    parallel = False
    """Whether the work runs beside this process's (a twin's does)."""

    def __init__(self, sides: Sides) -> None:
        self.sides = sides

    def send(self, work: Work[P, R], payload: P) -> Pending[R]:
        """``work(sides, payload)``, run when its result is asked for."""
        return Pending(lambda: work(self.sides, payload))

    def kept(self, count: int) -> int:
        """How many of a batch of ``count`` items this process keeps (decides itself, on
        both sides) before it sends the rest, so that both shares end together: none
        here (the rest is decided here anyway, when its result is asked for)."""
        return 0

    def close(self) -> None:
        """Nothing to end."""

    def __enter__(self) -> Here:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class Twin(Here):
    """A share of the work, done by a forked copy of this process."""

    parallel = True
    KEPT = 0.55
    """The share of a batch this process keeps: the twin decides an item more slowly (the
    batch and its answer pickled, the pages it touches first copied)."""

    def kept(self, count: int) -> int:
        """See :meth:`Here.kept`: :data:`KEPT` of ``count``."""
        return int(count * self.KEPT)

    def __init__(self, sides: Sides) -> None:
        super().__init__(sides)
        twin_reads, parent_writes = os.pipe()
        parent_reads, twin_writes = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the twin: serve until the pipe closes, never return
            os.close(parent_writes)
            os.close(parent_reads)
            _serve(sides, twin_reads, twin_writes)
        os.close(twin_reads)
        os.close(twin_writes)
        self._pid: int | None = pid
        self._reader = os.fdopen(parent_reads, "rb")
        self._writer = os.fdopen(parent_writes, "wb")
        self._busy = False  # one piece of work at a time: two could fill both pipes

    def send(self, work: Work[P, R], payload: P) -> Pending[R]:
        """``work(sides, payload)`` in the twin; here if the twin is gone."""
        if self._pid is None or self._busy:
            return super().send(work, payload)
        try:
            self._writer.write(_framed(pickle.dumps((work, payload), pickle.HIGHEST_PROTOCOL)))
            self._writer.flush()
        except OSError:
            self.close()
            return super().send(work, payload)
        self._busy = True
        return Pending(lambda: self._answer(work, payload))

    def _answer(self, work: Work[P, R], payload: P) -> R:
        try:
            ok, value = pickle.loads(_unframed(self._reader))
        except (OSError, EOFError, pickle.UnpicklingError):
            ok, value = False, None
        self._busy = False
        if not ok:  # the twin failed: the work is done here, and nothing more goes there
            self.close()
            return work(self.sides, payload)
        result: R = value
        return result

    def close(self) -> None:
        """End the twin (it exits when its pipe closes) and wait for it."""
        if self._pid is None:
            return
        pid, self._pid = self._pid, None
        if self._busy:  # left mid-work (an error here): its answer is not wanted
            os.kill(pid, signal.SIGKILL)
        for stream in (self._writer, self._reader):
            with contextlib.suppress(OSError):
                stream.close()
        os.waitpid(pid, 0)


def second_hand(sides: Sides, *, fork: bool) -> Here:
    """A :class:`Twin` for ``sides`` when ``fork`` is asked and possible, else :class:`Here`."""
    if fork and _can_fork():
        try:
            return Twin(sides)
        except OSError:
            pass
    return Here(sides)


def _can_fork() -> bool:
    """``fork`` exists and this process runs no second thread (a fork copies only the
    calling thread: a lock another thread holds would stay held in the twin)."""
    if not hasattr(os, "fork"):
        return False
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


def _serve(sides: Sides, inbox: int, outbox: int) -> None:
    """The twin's loop: read work, do it, answer; exit when the pipe closes."""
    code = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
        with os.fdopen(inbox, "rb") as reader, os.fdopen(outbox, "wb") as writer:
            while True:
                try:
                    work, payload = pickle.loads(_unframed(reader))
                except EOFError:
                    break
                try:
                    answer = pickle.dumps((True, work(sides, payload)), pickle.HIGHEST_PROTOCOL)
                except Exception:  # the parent does the work itself
                    answer = pickle.dumps((False, None))
                writer.write(_framed(answer))
                writer.flush()
    except BaseException:
        code = 1
    finally:
        os._exit(code)  # no exit handlers: the parent's temporary files are the parent's


def _framed(data: bytes) -> bytes:
    return len(data).to_bytes(8, "big") + data


def _unframed(reader: BinaryIO) -> bytes:
    header = reader.read(8)
    if len(header) < 8:
        raise EOFError
    size = int.from_bytes(header, "big")
    data = reader.read(size)
    if len(data) < size:
        raise EOFError
    return data
