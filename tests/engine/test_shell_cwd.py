"""A shell line that runs in a folder of the workspace names its files from that folder.

An agent's shell keeps its folder between calls (Claude Code's Bash after ``cd src``; the
hook gets it as the event's ``cwd``), and bash opens a relative file from there. So the
engine takes each file a line names relative to ``ToolContext.cwd``: the line run in ``d``
naming ``p`` is decided as the line run at the root naming ``d/p``, and a line run outside
the workspace names files outside it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy import Decision, load
from toolpolicy.engine.request import PermissionRequest
from toolpolicy.engine.selection import ToolPolicy
from toolpolicy.tools.registry import ToolCall, ToolContext

_POLICY = {
    "apiVersion": "toolpolicy/v1",
    "kind": "Policy",
    "name": "cwd",
    "extends": "P03",
    "rules": [
        {
            "name": "everyday",
            "behavior": "allow",
            "reason": "Everyday commands",
            "match": {"commands": ["echo", "cat"]},
        },
        {
            "name": "no-prod",
            "behavior": "deny",
            "reason": "Production settings stay closed",
            "match": {"tools": ["read_file"], "paths": ["config/prod/**"]},
        },
        {
            "name": "ask-docs",
            "behavior": "ask",
            "reason": "Docs are reviewed",
            "match": {"tools": ["write_file"], "paths": ["docs/*.md"]},
        },
    ],
}
_FOLDERS = ("", "src", "config", "config/prod", ".git", "docs")


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> ToolPolicy:
    base = tmp_path_factory.mktemp("cwd")
    workspace = base / "ws"
    for folder in _FOLDERS:
        (workspace / folder).mkdir(parents=True, exist_ok=True)
    (workspace / "config" / "prod" / "db.yaml").write_text("password: x\n")
    (base / "outside").mkdir()
    path = base / "policy.yaml"
    path.write_text(json.dumps(_POLICY))
    return load("P03", policies=[str(path)], workspace=str(workspace))


def _decide(policy: ToolPolicy, line: str, cwd: str = "") -> Decision:
    prepared = policy.tools.prepare(ToolCall("c", "shell", {"command": line}))
    request = PermissionRequest(prepared, ToolContext(policy.workspace, "c", cwd=cwd))
    return policy.engine.evaluate(request, policy.knobs).effective


def _said(decision: Decision) -> tuple[str, str, str]:
    return decision.behavior.label, decision.source, decision.reason


# Every word after the program is a file the line may read, so each one is spelled from
# where the line runs.
_LINES = ("echo > {p}", "echo >> {p}", "cat {p}", "cat < {p}", "cat {p} > {q}", "cat {p} {q}")
_NAMES = ("a.txt", "hooks/pre-commit", "prod/db.yaml", "db.yaml", "x.md", "../x.md", ".")


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    folder=st.sampled_from(_FOLDERS[1:]),
    name=st.sampled_from(_NAMES),
    line=st.sampled_from(_LINES),
)
def test_a_line_run_in_a_folder_is_decided_as_its_files_spelled_from_the_root(
    policy: ToolPolicy, folder: str, name: str, line: str
) -> None:
    in_folder = _decide(policy, line.format(p=name, q="out.txt"), cwd=folder)
    from_root = _decide(policy, line.format(p=f"{folder}/{name}", q=f"{folder}/out.txt"))
    assert _said(in_folder) == _said(from_root)


def test_the_cases_the_property_stands_on(policy: ToolPolicy) -> None:
    assert _said(_decide(policy, "echo x >> hooks/pre-commit", cwd=".git")) == (
        "deny",
        "workspace-boundary",
        "Writing inside .git is forbidden",
    )
    assert _said(_decide(policy, "cat prod/db.yaml", cwd="config")) == (
        "deny",
        "no-prod",
        "Production settings stay closed",
    )
    assert _said(_decide(policy, "echo x > b.md", cwd="docs")) == (
        "ask",
        "ask-docs",
        "Docs are reviewed",
    )
    # the same lines at the root name other files, and are allowed
    for line in ("echo x >> hooks/pre-commit", "cat prod/db.yaml", "echo x > b.md"):
        assert _said(_decide(policy, line))[:2] == ("allow", "everyday")
    assert _said(_decide(policy, "echo x > out.txt", cwd="src"))[:2] == ("allow", "everyday")


def test_a_line_run_outside_the_workspace_names_files_outside_it(policy: ToolPolicy) -> None:
    outside = str(Path(policy.workspace).parent / "outside")
    assert _said(_decide(policy, "echo x > a.txt", cwd=outside)) == (
        "deny",
        "workspace-boundary",
        "Writing outside the workspace is forbidden",
    )
    assert _said(_decide(policy, "cat a.txt", cwd=outside)) == (
        "ask",
        "workspace-boundary",
        "Reading outside the workspace requires approval",
    )


@pytest.mark.parametrize(
    "line",
    ["cat /proc/self/cwd/a.txt", "cat //proc/self/cwd/a.txt", "cat /proc/self/root/etc/hostname"],
)
def test_a_path_naming_the_reading_process_counts_as_outside(
    policy: ToolPolicy, line: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/proc/self`` and ``/dev/fd`` name the state of the process that opens them: bash's,
    wherever it runs, not the deciding process's (which sits in the workspace here, where
    ``/proc/self/cwd/a.txt`` would resolve inside it)."""
    monkeypatch.chdir(policy.workspace)
    for cwd in ("", "config"):
        assert _said(_decide(policy, line, cwd=cwd)) == (
            "ask",
            "workspace-boundary",
            "Reading outside the workspace requires approval",
        )
