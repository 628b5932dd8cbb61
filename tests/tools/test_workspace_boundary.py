"""WorkspaceBoundary: every refused path form, with its exact code and message."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolpolicy.core.errors import WorkspacePathError
from toolpolicy.tools.workspace import WorkspaceBoundary, normalized_path, split_relative

REFUSED = [
    # (path, code, message)
    ("", "invalid_path", "Path is empty"),
    ("   ", "invalid_path", "Path is empty"),
    ("con", "invalid_path", "Reserved device name: con"),
    ("CON", "invalid_path", "Reserved device name: CON"),
    ("CON.txt", "invalid_path", "Reserved device name: CON.txt"),
    ("nul.", "invalid_path", "Reserved device name: nul."),
    ("COM1 ", "invalid_path", "Reserved device name: COM1 "),
    ("lpt9.log", "invalid_path", "Reserved device name: lpt9.log"),
    ("Aux.tar.gz", "invalid_path", "Reserved device name: Aux.tar.gz"),
    ("prn . txt", "invalid_path", "Reserved device name: prn . txt"),
    ("src/com9/x.py", "invalid_path", "Reserved device name: src/com9/x.py"),
    ("a<b", "invalid_path", "Illegal character in path: a<b"),
    ("a>b", "invalid_path", "Illegal character in path: a>b"),
    ("ab:c", "invalid_path", "Illegal character in path: ab:c"),
    ("a:b", "path_escape", "Drive paths are not allowed: a:b"),
    ("src/C:x", "invalid_path", "Illegal character in path: src/C:x"),
    ('a"b', "invalid_path", 'Illegal character in path: a"b'),
    ("a|b", "invalid_path", "Illegal character in path: a|b"),
    ("a?b", "invalid_path", "Illegal character in path: a?b"),
    ("a*b", "invalid_path", "Illegal character in path: a*b"),
    ("a\x00b", "invalid_path", "Illegal character in path: a\\x00b"),
    ("a\nb", "invalid_path", "Illegal character in path: a\\nb"),
    ("a\x1fb", "invalid_path", "Illegal character in path: a\\x1fb"),
    ("a\x7fb", "invalid_path", "Illegal character in path: a\\x7fb"),
    ("\ud800", "invalid_path", "Illegal character in path: \\ud800"),
    ("C:x", "path_escape", "Drive paths are not allowed: C:x"),
    ("C:\\x", "path_escape", "Drive paths are not allowed: C:\\x"),
    ("c:/Windows", "path_escape", "Drive paths are not allowed: c:/Windows"),
    ("\\\\server\\share\\x", "path_escape", "UNC paths are not allowed: \\\\server\\share\\x"),
    ("//server/share/x", "path_escape", "UNC paths are not allowed: //server/share/x"),
    ("/etc/passwd", "path_escape", "Absolute paths are not allowed: /etc/passwd"),
    ("\\Windows\\x", "path_escape", "Absolute paths are not allowed: \\Windows\\x"),
    ("..", "path_escape", "Path escapes the workspace: .."),
    ("../x", "path_escape", "Path escapes the workspace: ../x"),
    ("a/../../x", "path_escape", "Path escapes the workspace: a/../../x"),
    ("a\\..\\..\\x", "path_escape", "Path escapes the workspace: a\\..\\..\\x"),
    ("./../x", "path_escape", "Path escapes the workspace: ./../x"),
    ("a" * 256, "invalid_path", f"Path component is too long: {'a' * 200}..."),
    ("a/" * 2100, "invalid_path", "Path is too long"),
]


@pytest.mark.parametrize(("path", "code", "message"), REFUSED)
def test_every_refused_path_form_has_its_exact_code_and_message(
    workspace: Path, path: str, code: str, message: str
) -> None:
    boundary = WorkspaceBoundary(workspace)
    with pytest.raises(WorkspacePathError) as caught:
        boundary.resolve(path)
    assert (caught.value.code, caught.value.message) == (code, message)
    assert boundary.contains(path) is False
    assert boundary.target_relative(path) is None


@pytest.mark.parametrize(
    ("path", "relative"),
    [
        ("a.txt", "a.txt"),
        ("./src//main.py", "src/main.py"),
        ("src\\pkg\\mod.py", "src/pkg/mod.py"),
        ("a/../b.txt", "b.txt"),
        ("console.txt", "console.txt"),
        ("COM10", "COM10"),
        ("lpt", "lpt"),
        ("nul-device", "nul-device"),
        (".hidden", ".hidden"),
        ("dir.d/file", "dir.d/file"),
        ("é/ü.txt", "é/ü.txt"),
        ("a/..", ""),
        (".", ""),
    ],
)
def test_ordinary_relative_paths_resolve_inside_the_workspace(
    workspace: Path, path: str, relative: str
) -> None:
    boundary = WorkspaceBoundary(workspace)
    expected = os.path.join(os.path.realpath(workspace), relative) if relative else boundary.root
    assert boundary.resolve(path) == expected.rstrip("/")
    assert boundary.contains(path) is True
    assert boundary.target_relative(path) == relative


def test_the_root_is_the_cached_real_path_of_a_symlinked_workspace(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "alias").symlink_to(real)
    boundary = WorkspaceBoundary(tmp_path / "alias")
    assert boundary.root == os.path.realpath(real)
    assert boundary.resolve("x.txt") == os.path.join(os.path.realpath(real), "x.txt")


def test_a_symlink_to_an_outside_directory_escapes(workspace: Path, outside: Path) -> None:
    (workspace / "link").symlink_to(outside)
    boundary = WorkspaceBoundary(workspace)
    with pytest.raises(WorkspacePathError) as caught:
        boundary.resolve("link/new.txt")
    assert (caught.value.code, caught.value.message) == (
        "path_escape",
        "Path escapes the workspace: link/new.txt",
    )
    assert boundary.contains("link") is False
    assert boundary.target_relative("link/new.txt") is None


def test_a_relative_symlink_climbing_out_escapes(workspace: Path, outside: Path) -> None:
    (workspace / "up").symlink_to("../outside/x.txt")
    boundary = WorkspaceBoundary(workspace)
    with pytest.raises(WorkspacePathError) as caught:
        boundary.resolve("up")
    assert caught.value.code == "path_escape"


def test_a_dangling_symlink_pointing_outside_escapes(workspace: Path, outside: Path) -> None:
    (workspace / "dangling").symlink_to(outside / "missing" / "deeper.txt")
    boundary = WorkspaceBoundary(workspace)
    with pytest.raises(WorkspacePathError) as caught:
        boundary.resolve("dangling")
    assert (caught.value.code, caught.value.message) == (
        "path_escape",
        "Path escapes the workspace: dangling",
    )


def test_a_dangling_symlink_pointing_inside_resolves_to_its_target(workspace: Path) -> None:
    (workspace / "dangling").symlink_to("sub/new.txt")
    boundary = WorkspaceBoundary(workspace)
    assert boundary.target_relative("dangling") == "sub/new.txt"


def test_a_symlink_loop_is_an_invalid_path(workspace: Path) -> None:
    (workspace / "a").symlink_to("b")
    (workspace / "b").symlink_to("a")
    boundary = WorkspaceBoundary(workspace)
    with pytest.raises(WorkspacePathError) as caught:
        boundary.resolve("a/x.txt")
    assert (caught.value.code, caught.value.message) == ("invalid_path", "Symlink loop: a/x.txt")


def test_a_self_referencing_symlink_is_an_invalid_path(workspace: Path) -> None:
    (workspace / "self").symlink_to("self")
    with pytest.raises(WorkspacePathError) as caught:
        WorkspaceBoundary(workspace).resolve("self")
    assert caught.value.code == "invalid_path"


def test_an_absolute_symlink_back_into_the_workspace_stays_inside(workspace: Path) -> None:
    (workspace / "docs").mkdir()
    (workspace / "alias").symlink_to(workspace / "docs")
    boundary = WorkspaceBoundary(workspace)
    assert boundary.target_relative("alias/readme.md") == "docs/readme.md"
    assert boundary.relative("alias/readme.md") == "alias/readme.md"


def test_dotdot_after_a_symlink_is_lexical(workspace: Path, outside: Path) -> None:
    # "link/.." is the workspace itself, never the parent of the link's target.
    (workspace / "link").symlink_to(outside)
    assert WorkspaceBoundary(workspace).target_relative("link/../x.txt") == "x.txt"


def test_a_path_below_a_regular_file_stays_inside_lexically(workspace: Path) -> None:
    (workspace / "file.txt").write_text("x")
    assert WorkspaceBoundary(workspace).target_relative("file.txt/child") == "file.txt/child"


def test_split_relative_normalizes_separators_and_dots() -> None:
    assert split_relative("a\\b/./c//d/../e") == ("a", "b", "c", "e")
    assert split_relative("./") == ()


def test_a_path_too_long_for_the_system_once_joined_is_invalid(workspace: Path) -> None:
    # The text is within bounds; the workspace prefix pushes the real path past PATH_MAX.
    deep = workspace
    parts: list[str] = []
    while len(str(deep)) < 3900:
        deep = deep / ("d" * 250)
        deep.mkdir()
        parts.append("d" * 250)
    prefix = "/".join(parts)
    relative = prefix + "/" + "e" * min(255, 4096 - len(prefix) - 1)
    assert len(relative) <= 4096 < len(str(workspace)) + 1 + len(relative)
    with pytest.raises(WorkspacePathError) as caught:
        WorkspaceBoundary(workspace).resolve(relative)
    assert (caught.value.code, caught.value.message) == ("invalid_path", "Path is too long")


@given(st.lists(st.text(alphabet="a./\\:*<~ \x00", max_size=8), min_size=1, max_size=3))
def test_normalized_path_remembers_answers_never_refusals(texts: list[str]) -> None:
    """``normalized_path`` remembers the texts it read: asked again, in any order, it gives
    the joined components ``split_relative`` gives, and a path it refused is refused again
    with the same code, never answered from memory."""
    for text in [*texts, *reversed(texts), *texts]:
        try:
            expected: str | tuple[str, str] = "/".join(split_relative(text))
        except WorkspacePathError as exc:
            expected = ("refused", exc.code)
        try:
            found: str | tuple[str, str] = normalized_path(text)
        except WorkspacePathError as exc:
            found = ("refused", exc.code)
        assert found == expected
