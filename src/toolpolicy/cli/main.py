"""The console entry point.

Kept free of click at import time so that the hook path can answer before the heavier
dependencies load; everything else goes to the click application in ``app``.
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--version"]:
        from .. import __version__

        print(f"toolpolicy, version {__version__}")
        return 0
    if args[:1] == ["hook"]:
        from ..hooks.entry import run_hook

        return run_hook(args[1:])
    from .app import run_app

    return run_app(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
