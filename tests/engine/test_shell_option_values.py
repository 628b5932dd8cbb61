"""A path glued to a short option is a file the line may read, as a separate argument is.

Before: under an allow for ``grep``, ``grep -f /etc/shadow x`` asked "Reading outside the
workspace requires approval", yet ``grep -f/etc/shadow x`` was allowed, and under a deny on
reading ``secret.txt``, ``grep -fsecret.txt x`` was allowed: a short option word was never
read for a value (``--file=/x`` was). Which letters of ``-xvf/tmp/a.tar`` are options and
where its value starts is the program's to say, so every tail after the first letter is taken
as a possible path. The kind: an allow covering a file access because of how the path was
glued to an option. The property: gluing a path to an option never loosens the decision.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy import Decision, load
from toolpolicy.engine.selection import ToolPolicy

_READ_OUTSIDE = "Reading outside the workspace requires approval"


def _policy(folder: Path) -> str:
    document = {
        "apiVersion": "toolpolicy/v1",
        "kind": "Policy",
        "name": "options",
        "extends": "P03",
        "rules": [
            {
                "name": "tools-are-fine",
                "behavior": "allow",
                "reason": "These tools are fine",
                "match": {"tools": ["shell"], "commands": ["grep", "sort", "tar"]},
            },
            {
                "name": "no-secret",
                "behavior": "deny",
                "reason": "The secret stays secret",
                "match": {"tools": ["read_file"], "paths": ["secret.txt", "**/secret.txt"]},
            },
        ],
    }
    path = folder / "options.yaml"
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> ToolPolicy:
    folder = tmp_path_factory.mktemp("options")
    workspace = folder / "ws"
    workspace.mkdir()
    return load("P03", policies=[_policy(folder)], workspace=str(workspace))


def _shell(policy: ToolPolicy, line: str) -> Decision:
    return policy.check("shell", {"command": line})


@pytest.mark.parametrize(
    "line",
    ["grep -f/etc/shadow x", "sort -o/tmp/out a", "tar -xvf/tmp/a.tar", "tar -C/ -cf a.tar b",
     "grep -f~/.ssh/id_rsa x", "sort -o=../out a", "grep -f../../etc/passwd x"],
)  # fmt: skip
def test_a_path_glued_to_an_option_that_leaves_is_asked(policy: ToolPolicy, line: str) -> None:
    decision = _shell(policy, line)
    assert (decision.behavior.label, decision.source, decision.reason) == (
        "ask",
        "workspace-boundary",
        _READ_OUTSIDE,
    )


@pytest.mark.parametrize(
    "line", ["grep -fsecret.txt x", "grep -rnfsecret.txt x", "sort -o=secret.txt a"]
)
def test_a_denied_file_glued_to_an_option_is_denied(policy: ToolPolicy, line: str) -> None:
    decision = _shell(policy, line)
    assert (decision.behavior.label, decision.source, decision.reason) == (
        "deny",
        "no-secret",
        "The secret stays secret",
    )


@pytest.mark.parametrize("line", ["grep -rn x src", "sort -n -o out.txt a", "tar -xzf a.tgz"])
def test_options_without_a_leaving_or_denied_path_stay_allowed(
    policy: ToolPolicy, line: str
) -> None:
    decision = _shell(policy, line)
    assert (decision.behavior.label, decision.source) == ("allow", "tools-are-fine")


_SEGMENT = st.sampled_from(["a", "src", "secret.txt", "..", ".", "etc", "passwd"])


@st.composite
def _targets(draw: st.DrawFn) -> str:
    segments = draw(st.lists(_SEGMENT, min_size=1, max_size=3))
    start = draw(st.sampled_from(["", "/", "~/", "./"]))
    return start + "/".join(segments)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    target=_targets(),
    program=st.sampled_from(["grep", "sort", "tar"]),
    letters=st.sampled_from(["f", "o", "xvf", "rnf", "C"]),
    equals=st.booleans(),
)
def test_gluing_a_path_to_an_option_never_loosens_the_decision(
    policy: ToolPolicy, target: str, program: str, letters: str, equals: bool
) -> None:
    separate = _shell(policy, f"{program} -{letters} {target} x")
    glued = _shell(policy, f"{program} -{letters}{'=' if equals else ''}{target} x")
    assert glued.behavior >= separate.behavior
