"""Properties of the Codex patch decision, in process (the hook process runs the same code).

Whatever else a patch holds, one header that names a file outside the workspace (or in the
protected set) denies the whole call — as ``apply_patch`` and as a Bash heredoc — and every
header Codex would read is one the hook reads.
"""

from __future__ import annotations

from types import MappingProxyType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy.core.vocabulary import Behavior
from toolpolicy.engine.cache import load_sources
from toolpolicy.engine.selection import ToolPolicy, assemble
from toolpolicy.hooks.adapter import AgentEvent, EventKind
from toolpolicy.hooks.codex import CODEX
from toolpolicy.hooks.decide import decide_call
from toolpolicy.hooks.patch import patch_targets

_HEADERS = st.sampled_from(["Add File", "Update File", "Delete File", "Move to"])
_INSIDE = st.sampled_from(["a.txt", "src/b.py", "./c/d.md", "src/../e.txt", "deep/er/f"])
_CLOSED = st.sampled_from(
    ["../outside.txt", "/etc/passwd", "src/../../x", ".git/config", ".codex/config.toml", "~/x"]
)
_BLANK = st.sampled_from(["", " ", "\t", "\u00a0", "\u3000"])
_NAMES = (
    st.text(
        st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\r\n"),
        min_size=1,
        max_size=30,
    )
    .map(str.strip)
    .filter(bool)
)


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> ToolPolicy:
    workspace = tmp_path_factory.mktemp("project")
    return assemble(load_sources("P03"), workspace=str(workspace), enforce_boundary=True)


def _event(policy: ToolPolicy, tool: str, command: str) -> AgentEvent:
    return AgentEvent(
        EventKind.PRE_TOOL_USE,
        "PreToolUse",
        "s",
        "call",
        policy.workspace,
        tool,
        MappingProxyType({"command": command}),
        "default",
    )


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(st.tuples(_HEADERS, _INSIDE), max_size=4),
    st.tuples(_HEADERS, _CLOSED),
    st.integers(min_value=0, max_value=4),
    _BLANK,
)
def test_one_closed_header_denies_the_whole_patch(
    policy: ToolPolicy,
    inside: list[tuple[str, str]],
    closed: tuple[str, str],
    at: int,
    blank: str,
) -> None:
    headers = [*inside]
    headers.insert(min(at, len(headers)), closed)
    body = "".join(f"{blank}*** {h}: {p}{blank}\n+x\n" for h, p in headers)
    text = f"*** Begin Patch\n{body}*** End Patch\n"
    for tool, command in (("apply_patch", text), ("Bash", f"apply_patch <<'EOF'\n{text}EOF")):
        event = _event(policy, tool, command)
        decided = decide_call(event, CODEX.entry(tool), policy, explicit_allow=False)
        assert decided.answer.decision.behavior is Behavior.DENY, (tool, headers)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_HEADERS, _NAMES), min_size=1, max_size=6), _BLANK)
def test_every_patch_header_is_found_with_its_path(
    headers: list[tuple[str, str]], blank: str
) -> None:
    text = (
        "*** Begin Patch\n"
        + "".join(f"{blank}*** {h}: {p}{blank}\n@@\n+line\n" for h, p in headers)
        + "*** End Patch"
    )
    assert [p for _, p in patch_targets(text)] == [p for _, p in headers]
