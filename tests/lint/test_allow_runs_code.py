"""``allow-runs-code``: an allow on a program that runs code from its arguments is flagged,
with the reason; a pinned script, module or subcommand is not."""

from __future__ import annotations

import pytest

from toolpolicy.compile.program_table import runs_code
from toolpolicy.lint import lint_bytes

HEAD = "apiVersion: toolpolicy/v1\nkind: Policy\nname: team\nrules:\n"


def messages(commands: list[str], workspace: str) -> list[str]:
    text = HEAD + (
        "  - name: tools\n    behavior: allow\n    reason: r\n"
        f"    match: {{commands: {commands!r}}}\n"
    )
    findings = lint_bytes(text.encode(), "p.yaml", workspace)
    return [f.message for f in findings if f.code == "allow-runs-code"]


def test_an_allow_on_find_git_c_npx_and_ssh_is_flagged_with_the_reason(workspace: str) -> None:
    assert messages(["find", "git -c", "ssh host", "npx prettier"], workspace) == [
        "allow rule 'tools' covers 'find', which runs other code from its arguments: "
        "find -exec, -execdir, -ok and -okdir run any command",
        "allow rule 'tools' covers 'git -c', which runs other code from its arguments: "
        "git -c/--config-env and subcommands such as rebase --exec or submodule foreach run "
        "any program",
        "allow rule 'tools' covers 'npx prettier', which runs other code from its arguments: "
        "npx downloads and runs any package",
        "allow rule 'tools' covers 'ssh host', which runs other code from its arguments: "
        "ssh runs any command line on the remote machine",
    ]


def test_pinned_commands_are_not_flagged(workspace: str) -> None:
    assert messages(["python -m pytest", "bash scripts/check.sh", "git status"], workspace) == []


def test_a_pattern_that_lets_anything_run_is_left_to_allow_anything(workspace: str) -> None:
    assert messages(["bash -c", "python"], workspace) == []


@pytest.mark.parametrize(
    ("words", "flagged"),
    [
        (("python", "-c"), True),
        (("python3", "-m", "*"), True),
        (("node", "app.js"), False),
        (("/usr/bin/perl", "-e"), True),
        (("git", "rebase"), True),
        (("git", "log"), False),
        (("git", "*"), True),
        (("sudo", "apt-get", "update"), False),
        (("timeout", "5", "bash"), True),
        (("env", "A=1", "python"), True),
        (("xargs", "-0"), True),
        (("pytest",), False),
        (("ls",), False),
    ],
)
def test_the_program_table_says_which_prefixes_run_other_code(
    words: tuple[str, ...], flagged: bool
) -> None:
    assert (runs_code(words) is not None) is flagged
