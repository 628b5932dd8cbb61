"""The path zoo against the real write_file/edit_file: nothing outside the workspace changes.

Paths are random mixtures of ``..``, ``.``, empty segments, absolute/drive/UNC prefixes,
backslashes, Unicode look-alikes of ``.`` and ``/``, control characters, overlong names,
reserved device names and the names of symlinks planted in the workspace beforehand
(inside→outside, chains, loops, dangling). The most permissive setting is used on purpose:
writes allowed by default (P02) or asked and always approved (P03).
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.selection import load
from toolpolicy.tools.builtin import builtin_registry
from toolpolicy.tools.registry import ToolCall, ToolContext

from .conftest import OUTSIDE_SECRET, AlwaysAllow, MemorySink, build_trap

EXAMPLES = 250

LOOKALIKES = ["\u2024", "\u2024\u2024", "\uff0e\uff0e", "\u2215", "\uff0f", "\u2044", "..\u2215"]
LINKS = [
    "link_out",
    "link_out_rel",
    "chain1",
    "loop_a",
    "self_loop",
    "dangling_out",
    "dangling_in",
    "file_link_out",
    "secret_link_out",
    "secret.txt",
    "inner",
    "inner_file",
    "up_and_back",
    "root_link",
    "a/deep_out",
    "hard_link",
    "fifo",
]
SEGMENTS = [
    "..",
    ".",
    "",
    "a",
    "new.txt",
    "existing.txt",
    "outside",
    "ws",
    "CON",
    "nul.txt",
    "COM1 ",
    "lpt9.log",
    "aux.",
    "x" * 300,
    "\x00",
    "a\x1fb",
    "\x85",
    "\t",
    "a:b",
    " ",
    *LOOKALIKES,
    *LINKS,
]
SEPARATORS = ["/", "\\", "//", "/./", "\\\\"]
PREFIXES = ["", "", "", "./", "/", "\\", "C:", "C:\\", "c:/", "\\\\?\\", "~/", "{unc}", "{abs}"]

# Every refusal comes with one of these codes; anything else is a finding.
STABLE_REFUSALS = {
    "permission_denied",
    "path_escape",
    "invalid_path",
    "invalid_arguments",
    "file_not_found",
    "not_a_file",
    "edit_no_match",
    "edit_ambiguous",
    "invalid_pattern",
    "binary_file",
}


@st.composite
def zoo_paths(draw: st.DrawFn) -> str:
    """A prefix, then 1 to 6 segments joined by random separators."""
    prefix = draw(st.sampled_from(PREFIXES))
    segments = draw(st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=6))
    path = prefix
    for index, segment in enumerate(segments):
        if index:
            path += draw(st.sampled_from(SEPARATORS))
        path += segment
    return path


def _materialize(raw: str, base: Path) -> str:
    # Absolute and UNC-shaped prefixes point into this test's own tree, never at the real /.
    return raw.replace("{abs}", f"{base}/").replace("{unc}", f"/{base}/")


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    raw=zoo_paths(),
    tool=st.sampled_from(["write_file", "edit_file"]),
    profile=st.sampled_from(["P02", "P03"]),
)
def test_no_path_spelling_changes_anything_outside_the_workspace(
    tmp_path_factory: object, raw: str, tool: str, profile: str
) -> None:
    base = tmp_path_factory.mktemp("zoo")  # type: ignore[attr-defined]
    trap = build_trap(base)
    before = trap.outside_state()
    path = _materialize(raw, base)
    policy = load(profile=profile, workspace=trap.ws)
    gate = policy.gate(
        approval=ApprovalService([AlwaysAllow()]),
        audit=[MemorySink()],
        registry=builtin_registry().snapshot(),
    )
    arguments: dict[str, object] = (
        {"path": path, "content": "PWNED"}
        if tool == "write_file"
        else {"path": path, "old_string": "a", "new_string": "PWNED"}
    )
    result = gate.handle(ToolCall("c", tool, arguments), ToolContext(str(trap.ws), "c"))
    assert trap.outside_state() == before
    if result.is_error:
        assert result.error_code in STABLE_REFUSALS, result


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(raw=zoo_paths(), tool=st.sampled_from(["read_file", "glob"]))
def test_no_path_spelling_reads_a_file_outside_the_workspace(
    tmp_path_factory: object, raw: str, tool: str
) -> None:
    base = tmp_path_factory.mktemp("zoo")  # type: ignore[attr-defined]
    trap = build_trap(base)
    gate = load(workspace=trap.ws).gate(
        approval=ApprovalService([AlwaysAllow()]),
        audit=[MemorySink()],
        registry=builtin_registry().snapshot(),
    )
    key = "path" if tool == "read_file" else "pattern"
    argument = _materialize(raw, base)
    call = ToolCall("c", tool, {key: argument})
    result = gate.handle(call, ToolContext(str(trap.ws), "c"))
    assert OUTSIDE_SECRET not in result.content
    if result.is_error:
        assert result.error_code in STABLE_REFUSALS, result
    elif tool == "read_file":
        # The text of a regular file inside the workspace, and of nothing else.
        assert result.content in _workspace_texts(trap.ws), result
    else:
        # Each listed line names a regular file inside the workspace; the only other lines are
        # the echo of the pattern when nothing matched and the bracketed limit notes.
        for line in result.content.splitlines():
            if line == f"No files match: {argument}" or line.startswith("["):
                continue
            listed = trap.ws / line
            assert not listed.is_symlink(), line
            assert listed.is_file(), line
            assert listed.resolve().is_relative_to(trap.ws.resolve()), line


def _workspace_texts(ws: Path) -> set[str]:
    """The text of every regular file in the workspace, read without following links."""
    texts: set[str] = set()
    for current, _dirs, files in os.walk(ws, followlinks=False):
        for name in files:
            path = Path(current) / name
            if path.is_file() and not path.is_symlink():
                texts.add(path.read_text())
    return texts
