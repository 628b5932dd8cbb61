"""A share of a large diff's work, in a forked twin of this process.

A diff decides the same calls on two sides. Where the platform can fork and this process
runs a single thread, :func:`second_hand` forks a *twin*: a copy of this process, holding
the same two policies, that decides a share of a batch of calls on both sides while this
process decides the rest; its answers come back pickled. On a second core the two shares
run at once. Each process decides a call on both sides one after the other: the second side
finds the line already read (``compile.commands`` keeps the lines it read), which the
first read for both — splitting the work by side instead would read every line twice.

Work sent *ahead* (:meth:`Here.ahead`) is done by the twin, a chunk at a time, between the
pieces of work sent meanwhile, which go first, and after the work ahead sent before it: it
fills the time the twin would wait while this process searches alone. Asked for, it stops
and gives the chunks done so far; the rest is for the caller to share out again. A batch
both decide now (:meth:`Here.share`) is work ahead sent first: this process decides its
share, then takes back what the twin has not begun, so that a twin whose core the machine
gives to others delays it by one chunk, not by the twin's whole share.

Elsewhere (no ``fork``, several threads, a small diff), or when the twin fails, the same
work runs here: :class:`Here` has the same interface and the report is the same either way
(``tests/diff/test_twin.py`` checks both). Work is a module-level function of the two
policies and a picklable payload, so the twin needs nothing it does not already hold.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Generic, TypeVar

from ..core.forked import can_fork, fork_copy, received, send_all
from ..engine.selection import ToolPolicy

__all__ = ["Here", "Pending", "Sides", "Twin", "second_hand"]

P = TypeVar("P")
R = TypeVar("R")
T = TypeVar("T")
Sides = tuple[ToolPolicy, ToolPolicy]
"""The left and the right policy of a diff."""
Work = Callable[[Sides, P], R]

SHARE_CHUNK = 32
"""Items of a shared batch (:meth:`Here.share`) the twin decides between two looks for a
request to give back what it has not begun: the longest this process may wait for it."""


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

    def ahead(
        self, work: Work[P, R], chunks: Sequence[P], *, first: bool = False
    ) -> Pending[list[R]]:
        """``work(sides, chunk)`` of the first chunks, in order, that were done by the time
        the result is asked for (in a twin: meanwhile, after any work sent later, and after
        the work ahead sent before it unless ``first``); here, none: the caller decides
        every chunk when it shares out the rest."""
        return Pending(list)

    def share(self, work: Work[list[T], list[R]], items: Sequence[T]) -> list[R]:
        """``work`` of every item, one result each in order, decided by both processes: the
        items after this process's share (:meth:`kept`) go to the twin, a chunk at a time
        before any other work ahead; this process decides its share, then takes back the
        chunks the twin has not begun. Those are shared again while the twin keeps up (it
        did some, and at least half as many as this process), else decided here: a twin
        slowed down (a busy machine gives its core to others) holds this process up for a
        chunk at most, never for its whole share. Here: every item, here."""
        found: list[R] = []
        rest = list(items)
        while rest:
            kept = self.kept(len(rest))
            theirs = rest[kept:]
            chunks = [theirs[i : i + SHARE_CHUNK] for i in range(0, len(theirs), SHARE_CHUNK)]
            pending = self.ahead(work, chunks, first=True)
            found += work(self.sides, rest[:kept])
            done = [result for chunk in pending.result() for result in chunk]
            found += done
            rest = theirs[len(done) :]
            if not done or len(rest) <= SHARE_CHUNK or 2 * len(done) < kept:
                return found + (work(self.sides, rest) if rest else [])
        return found

    def kept(self, count: int) -> int:
        """How many of a batch of ``count`` items this process keeps (decides itself, on
        both sides) while the twin decides the rest, so that both shares end together:
        none here (the rest is decided here anyway, once the twin is found to do none)."""
        return 0

    def close(self) -> None:
        """Nothing to end."""

    def __enter__(self) -> Here:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


_WORK, _AHEAD, _COLLECT = "work", "ahead", "collect"
"""What the twin is sent: work to answer now; work ahead (numbered; no answer); the request
for a work ahead's results so far (by its number; which ends it)."""


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

        def copy() -> None:  # the twin: serve until the pipe closes
            os.close(parent_writes)
            os.close(parent_reads)
            _serve(sides, twin_reads, twin_writes)

        try:
            pid = fork_copy(copy)
        except OSError:
            for fd in (twin_reads, parent_writes, parent_reads, twin_writes):
                os.close(fd)
            raise
        os.close(twin_reads)
        os.close(twin_writes)
        self._pid: int | None = pid
        self._inbox = parent_reads
        self._outbox = parent_writes
        # One answer awaited at a time: a second piece of work in flight could fill both
        # pipes. Work ahead awaits no answer until it is collected: the works ahead not
        # collected yet, by number.
        self._busy = False
        self._aheads: set[int] = set()
        self._posted = 0

    def send(self, work: Work[P, R], payload: P) -> Pending[R]:
        """``work(sides, payload)`` in the twin; here if the twin is gone."""
        if self._pid is None or self._busy or not self._post((_WORK, work, payload)):
            return super().send(work, payload)
        self._busy = True
        return Pending(lambda: self._answer(lambda: work(self.sides, payload)))

    def ahead(
        self, work: Work[P, R], chunks: Sequence[P], *, first: bool = False
    ) -> Pending[list[R]]:
        """See :meth:`Here.ahead`: in the twin, one chunk at a time, each once the work
        sent before it is answered, after the work ahead sent before it (before it, if
        ``first``); none if the twin is gone."""
        number = self._posted
        if (
            self._pid is None
            or self._busy
            or not self._post((_AHEAD, work, (number, list(chunks), first)))
        ):
            return super().ahead(work, chunks)
        self._posted += 1
        self._aheads.add(number)
        return Pending(lambda: self._collect(number))

    def _collect(self, number: int) -> list[R]:
        self._aheads.discard(number)
        if self._pid is None or self._busy or not self._post((_COLLECT, None, number)):
            return []
        self._busy = True
        return self._answer(list)

    def _post(self, message: tuple[str, object, object]) -> bool:
        """Send ``message``; ``False`` (and the twin ended) if it cannot be."""
        try:
            send_all(self._outbox, pickle.dumps(message, pickle.HIGHEST_PROTOCOL))
        except OSError:
            self.close()
            return False
        return True

    def _answer(self, here: Callable[[], R]) -> R:
        try:
            ok, value = pickle.loads(received(self._inbox))
        except (OSError, EOFError, pickle.UnpicklingError):
            ok, value = False, None
        self._busy = False
        if not ok:  # the twin failed: the work is done here, and nothing more goes there
            self.close()
            return here()
        result: R = value
        return result

    def close(self) -> None:
        """End the twin (it exits when its pipe closes) and wait for it."""
        if self._pid is None:
            return
        pid, self._pid = self._pid, None
        if self._busy or self._aheads:  # left mid-work (an error here): no answer is wanted
            os.kill(pid, signal.SIGKILL)
        for fd in (self._outbox, self._inbox):
            with contextlib.suppress(OSError):
                os.close(fd)
        os.waitpid(pid, 0)


