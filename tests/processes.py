"""Looking at real processes from a test: whether a pid is still there."""

from __future__ import annotations

import os


def alive(pid: int) -> bool:
    """Whether the kernel still knows ``pid``: running, or ended and not waited for yet (a
    zombie counts: whoever forked it has not reaped it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
