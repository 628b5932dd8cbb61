"""Loading files: every failure is one PolicyLoadError, never a traceback or a partial use."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from toolpolicy.core.errors import PolicyLoadError
from toolpolicy.language import LoadedDocument, PolicyDoc, check_bytes, load_document

_TEAM = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
rules:
  - name: secrets-stay-closed
    behavior: deny
    reason: Secrets are off limits
    match:
      tools: [read_file, write_file, edit_file]
      paths: [".env", "secrets/**"]
examples:
  - call: {tool: read_file, arguments: {path: .env}}
    expect: deny
"""


def _write(tmp_path: Path, text: str | bytes, name: str = "team.yaml") -> Path:
    path = tmp_path / name
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return path


def test_a_policy_file_loads_with_its_hash_kind_and_positions(tmp_path: Path) -> None:
    path = _write(tmp_path, _TEAM)
    document = load_document(path)
    assert isinstance(document, LoadedDocument)
    assert document.path == str(path)
    assert document.kind == "Policy"
    assert isinstance(document.model, PolicyDoc)
    assert document.model.extends == "P03"
    assert document.sha256 == hashlib.sha256(_TEAM.encode()).hexdigest()
    assert document.position("/rules/0") == (6, 5)
    assert document.position("/rules/0/match/paths/1") == (11, 23)
    assert document.position("/examples/0/expect") == (14, 13)
    assert document.position("") == (1, 1)


def test_position_falls_back_to_the_nearest_ancestor(tmp_path: Path) -> None:
    document = load_document(_write(tmp_path, _TEAM))
    assert document.position("/rules/0/description") == (6, 5)
    assert document.position("/rules/7/name") == (6, 3)
    assert document.position("/nothing/here") == (1, 1)


def test_the_display_path_is_kept_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, _TEAM)
    monkeypatch.chdir(tmp_path)
    assert load_document("team.yaml").path == "team.yaml"


def test_a_loaded_document_is_frozen(tmp_path: Path) -> None:
    document = load_document(_write(tmp_path, _TEAM))
    with pytest.raises(AttributeError):
        document.kind = "Profile"  # type: ignore[misc]
    with pytest.raises(TypeError):
        document.positions["/x"] = (1, 1)  # type: ignore[index]


def test_a_missing_file_is_a_read_error(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    with pytest.raises(PolicyLoadError) as caught:
        load_document(missing)
    assert [str(p) for p in caught.value.problems] == [
        f"{missing}:1:1: cannot read the file: No such file or directory"
    ]
    assert caught.value.problems[0].code == "read-error"


def test_a_directory_is_a_read_error(tmp_path: Path) -> None:
    with pytest.raises(PolicyLoadError) as caught:
        load_document(tmp_path)
    assert caught.value.problems[0].code == "read-error"


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(PolicyLoadError) as caught:
        load_document(fifo)
    assert [str(p) for p in caught.value.problems] == [
        f"{fifo}:1:1: cannot read the file: not a regular file"
    ]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_an_unreadable_file_is_a_read_error(tmp_path: Path) -> None:
    path = _write(tmp_path, _TEAM)
    path.chmod(0)
    with pytest.raises(PolicyLoadError) as caught:
        load_document(path)
    assert caught.value.problems[0].code == "read-error"


def test_a_symlinked_file_loads_under_the_name_given(tmp_path: Path) -> None:
    target = _write(tmp_path, _TEAM)
    link = tmp_path / "link.yaml"
    link.symlink_to(target)
    assert load_document(link).path == str(link)


def test_a_file_over_the_limit_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    path = _write(tmp_path, b"# " + b"x" * (3 * 1024 * 1024))
    with pytest.raises(PolicyLoadError) as caught:
        load_document(path)
    assert [p.code for p in caught.value.problems] == ["too-large"]


def test_a_file_with_one_problem_is_not_used_at_all(tmp_path: Path) -> None:
    broken = _TEAM.replace("    behavior: deny\n", "    behavior: deny\n    behavior: allow\n")
    document, problems = check_bytes(broken.encode(), "team.yaml")
    assert document is None
    assert [str(p) for p in problems] == [
        "team.yaml:8:5: duplicate key 'behavior' (first defined at line 7, column 5)"
    ]


def test_check_bytes_reports_problems_sorted_by_position() -> None:
    text = _TEAM.replace("name: team", "name: Team").replace("behavior: deny", "behavior: no")
    _, problems = check_bytes(text.encode(), "team.yaml")
    assert [(p.line, p.column) for p in problems] == sorted((p.line, p.column) for p in problems)
    assert [p.pointer for p in problems] == ["/name", "/rules/0/behavior"]


def test_a_thousand_problems_are_cut_to_a_bounded_list() -> None:
    rules = "".join(
        f"  - {{name: r{i}, behavior: nope, reason: r, match: {{}}}}\n" for i in range(600)
    )
    text = "apiVersion: toolpolicy/v1\nkind: Policy\nname: team\nrules:\n" + rules
    _, problems = check_bytes(text.encode(), "team.yaml")
    assert len(problems) == 501
    assert problems[-1].message == "more than 500 problems; fix these and check again"
