"""The console entry point.

Kept free of click at import time so that the hook, and ``check`` in its plain spellings
(``cli.plain_check``), answer before the heavier dependencies load; everything else goes to
the click application in ``app``.
"""

from __future__ import annotations

import gc
import os
import sys

from ..core.lean_typing import TYPE_CHECKING

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["hook"]:
        _one_answer(argv)
        from ..hooks.entry import run_hook

        return _ended(run_hook(args[1:]), argv)
    if TYPE_CHECKING:
        import signal as _signal
    else:  # the C module under ``signal``, loaded with the interpreter: ``signal`` itself
        import _signal  # builds enums for every signal (0.7 ms of a ``check``)

    if argv is None and hasattr(_signal, "SIGPIPE"):
        # A reader that stops early (``| head -1``) ends the process quietly, as it ends
        # cat or grep: no "Broken pipe" message, no exit 2. Not for the hook, whose every
        # failure must be its own blocking exit code, nor in-process callers.
        _signal.signal(_signal.SIGPIPE, _signal.SIG_DFL)
    if args[:1] == ["check"]:
        _one_answer(argv)
        from .plain_check import run_plain_check

        checked = run_plain_check(args[1:])  # None: click's command parses and reports
        if checked is not None:
            return _ended(checked, argv)
    if args == ["--version"]:
        from .._version import __version__

        print(f"toolpolicy, version {__version__}")
        return 0
    if argv is None:
        gc.enable()  # any other command, and a check left to click's, collects as usual
    from .app import run_app

    if args[:1] == ["diff"]:  # two large policies and their regions: no teardown either
        return _ended(run_app(args), argv)
    return run_app(args)


def _one_answer(argv: list[str] | None) -> None:
    """A process started as the console script (``argv`` is None) to give one answer (the
    hook, a plain ``check``) runs without cyclic garbage collection: the collector would
    only scan again and again the objects that importing the decision path creates (about
    0.8 ms of a warm hook call), and the few cycles a call makes end with the process
    (``_ended``). A cold call's policy load pauses collection anyway (``gc_paused``). The
    installed command (``scripts/toolpolicy_command.py``) turns collection off before it
    imports this module; ``python -m toolpolicy`` turns it off here."""
    if argv is None:
        gc.disable()


def _ended(code: int, argv: list[str] | None) -> int:
    """``code``; for a process started as the console script (``argv`` is None), the process
    ends here, skipping the interpreter's teardown (freeing every module and object one by
    one: a sixth of a warm hook call, 30-50 ms after a diff of two 1,000-rule policies). The
    output is flushed first; the hook's audit file, the cache entries, the diff's scratch
    workspace and its twin process are already closed. Output that cannot be written exits
    2: the hook's agent may not have read its answer, which must then block."""
    if argv is not None:
        return code
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        code = 2
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
