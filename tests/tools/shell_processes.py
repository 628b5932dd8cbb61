"""Helpers that look at real processes: is a pid alive, is a command line still running."""

from __future__ import annotations

import time
from pathlib import Path

from processes import alive

# Killed processes vanish asynchronously; wait this long before calling one a survivor.
SETTLE_SECONDS = 5.0


def _alive_now(pid: int) -> bool:
    if not alive(pid):
        return False
    try:
        # A zombie waiting for a reaper has already been killed.
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def running_now(marker: str) -> bool:
    """True when a live process whose command line contains ``marker`` exists right now."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\x00", b" ").decode()
        except OSError:
            continue
        if marker in cmdline and _alive_now(int(entry.name)):
            return True
    return False


def pid_survives(pid: int) -> bool:
    """True when ``pid`` is still a live process after the settle time."""
    deadline = time.monotonic() + SETTLE_SECONDS
    while _alive_now(pid):
        if time.monotonic() > deadline:
            return True
        time.sleep(0.05)
    return False


def command_survives(marker: str) -> bool:
    """True when a live process whose command line contains ``marker`` remains."""
    deadline = time.monotonic() + SETTLE_SECONDS
    while running_now(marker):
        if time.monotonic() > deadline:
            return True
        time.sleep(0.05)
    return False
