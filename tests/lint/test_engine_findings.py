"""Engine behaviour found while building lint, pinned for the lead (the engine is not ours
to change): each test states what should hold and is marked xfail(strict=True) until it does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from toolpolicy.core.errors import ConfigurationError
from toolpolicy.engine.selection import load
from toolpolicy.lint import lint_paths

PROFILE_NAMED_P03 = """\
apiVersion: toolpolicy/v1
kind: Profile
name: P03
chapter: 3
description: Permissions before side effects
capabilities: [loop, powershell, tool_registry, files, policy]
tools: [shell, read_file, write_file, edit_file, glob]
defaults: {read: allow, write: allow, execute: ask}
rules:
  - name: no-env
    behavior: deny
    reason: Secrets stay private
    match: {paths: [".env"]}
"""


def test_a_profile_file_named_like_a_builtin_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "p03.yaml"
    path.write_text(PROFILE_NAMED_P03)
    with pytest.raises(ConfigurationError) as info:
        load(profile=str(path), workspace=str(tmp_path))
    assert str(info.value) == (f"{path}: profiles are built in; write a Policy that extends one")


def test_lint_already_refuses_that_profile_file(tmp_path: Path) -> None:
    path = tmp_path / "p03.yaml"
    path.write_text(PROFILE_NAMED_P03)
    [finding] = lint_paths([str(path)]).findings
    assert (finding.code, finding.line, finding.column) == ("profile-not-builtin", 2, 7)
