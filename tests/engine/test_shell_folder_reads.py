"""A folder a shell line names may be read whole (``grep -r x src``, ``tar c src``).

Which programs read a folder's files is the program's to say, so a folder argument is taken
as read whole unless only programs that list folders name it (``ls``, ``du``, ``tree``,
``stat``, ``find`` without ``-exec``): where a read path rule closes (denies or asks for) a
file below it, the line asks and names the file and the rule, as the agents' own searches are
decided on the scope they read; a folder too large to walk asks too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolpolicy import Decision, load
from toolpolicy.engine.folder_walk import MAX_FOLDER_ENTRIES
from toolpolicy.engine.selection import ToolPolicy

_POLICY = {
    "apiVersion": "toolpolicy/v1",
    "kind": "Policy",
    "name": "folders",
    "extends": "P03",
    "rules": [
        {
            "name": "tools-are-fine",
            "behavior": "allow",
            "reason": "These tools are fine",
            "match": {
                "tools": ["shell"],
                "commands": ["grep", "ls", "tar", "find", "du", "tree"],
            },
        },
        {
            "name": "no-secret",
            "behavior": "deny",
            "reason": "The secret stays secret",
            "match": {"tools": ["read_file"], "paths": ["**/secret.txt"]},
        },
    ],
}


@pytest.fixture
def policy(tmp_path: Path) -> ToolPolicy:
    workspace = tmp_path / "ws"
    (workspace / "src").mkdir(parents=True)
    (workspace / "src" / "a.py").write_text("x = 1\n")
    (workspace / "vault" / "inner").mkdir(parents=True)
    (workspace / "vault" / "inner" / "secret.txt").write_text("SECRET\n")
    (workspace / "alias").symlink_to("vault", target_is_directory=True)
    path = tmp_path / "policy.yaml"
    path.write_text(json.dumps(_POLICY))
    return load("P03", policies=[str(path)], workspace=str(workspace))


def _said(decision: Decision) -> tuple[str, str, str]:
    return decision.behavior.label, decision.source, decision.reason


def _asked(shown: str, below: str) -> tuple[str, str, str]:
    return (
        "ask",
        "search-scope",
        f"The line reads {shown}, which holds {below}, closed by rule no-secret: "
        "The secret stays secret",
    )


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("grep -r SECRET .", _asked(".", "vault/inner/secret.txt")),
        ("grep -r SECRET vault", _asked("vault", "inner/secret.txt")),
        ("tar czf /dev/null vault/inner", _asked("vault/inner", "secret.txt")),
        ("grep -r SECRET alias", _asked("alias", "inner/secret.txt")),  # through a link
        ("grep -rSECRET x --include=vault", _asked("vault", "inner/secret.txt")),
        # a listing beside a reading of the same folder: the folder is read
        ("ls vault ; grep -r SECRET vault", _asked("vault", "inner/secret.txt")),
    ],
)
def test_a_folder_holding_a_closed_file_asks_and_names_it(
    policy: ToolPolicy, line: str, expected: tuple[str, str, str]
) -> None:
    assert _said(policy.check("shell", {"command": line})) == expected


def test_the_file_itself_keeps_its_own_rule(policy: ToolPolicy) -> None:
    decision = policy.check("shell", {"command": "grep SECRET vault/inner/secret.txt"})
    assert _said(decision) == ("deny", "no-secret", "The secret stays secret")


@pytest.mark.parametrize(
    "line",
    [
        "grep -r x src",
        "grep -r x src/a.py",
        "ls",
        # listings name what a folder holds, never read it
        "ls -la vault",
        "ls -R .",
        "find . -name '*.txt'",
        "du -sh vault",
        "tree alias",
    ],
)
def test_a_folder_holding_nothing_closed_or_only_listed_stays_allowed(
    policy: ToolPolicy, line: str
) -> None:
    decision = policy.check("shell", {"command": line})
    assert (decision.behavior.label, decision.source) == ("allow", "tools-are-fine")


def test_a_folder_too_large_to_walk_asks(policy: ToolPolicy) -> None:
    big = Path(policy.workspace) / "big"
    big.mkdir()
    for number in range(MAX_FOLDER_ENTRIES + 1):
        (big / f"f{number}").touch()
    assert _said(policy.check("shell", {"command": "grep -r x big"})) == (
        "ask",
        "search-scope",
        f"The line reads big, which holds more than {MAX_FOLDER_ENTRIES} entries to check "
        "against the path rules",
    )


def test_a_policy_without_read_path_rules_walks_nothing(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    (workspace / "vault").mkdir(parents=True)
    (workspace / "vault" / "secret.txt").write_text("SECRET\n")
    rules = {**_POLICY, "rules": _POLICY["rules"][:1]}  # type: ignore[index]
    path = tmp_path / "policy.yaml"
    path.write_text(json.dumps(rules))
    policy = load("P03", policies=[str(path)], workspace=str(workspace))
    decision = policy.check("shell", {"command": "grep -r SECRET vault"})
    assert (decision.behavior.label, decision.source) == ("allow", "tools-are-fine")


def test_find_with_an_action_that_reads_files_is_no_listing() -> None:
    from toolpolicy.compile.program_table import lists_only

    assert lists_only(("find", ".", "-name", "*.py"))
    assert lists_only(("/usr/bin/ls", "-la"))
    for action in ("-exec", "-execdir", "-ok", "-okdir"):
        assert not lists_only(("find", ".", action, "cat", ";"))
    assert not lists_only(("grep", "-r", "x", "."))


def test_a_link_below_a_folder_is_followed(policy: ToolPolicy, tmp_path: Path) -> None:
    """``grep -R`` and ``tar -h`` follow links below the folder they read: a link out of the
    workspace asks, a link to a folder holding a closed file asks naming it."""
    src = Path(policy.workspace) / "src"
    (src / "out").symlink_to(tmp_path, target_is_directory=True)
    assert _said(policy.check("shell", {"command": "grep -R x src"})) == (
        "ask",
        "search-scope",
        "The line reads src, which holds out, a link out of the workspace",
    )
    (src / "out").unlink()
    (src / "keys").symlink_to("../vault", target_is_directory=True)
    assert _said(policy.check("shell", {"command": "grep -R x src"})) == _asked(
        "src", "keys/inner/secret.txt"
    )
