"""Property: whatever path the model sends, write_file leaves everything outside untouched."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.tools.registry import ToolContext
from toolpolicy.tools.workspace import WorkspaceBoundary
from toolpolicy.tools.write_file import write_file

SEGMENTS = st.sampled_from(
    [
        "..",
        ".",
        "",
        "a",
        "b.txt",
        "sub",
        "é",
        "con",
        "NUL.txt",
        "COM1 ",
        "lpt9.",
        "C:",
        "c:\\",
        "\\\\srv\\share",
        "//srv",
        "/",
        "\\",
        "\x00",
        "\x01x",
        "a<b",
        "x" * 300,
        "to_outside",
        "dangling_out",
        "up_link",
        "to_parent",
        "abs_back_in",
        "loop",
        "inner",
    ]
)
PATHS = st.lists(SEGMENTS, max_size=8).flatmap(
    lambda parts: st.sampled_from(["/", "\\"]).map(lambda sep: sep.join(parts))
)
PREFIXES = st.sampled_from(["", "/", "\\", "C:", "C:\\", "\\\\host\\share\\", "//host/share/"])


def _layout(base: Path) -> tuple[Path, Path]:
    workspace = base / "ws"
    outside = base / "outside"
    workspace.mkdir()
    outside.mkdir()
    (workspace / "inner").mkdir()
    (workspace / "to_outside").symlink_to(outside)
    (workspace / "dangling_out").symlink_to(outside / "missing" / "file.txt")
    (workspace / "up_link").symlink_to("../outside")
    (workspace / "to_parent").symlink_to("..")
    (workspace / "abs_back_in").symlink_to(workspace / "inner")
    (workspace / "loop").symlink_to("loop")
    (workspace / "inner" / "back_out").symlink_to("../../outside")
    return workspace, outside


@settings(max_examples=200, deadline=None)
@given(prefix=PREFIXES, path=PATHS)
def test_write_file_never_creates_anything_outside_the_workspace(prefix: str, path: str) -> None:
    with tempfile.TemporaryDirectory() as temp:
        base = Path(temp)
        workspace, outside = _layout(base)
        full = prefix + path
        result = write_file({"path": full, "content": "x"}, ToolContext(workspace=str(workspace)))
        assert list(outside.iterdir()) == []
        assert sorted(os.listdir(base)) == ["outside", "ws"]
        if not result.is_error:
            assert WorkspaceBoundary(workspace).contains(full)
        else:
            assert result.error_code in {"path_escape", "invalid_path", "not_a_file"}
