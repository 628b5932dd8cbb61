#!/usr/bin/env python3
"""The ``toolpolicy`` command, as the wheel installs it (``python -m toolpolicy`` is the same).

Written by hand instead of generated from an entry point: pip's generated script imports
``re`` (to tidy ``sys.argv[0]`` on Windows), and loading ``re`` is a tenth of a hook call
(issue 14). Collection is off while the command's modules load: the hook and a plain
``check`` never collect, and ``cli.main`` turns it back on for every other command.
"""

import gc

gc.disable()

import sys  # noqa: E402 - after collection is off

from toolpolicy.cli.main import main  # noqa: E402

sys.exit(main())
