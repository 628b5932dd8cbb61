"""red15: a shell read through a symlink *inside* the workspace meets no path rule.

Last round's fix resolves every file a plain line reads through its symlinks, but only to
ask when the result leaves the workspace (``_leads_out``); the read path rules are still
matched on the path as written. So with ``alias -> secret.txt`` (or ``vault -> secrets``)
planted in the workspace, under a deny on reading ``secret.txt`` and an allow for ``cat``,
``cat alias``, ``cat < alias``, ``wc -c alias`` and ``cat ali*`` are allowed. Bash opens the
file, the sandbox confines writes and not reads (SECURITY.md), so the secret is in the tool
result under every sandbox mode; ``test_the_gate_runs_cat_alias_and_the_secret_leaks``
shows it with the real gate, the real bubblewrap sandbox and real bash.

The hook (physical boundary) answers ``deny`` for the same line: the in-process answer
differs from it. What it should get: the decision of the file the link names
(``cat secret.txt``: deny "The secret stays secret"). DESIGN: "A deny or ask is
conservative. It hits wherever the denied thing could be"; SECURITY.md: "every file a line
reads ... is now resolved through its symlinks when the line is decided".
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doubles import MemorySink, ScriptedResponder
from toolpolicy import load
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.selection import ToolPolicy
from toolpolicy.tools.builtin import builtin_registry
from toolpolicy.tools.registry import ToolCall, ToolContext

POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
rules:
  - name: tools-are-fine
    behavior: allow
    reason: These tools are fine
    match: {commands: [cat, wc, head]}
  - name: no-secret
    behavior: deny
    reason: The secret stays secret
    match: {tools: [read_file], paths: [secret.txt, secrets/**]}
"""

_DENIED = ("deny", "no-secret", "The secret stays secret")
SECRET = "SECRET-IN-7d1c"


def _workspace(base: Path) -> tuple[Path, Path]:
    ws = base / "project"
    (ws / "secrets").mkdir(parents=True)
    (ws / "secret.txt").write_text(SECRET + "\n")
    (ws / "secrets" / "key.pem").write_text(SECRET + "\n")
    (ws / "alias").symlink_to("secret.txt")
    (ws / "vault").symlink_to("secrets", target_is_directory=True)
    policy = ws / "toolpolicy.yaml"
    policy.write_text(POLICY)
    return ws, policy


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory) -> ToolPolicy:
    ws, policy = _workspace(tmp_path_factory.mktemp("linked-read"))
    return load("P03", policies=[policy], workspace=ws)


@pytest.mark.xfail(strict=True, reason="red15: a read through an inner link meets no path rule")
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    target=st.sampled_from([("alias", "secret.txt"), ("vault/key.pem", "secrets/key.pem")]),
    spelling=st.sampled_from(["cat {}", "cat < {}", "wc -c {}", "head -n1 -- {}"]),
)
def test_a_read_through_a_link_in_the_workspace_is_decided_as_the_file_it_reads(
    loaded: ToolPolicy, target: tuple[str, str], spelling: str
) -> None:
    linked, real = target
    direct = loaded.check("shell", {"command": spelling.format(real)})
    assert (direct.behavior.label, direct.source, direct.reason) == _DENIED  # the premise
    through = loaded.check("shell", {"command": spelling.format(linked)})
    assert (through.behavior.label, through.source, through.reason) == _DENIED


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap not installed")
@pytest.mark.xfail(strict=True, reason="red15: bash reads the denied file through the link")
def test_the_gate_runs_cat_alias_and_the_secret_leaks(tmp_path: Path) -> None:
    ws, policy = _workspace(tmp_path)
    responder = ScriptedResponder([])
    sink = MemorySink()
    gate = load("P03", policies=[policy], workspace=ws, sandbox="workspace-write").gate(
        approval=ApprovalService([responder]),
        audit=[sink],
        registry=builtin_registry().snapshot(),
    )
    result = gate.handle(
        ToolCall("c1", "shell", {"command": "cat alias"}), ToolContext(str(ws), "c1")
    )
    assert responder.requests == []
    assert SECRET not in result.content
    assert result.content == "Error [permission_denied]: The secret stays secret"
