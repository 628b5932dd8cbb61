"""The console entry point.

Kept free of click at import time so that the hook path can answer before the heavier
dependencies load; everything else goes to the click application in ``app``.
"""

from __future__ import annotations

import os
import sys

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["hook"]:
        from ..hooks.entry import EXIT_BLOCK, run_hook

        code = run_hook(args[1:])
        if argv is None:
            # The process ends here: skip the interpreter's teardown (freeing every module
            # and object one by one), a sixth of a warm hook call. The answer is flushed
            # first, and the audit file and cache entry are already closed.
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except OSError:
                code = EXIT_BLOCK  # the agent may not have read the answer: block
            os._exit(code)
        return code
    import signal  # not on the hook's path, which starts for every tool call

    if argv is None and hasattr(signal, "SIGPIPE"):
        # A reader that stops early (``| head -1``) ends the process quietly, as it ends
        # cat or grep: no "Broken pipe" message, no exit 2. Not for the hook, whose every
        # failure must be its own blocking exit code, nor in-process callers.
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if args == ["--version"]:
        from .._version import __version__

        print(f"toolpolicy, version {__version__}")
        return 0
    from .app import run_app

    return run_app(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
