"""A reader that stops early ends the CLI quietly, as it ends cat or grep."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

COMMAND = "import sys; from toolpolicy.cli.main import main; sys.exit(main())"


@pytest.mark.parametrize(
    "args",
    [
        ["check", "write_file", '{"path": "a.txt", "content": "x"}'],
        ["schema"],
        ["lint", "--builtin"],
    ],
    ids=["check", "schema", "lint"],
)
def test_a_closed_stdout_ends_the_command_by_sigpipe_without_a_message(args: list[str]) -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", COMMAND, *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    # Nobody reads: the first write meets a pipe with no reader.
    process.stdout.close()
    err = process.stderr.read()
    process.stderr.close()
    assert process.wait(timeout=60) == -signal.SIGPIPE
    assert err == b""


def test_head_reads_the_first_line_and_the_pipeline_is_quiet() -> None:
    done = subprocess.run(
        ["sh", "-c", f"{sys.executable} -c '{COMMAND}' schema | head -1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout == "{\n"
    assert done.stderr == ""
