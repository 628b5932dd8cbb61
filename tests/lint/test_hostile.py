"""Hostile inputs: each gives a finding (and the linter neither hangs, expands nor crashes)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy.lint import REGISTRY, Severity, lint_bytes
from toolpolicy.lint.registry import INTERNAL_ERROR

from .conftest import run_lint

HEAD = "apiVersion: toolpolicy/v1\nkind: Policy\nname: x\n"


def _alias_bomb() -> bytes:
    text = HEAD + "a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
    for i in range(1, 10):
        text += f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]\n"
    return text.encode()


HOSTILE = {
    "alias-bomb": (_alias_bomb(), "yaml-alias", 4, 5),
    "deep-nesting": (
        (HEAD + "rules: " + "[" * 20_000 + "]" * 20_000 + "\n").encode(),
        "too-deep",
        4,
        71,
    ),
    "binary": (b"apiVersion: toolpolicy/v1\n\x00\x01\x02\xff", "encoding", 2, 1),
    "tab-indented": ((HEAD + "rules:\n\t- name: a\n").encode(), "tab-indent", 5, 1),
    "not-utf8": (HEAD.encode() + b"description: caf\xe9\n", "encoding", 4, 17),
    "too-large": (HEAD.encode() + b"# " + b"x" * (1024 * 1024), "too-large", 1, 1),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_file_gives_an_error_finding(name: str, workspace: str) -> None:
    data, code, line, column = HOSTILE[name]
    findings = lint_bytes(data, f"{name}.yaml", workspace)
    first = findings[0] if code != "yaml-alias" else next(f for f in findings if f.code == code)
    assert (first.code, first.line, first.column, first.severity) == (
        code,
        line,
        column,
        Severity.ERROR,
    )
    assert INTERNAL_ERROR not in {f.code for f in findings}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_file_exits_1_without_a_traceback(name: str, tmp_path: Path) -> None:
    data, code, line, column = HOSTILE[name]
    path = tmp_path / f"{name}.yaml"
    path.write_bytes(data)
    done = run_lint(str(path))
    assert done.code == 1
    assert f"{path}:{line}:{column}: error {code} " in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=400) | st.text(max_size=400).map(lambda t: (HEAD + t).encode()))
def test_any_bytes_give_registered_findings_and_never_raise(data: bytes, workspace: str) -> None:
    findings = lint_bytes(data, "fuzz.yaml", workspace)
    assert {f.code for f in findings} <= set(REGISTRY)
    assert all(f.line >= 1 and f.column >= 1 for f in findings)