def second_hand(sides: Sides, *, fork: bool) -> Here:
    """A :class:`Twin` for ``sides`` when ``fork`` is asked and possible, else :class:`Here`."""
    if fork and can_fork():
        try:
            return Twin(sides)
        except OSError:
            pass
    return Here(sides)


class _Ahead:
    """The twin's work ahead: its chunks, done one at a time, and their results."""

    def __init__(self, work: Work[object, object], chunks: list[object]) -> None:
        self.work = work
        self.chunks = chunks
        self.results: list[object] = []
        self.failed = False

    @property
    def left(self) -> bool:
        """Whether a chunk is still to do."""
        return not self.failed and len(self.results) < len(self.chunks)

    def step(self, sides: Sides) -> None:
        """Do the next chunk (a failure stops the work: the parent does the rest)."""
        try:
            self.results.append(self.work(sides, self.chunks[len(self.results)]))
        except Exception:
            self.failed = True


def _serve(sides: Sides, inbox: int, outbox: int) -> None:
    """The twin's loop: read work, do it, answer; between two messages, a chunk of the
    first work ahead with chunks left (the oldest, but for work sent ``first``); return
    when the pipe closes."""
    aheads: dict[int, _Ahead] = {}  # by number, in the order they are done
    while True:
        ahead = next((a for a in aheads.values() if a.left), None)
        if ahead is not None and not _waiting(inbox):
            ahead.step(sides)
            continue
        try:
            kind, work, payload = pickle.loads(received(inbox))
        except EOFError:
            return
        if kind == _AHEAD:
            number, chunks, first = payload
            if first:
                aheads = {number: _Ahead(work, chunks), **aheads}
            else:
                aheads[number] = _Ahead(work, chunks)
            continue
        try:
            if kind == _COLLECT:  # what is done so far; the rest is the parent's
                done = aheads.pop(payload, None)
                value = done.results if done is not None else []
            else:
                value = work(sides, payload)
            answer = pickle.dumps((True, value), pickle.HIGHEST_PROTOCOL)
        except Exception:  # the parent does the work itself
            answer = pickle.dumps((False, None))
        send_all(outbox, answer)


def _waiting(fd: int) -> bool:
    """Whether a message (or the pipe's end) waits on ``fd``."""
    return bool(select.select([fd], [], [], 0)[0])
