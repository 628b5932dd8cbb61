"""Programs that read the folder they run in without naming it (``reads_working_folder``).

The kind of miss: a line that reads files it never names. ``grep -r SECRET`` searches the
working folder ("if no file operand is given, grep searches the working directory"), so no
argument reached the folder check, and an allow on ``grep`` let it read a file a read rule
closes. The property, on real GNU grep: whenever grep shows a closed file's content, the
line was not allowed; and a search that names its folder is decided on that folder alone.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from toolpolicy import Behavior, ToolPolicy, load
from toolpolicy.compile.program_table import reads_working_folder

GREP = shutil.which("grep")
POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
rules:
  - name: searching-is-fine
    behavior: allow
    reason: Searching is fine
    match: {commands: [grep, egrep, rg, git]}
  - name: no-secret
    behavior: deny
    reason: The secret stays secret
    match: {tools: [read_file], paths: [secret.txt]}
"""
OPTIONS = st.sampled_from(
    ["-r", "-R", "-n", "-i", "-l", "-c", "-rn", "-rin", "-E", "-F", "-w", "-H", "-s",
     "-m 5", "-m5", "-A 1", "-C1", "--include=*.txt", "--include *.txt", "--recursive",
     "-d recurse", "--directories=recurse", "-e SECRET", "--regexp=SECRET", "--color=never",
     "--exclude=*.py", "-a"]
)  # fmt: skip
OPERANDS = st.sampled_from(["", "src", ".", "src/a.txt", "-- src", "src ."])


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ToolPolicy]:
    ws = tmp_path_factory.mktemp("folder") / "ws"
    (ws / "src").mkdir(parents=True)
    (ws / "secret.txt").write_text("SECRET-IN\n")
    (ws / "src" / "a.txt").write_text("nothing SECRET-FREE\n")
    (ws / "policy.yaml").write_text(POLICY)
    return ws, load("P03", policies=[ws / "policy.yaml"], workspace=ws)


@pytest.mark.skipif(GREP is None, reason="needs GNU grep")
@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(options=st.lists(OPTIONS, max_size=3), operands=OPERANDS)
@example(options=["-r"], operands="")
@example(options=["-rn", "-m 5"], operands="")
@example(options=["-r", "--include *.txt"], operands="")
def test_a_search_that_shows_a_closed_file_is_never_allowed(
    workspace: tuple[Path, ToolPolicy], options: list[str], operands: str
) -> None:
    ws, policy = workspace
    pattern = "" if any(o.startswith(("-e", "--regexp")) for o in options) else " SECRET"
    line = f"grep {' '.join(options)}{pattern} {operands}".strip()
    shown = subprocess.run(
        ["bash", "-c", line], cwd=ws, capture_output=True, text=True, timeout=10, check=False
    )
    decided = policy.check("shell", {"command": line})
    if "SECRET-IN" in shown.stdout:
        assert decided.behavior >= Behavior.ASK, line


def test_a_search_that_names_its_folder_is_decided_on_it_alone(
    workspace: tuple[Path, ToolPolicy],
) -> None:
    _, policy = workspace
    for line in ("grep -rn SECRET src", "grep -r -m 5 -e SECRET src", "grep SECRET src/a.txt"):
        decided = policy.check("shell", {"command": line})
        assert decided.behavior is Behavior.ALLOW, line
        assert decided.reason == "Searching is fine"
    asked = policy.check("shell", {"command": "grep -r SECRET"})
    assert asked.reason == (
        "The line reads ., which holds secret.txt, closed by rule no-secret: "
        "The secret stays secret"
    )


@pytest.mark.parametrize(
    ("line", "reads"),
    [
        ("grep -r SECRET", True),
        ("grep -r SECRET .", False),  # named: the folder check sees it as an argument
        ("grep -rE 'a|b' src", False),
        ("grep -r -e x", True),
        ("grep -d recurse x", True),
        ("grep -r -m 5 x", True),
        ("grep -r --include *.py x", True),
        ("grep -r --include=*.py x src", False),
        ("grep -r -- x", True),
        ("grep -r x -- src", False),
        ("grep x", False),  # not recursive: standard input
        ("rg x", True),
        ("rg -g *.py x src", False),
        ("git grep x", True),
        ("git -C sub grep --no-index x", True),
        ("ls -R", False),
    ],
)
def test_which_commands_read_their_working_folder(line: str, reads: bool) -> None:
    assert reads_working_folder(tuple(line.replace("'", "").split())) is reads
