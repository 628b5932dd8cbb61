"""Work done in a forked copy of this process, beside the work this process goes on with.

A fork is a copy of the whole process: the copy holds everything this process has made so
far and needs nothing sent. It is taken only where the platform can fork and this process
runs a single thread (a fork copies the calling thread alone: a lock another thread holds
would stay held in the copy). Results come back pickled over a pipe, each framed by its
length (:func:`send_all`, :func:`received`). The copy never runs exit handlers: it ends
with ``os._exit``.

:class:`Beside` runs one piece of work so: its result, once asked for, is the work's,
whether the copy did it or — where no copy could be made, or it failed or died — this
process did it then. The diff's twin (``diff/twin.py``) is a longer-lived copy that serves
many pieces of work over the same pipes.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
from collections.abc import Callable
from types import TracebackType
from typing import Generic, TypeVar

__all__ = ["Beside", "can_fork", "fork_copy", "received", "send_all"]

R = TypeVar("R")


def can_fork() -> bool:
    """``fork`` exists and this process runs no second thread."""
    if not hasattr(os, "fork"):
        return False
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


def fork_copy(child: Callable[[], None]) -> int:
    """Fork: in the copy, ``child()``, with Ctrl-C left to this process, then the copy ends
    (``os._exit``, 0 when ``child`` returned, 1 when it raised: no exit handlers, this
    process's temporary files are its own). Here, the copy's pid; ``OSError`` when no copy
    can be made."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the copy: never returns
        code = 1
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            child()
            code = 0
        except BaseException:  # this process does the work itself, or goes without
            pass
        finally:
            os._exit(code)
    return pid


def send_all(fd: int, data: bytes) -> None:
    """``data``, framed by its length, written whole to ``fd``."""
    view = memoryview(len(data).to_bytes(8, "big") + data)
    while view:
        view = view[os.write(fd, view) :]


def received(fd: int) -> bytes:
    """The next framed message on ``fd``; ``EOFError`` at the pipe's end."""
    size = int.from_bytes(_exactly(fd, 8), "big")
    return _exactly(fd, size)


def _exactly(fd: int, size: int) -> bytes:
    chunks: list[bytes] = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


class Beside(Generic[R]):
    """``work()`` in a forked copy from the moment this is entered; :meth:`result` waits
    for it (or does it here, see the module docstring). Leaving the ``with`` block ends
    the copy, done or not."""

    def __init__(self, work: Callable[[], R]) -> None:
        self._work = work
        self._pid: int | None = None
        self._inbox = -1

    def __enter__(self) -> Beside[R]:
        if can_fork():
            with contextlib.suppress(OSError):
                self._start()
        return self

    def _start(self) -> None:
        reads, writes = os.pipe()

        def copy() -> None:  # do the work, send it
            os.close(reads)
            send_all(writes, pickle.dumps(self._work(), pickle.HIGHEST_PROTOCOL))

        try:
            pid = fork_copy(copy)
        except OSError:
            os.close(reads)
            os.close(writes)
            raise
        os.close(writes)
        self._pid, self._inbox = pid, reads

    @property
    def forked(self) -> bool:
        """Whether a copy is doing the work (until its result is taken)."""
        return self._pid is not None

    def result(self) -> R:
        """The work's result: the copy's, or this process's where the copy gave none."""
        if self._pid is None:
            return self._work()
        try:
            data = received(self._inbox)
        except (OSError, EOFError):
            data = None
        self._end(kill=False)
        if data is not None:
            with contextlib.suppress(Exception):
                found: R = pickle.loads(data)
                return found
        return self._work()

    def _end(self, *, kill: bool) -> None:
        pid, self._pid = self._pid, None
        if pid is None:
            return
        if kill:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.close(self._inbox)
        with contextlib.suppress(OSError):
            os.waitpid(pid, 0)

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._end(kill=True)
