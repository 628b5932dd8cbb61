"""The README's Python example runs as written."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_api_example() -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Python API") :]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None
    return match.group(1)


def test_the_python_api_example_runs_and_fails_closed_without_a_terminal(tmp_path: Path) -> None:
    (tmp_path / "team.yaml").write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: team\nextends: P03\nrules: []\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", _python_api_example()],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    # The comment under the check() print is what it prints, verbatim.
    example = _python_api_example().splitlines()
    printed = next(n for n, line in enumerate(example) if line.startswith("print(policy.check"))
    shown = example[printed + 1]
    assert shown == "# " + done.stdout.splitlines()[0]
    assert done.stdout.splitlines() == [
        "Decision(deny, 'Writing outside the workspace is forbidden', source='workspace-boundary')",
        "Error [permission_denied]: No approver was available to allow this tool call",
    ]
    assert not (tmp_path / "note.txt").exists()
    assert done.stderr == (
        "[Permission] write_file: deny (terminal-approval) - "
        "No approver was available to allow this tool call\n"
    )
    assert (tmp_path / "audit.jsonl").read_text().count("\n") == 1
