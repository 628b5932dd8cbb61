"""A file a shell line reads outside the workspace is asked about however the line names it.

Before: ``wc /etc/passwd`` asked "Reading outside the workspace requires approval", yet under
an allow rule for ``wc`` the same read written as a redirection, ``wc < /etc/passwd`` (or
``cat < ~/x``, ``wc 0< ../x``), was allowed: only arguments were checked for leaving the
workspace. The kind: an allow rule covering a read outside the workspace because of how the
read was spelled. The property: a read target gets one decision whether it is an argument or
a ``<`` redirection.
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


def _policy(folder: Path, *, read_rule: bool) -> str:
    rules: list[dict[str, object]] = [
        {
            "name": "counting-is-fine",
            "behavior": "allow",
            "reason": "Counting lines is fine",
            "match": {"tools": ["shell"], "commands": ["wc", "cat"]},
        }
    ]
    if read_rule:
        rules.append(
            {
                "name": "no-secret",
                "behavior": "deny",
                "reason": "The secret stays secret",
                "match": {"tools": ["read_file"], "paths": ["secret", "**/secret"]},
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
    folder = tmp_path_factory.mktemp("reads")
    workspace = folder / "ws"
    workspace.mkdir()
    return {
        ruled: load("P03", policies=[_policy(folder, read_rule=ruled)], workspace=str(workspace))
        for ruled in (False, True)
    }


def _shell(policy: ToolPolicy, line: str) -> Decision:
    return policy.check("shell", {"command": line})


@pytest.mark.parametrize("ruled", [False, True])
@pytest.mark.parametrize(
    "line",
    [
        "wc < /etc/passwd",
        "wc 0< /etc/passwd",
        "wc </etc/passwd",
        "cat < ~/x",
        "wc -l < ../outside.txt",
        "wc < a.txt < /etc/hosts",
    ],
)
def test_a_redirected_read_outside_is_asked(
    policies: dict[bool, ToolPolicy], line: str, ruled: bool
) -> None:
    decision = _shell(policies[ruled], line)
    assert decision.behavior.label == "ask"
    assert decision.source == "workspace-boundary"
    assert decision.reason == _READ_OUTSIDE


@pytest.mark.parametrize("ruled", [False, True])
def test_a_redirected_read_inside_stays_allowed(
    policies: dict[bool, ToolPolicy], ruled: bool
) -> None:
    decision = _shell(policies[ruled], "wc -l < notes/a.txt")
    assert decision.behavior.label == "allow"
    assert decision.source == "counting-is-fine"


_SEGMENT = st.sampled_from(["a", "notes", "secret", "..", ".", "x.txt", "etc", "passwd"])


@st.composite
def _targets(draw: st.DrawFn) -> str:
    segments = draw(st.lists(_SEGMENT, min_size=1, max_size=4))
    start = draw(st.sampled_from(["", "/", "~/", "./"]))
    return start + "/".join(segments)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
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
    assert (as_redirection.behavior, as_redirection.source, as_redirection.reason) == (
        as_argument.behavior,
        as_argument.source,
        as_argument.reason,
    )
    root = policy.workspace
    where = os.path.normpath(os.path.join(root, os.path.expanduser(target)))
    if where != root and not where.startswith(root + "/"):
        assert as_redirection.behavior.label == "ask"
        assert as_redirection.reason == _READ_OUTSIDE
