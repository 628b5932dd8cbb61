"""A file a shell line reads is decided the same however the line spells the read.

Two spellings used to slip past the checks a plain path argument gets, under an allow rule
for the program:

* a ``<`` redirection: ``wc /etc/passwd`` asked "Reading outside the workspace requires
  approval", yet ``wc < /etc/passwd`` (or ``cat < ~/x``, ``wc 0< ../x``) was allowed — only
  arguments were checked for leaving the workspace;
* a path glued to a short option: ``grep -f /etc/shadow x`` asked, yet ``grep -f/etc/shadow
  x`` was allowed, and under a deny on reading ``secret.txt``, ``grep -fsecret.txt x`` was
  allowed — a short option word was never read for a value (``--file=/x`` was). Which letters
  of ``-xvf/tmp/a.tar`` are options and where its value starts is the program's to say, so
  every tail after the first letter is taken as a possible path.

The kind: an allow rule covering a read because of how the read was spelled. The properties:
a read target gets one decision as an argument and as a redirection, and gluing a path to an
option never loosens the decision.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy import Decision, load
from toolpolicy.engine.selection import ToolPolicy

_READ_OUTSIDE = "Reading outside the workspace requires approval"
_ALLOWED = ("wc", "cat", "grep", "sort", "tar")


def _policy(folder: Path, *, read_rule: bool) -> str:
    rules: list[dict[str, object]] = [
        {
            "name": "tools-are-fine",
            "behavior": "allow",
            "reason": "These tools are fine",
            "match": {"tools": ["shell"], "commands": list(_ALLOWED)},
        }
    ]
    if read_rule:
        rules.append(
            {
                "name": "no-secret",
                "behavior": "deny",
                "reason": "The secret stays secret",
                "match": {"tools": ["read_file"], "paths": ["secret.txt", "**/secret.txt"]},
            }
        )
    document = {
        "apiVersion": "toolpolicy/v1",
        "kind": "Policy",
        "name": "reads",
        "extends": "P03",
        "rules": rules,
    }
    path = folder / ("reads-ruled.yaml" if read_rule else "reads.yaml")
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def policies(tmp_path_factory: pytest.TempPathFactory) -> dict[bool, ToolPolicy]:
    """The policy without and with a read path rule (with one, every argument is a file
    the rules decide; without, only those that leave the workspace are looked at)."""
    folder = tmp_path_factory.mktemp("reads")
    workspace = folder / "ws"
    workspace.mkdir()
    return {
        ruled: load("P03", policies=[_policy(folder, read_rule=ruled)], workspace=str(workspace))
        for ruled in (False, True)
    }


def _shell(policy: ToolPolicy, line: str) -> Decision:
    return policy.check("shell", {"command": line})


def _said(decision: Decision) -> tuple[str, str, str]:
    return decision.behavior.label, decision.source, decision.reason


_ASKED = ("ask", "workspace-boundary", _READ_OUTSIDE)


@pytest.mark.parametrize("ruled", [False, True])
@pytest.mark.parametrize(
    "line",
    ["wc < /etc/passwd", "wc 0< /etc/passwd", "wc </etc/passwd", "cat < ~/x",
     "wc -l < ../outside.txt", "wc < a.txt < /etc/hosts"],
)  # fmt: skip
def test_a_redirected_read_outside_is_asked(
    policies: dict[bool, ToolPolicy], line: str, ruled: bool
) -> None:
    assert _said(_shell(policies[ruled], line)) == _ASKED


@pytest.mark.parametrize("ruled", [False, True])
@pytest.mark.parametrize(
    "line",
    ["grep -f/etc/shadow x", "sort -o/tmp/out a", "tar -tvf/tmp/a.tar", "tar -C/ -cf a.tar b",
     "grep -f~/.ssh/id_rsa x", "sort -o=../out a", "grep -f../../etc/passwd x"],
)  # fmt: skip
def test_a_path_glued_to_an_option_that_leaves_is_asked(
    policies: dict[bool, ToolPolicy], line: str, ruled: bool
) -> None:
    assert _said(_shell(policies[ruled], line)) == _ASKED


@pytest.mark.parametrize(
    "line",
    [
        "grep -fsecret.txt x",
        "grep -rnfsecret.txt x",
        "sort -o=secret.txt a",
        # carried inside a word: after '=', '@', ':', and in the middle of a comma list
        "sort --files0-from=a,secret.txt,b",
        "wc x=secret.txt,b",
        "wc a:secret.txt:b",
        "grep -e x -f@secret.txt,b",
    ],
)
def test_a_denied_file_glued_to_an_option_is_denied(
    policies: dict[bool, ToolPolicy], line: str
) -> None:
    assert _said(_shell(policies[True], line)) == ("deny", "no-secret", "The secret stays secret")


@pytest.mark.parametrize("ruled", [False, True])
@pytest.mark.parametrize(
    "line",
    [
        "wc -l < notes/a.txt",
        "grep -rn x src",
        "sort -n -o out.txt a",
        "tar -xzf a.tgz -C out",  # into the workspace itself it is refused: test_red18
        "grep -c x=y,z a:b",
        "grep https://example.com/x notes",  # another URL's scheme:// names no local file
    ],
)
def test_reads_inside_that_no_rule_names_stay_allowed(
    policies: dict[bool, ToolPolicy], line: str, ruled: bool
) -> None:
    decision = _shell(policies[ruled], line)
    assert (decision.behavior.label, decision.source) == ("allow", "tools-are-fine")


@st.composite
def _targets(draw: st.DrawFn) -> str:
    segments = st.sampled_from(["a", "src", "secret.txt", "..", ".", "etc", "passwd"])
    start = draw(st.sampled_from(["", "/", "~/", "./"]))
    return start + "/".join(draw(st.lists(segments, min_size=1, max_size=4)))


_PROPERTY = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


@_PROPERTY
@given(
    target=_targets(),
    program=st.sampled_from(["wc", "wc -l", "cat"]),
    operator=st.sampled_from(["< ", "<", "0< "]),
    ruled=st.booleans(),
)
def test_a_read_is_decided_alike_as_argument_and_as_redirection(
    policies: dict[bool, ToolPolicy], target: str, program: str, operator: str, ruled: bool
) -> None:
    policy = policies[ruled]
    as_argument = _shell(policy, f"{program} {target}")
    as_redirection = _shell(policy, f"{program} {operator}{target}")
    assert _said(as_redirection) == _said(as_argument)
    root = policy.workspace
    where = os.path.normpath(os.path.join(root, os.path.expanduser(target)))
    if where != root and not where.startswith(root + "/"):
        assert _said(as_redirection) == _ASKED


@_PROPERTY
@given(
    target=_targets(),
    program=st.sampled_from(["grep", "sort", "tar"]),
    letters=st.sampled_from(["f", "o", "xvf", "rnf", "C"]),
    equals=st.booleans(),
    ruled=st.booleans(),
)
def test_gluing_a_path_to_an_option_never_loosens_the_decision(
    policies: dict[bool, ToolPolicy],
    target: str,
    program: str,
    letters: str,
    equals: bool,
    ruled: bool,
) -> None:
    policy = policies[ruled]
    separate = _shell(policy, f"{program} -{letters} {target} x")
    glued = _shell(policy, f"{program} -{letters}{'=' if equals else ''}{target} x")
    assert glued.behavior >= separate.behavior


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[bool, ToolPolicy]]:
    """A workspace with links that stay in (``in`` -> ``a``, ``here`` -> ``.``) and links that
    lead out (``out`` -> a folder outside, ``up`` -> ``..``), and its two policies."""
    folder = tmp_path_factory.mktemp("linked")
    outside = folder / "outside"
    (outside / "a").mkdir(parents=True)
    workspace = folder / "ws"
    (workspace / "a" / "src").mkdir(parents=True)
    (workspace / "in").symlink_to("a", target_is_directory=True)
    (workspace / "here").symlink_to(".", target_is_directory=True)
    (workspace / "out").symlink_to(outside, target_is_directory=True)
    (workspace / "up").symlink_to("..", target_is_directory=True)
    policies = {
        ruled: load("P03", policies=[_policy(folder, read_rule=ruled)], workspace=str(workspace))
        for ruled in (False, True)
    }
    return workspace.resolve(), policies


@_PROPERTY
@given(
    segments=st.lists(
        st.sampled_from(["in", "here", "out", "up", "a", "src", "..", "x.txt"]),
        min_size=1,
        max_size=4,
    ),
    spelling=st.sampled_from(["wc {}", "wc < {}", "cat -- {}", "grep -f{} x"]),
    ruled=st.booleans(),
)
def test_a_read_through_a_symlink_out_of_the_workspace_asks(
    linked: tuple[Path, dict[bool, ToolPolicy]],
    segments: list[str],
    spelling: str,
    ruled: bool,
) -> None:
    """Bash opens the file, so no check at the open follows the decision: a read whose path
    leads out of the workspace once its symlinks are resolved asks, however it is spelled;
    a file that stays inside is left to the rules (here: allowed)."""
    root, policies = linked
    target = "/".join(segments)
    decision = _shell(policies[ruled], spelling.format(target))
    real = os.path.realpath(root / target)
    if real != str(root) and not real.startswith(f"{root}/"):
        assert _said(decision) == _ASKED
    elif not spelling.startswith("grep -f") and not os.path.isdir(real):
        # (a glued value's tails (-fin/a: /a) may leave; a folder is read with what it holds,
        # here a link out of the workspace: test_shell_folder_reads.py)
        assert decision.behavior.label == "allow"


def test_a_read_decided_before_a_symlink_appears_is_decided_again_after(
    tmp_path: Path,
) -> None:
    """The decision of a line that names files is never remembered by its text: the link
    that appears between two identical calls is seen by the second."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    policy = load("P03", policies=[_policy(tmp_path, read_rule=False)], workspace=str(workspace))
    line = "cat notes/hostname"
    assert _said(_shell(policy, line))[0] == "allow"
    (workspace / "notes").symlink_to("/etc", target_is_directory=True)
    assert _said(_shell(policy, line)) == _ASKED
