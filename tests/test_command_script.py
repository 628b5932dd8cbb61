"""The ``toolpolicy`` command is the hand-written ``scripts/toolpolicy_command.py``, installed
by the wheel's ``shared-scripts`` (issue 14: pip's generated entry-point script imports ``re``).

The test suite runs from an installed environment (CI installs it editable, as the README
says): the command beside the interpreter must be that script, its ``#!`` line pointed at
the interpreter by the installer. The built wheel is checked in ``test_wheel_install``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolpolicy import __version__

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "toolpolicy_command.py"
INSTALLED = Path(sys.executable).parent / "toolpolicy"


@pytest.mark.skipif(not INSTALLED.exists(), reason="toolpolicy is not installed here")
def test_the_installed_command_is_the_hand_written_script() -> None:
    first, body = INSTALLED.read_text().split("\n", 1)
    assert (
        first == f"#!{sys.executable}"
        or Path(first[2:]).resolve() == Path(sys.executable).resolve()
    )
    assert body == SCRIPT.read_text().split("\n", 1)[1]
    assert os.access(INSTALLED, os.X_OK)


def test_the_script_runs_the_command_and_imports_no_re_to_start() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == f"toolpolicy, version {__version__}\n"
    assert "import re" not in SCRIPT.read_text()
