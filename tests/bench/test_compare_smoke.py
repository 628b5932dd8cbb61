"""Smoke test of bench/compare.py: its correctness pre-check must keep passing.

Nothing here is timed. The pre-check is what stops the benchmark from timing an engine that
gives the wrong answer, so it is run for toolpolicy (always) and for each peer that happens
to be installed (skipped otherwise; CI does not install them).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from compare import precheck, scale_subjects  # noqa: E402
from compare_cases import CASES, Case, Workspace, workspace  # noqa: E402
from compare_peers import PEER_NAMES, Peer, available_peers  # noqa: E402
from compare_toolpolicy import (  # noqa: E402
    FRESH_POOL,
    ToolPolicySubject,
    fresh_arguments,
    write_command_policy,
    write_path_policy,
)


@pytest.fixture
def ws() -> Iterator[Workspace]:
    with workspace() as made:
        yield made


def test_precheck_passes_for_toolpolicy_on_every_request_and_small_scale_policy(
    ws: Workspace,
) -> None:
    subject = ToolPolicySubject(ws)
    commands = ToolPolicySubject(ws, [write_command_policy(ws.scratch)])
    paths = ToolPolicySubject(ws, [write_path_policy(ws.scratch)])
    scale = scale_subjects(ws, 10, [])

    assert [item.engine for item in scale] == ["toolpolicy"]
    assert precheck(subject, [], scale, commands, paths) == []


def test_workspace_has_a_real_symlink_that_escapes(ws: Workspace) -> None:
    link = Path(ws.root) / "link"

    assert link.is_symlink()
    assert link.resolve() == Path(ws.outside)
    assert not Path(ws.outside).is_relative_to(ws.root)


def test_the_mix_covers_every_behaviour_and_both_escapes() -> None:
    expected = {case.key: case.expected for case in CASES}

    assert expected == {
        "read": "allow",
        "glob": "allow",
        "write-inside": "ask",
        "edit-inside": "ask",
        "write-dotdot": "deny",
        "write-symlink": "deny",
        "shell": "ask",
        "unknown-tool": "deny",
    }
    assert [case.key for case in CASES if case.escapes] == ["write-dotdot", "write-symlink"]


class _AlwaysAllow(Peer):
    name = "always-allow"
    includes = "a broken engine"

    def bind(self, case: Case) -> Callable[[], str]:
        return lambda: "allow"


def test_a_peer_with_a_wrong_answer_is_reported_and_nothing_is_hidden(ws: Workspace) -> None:
    problems = precheck(ToolPolicySubject(ws), [_AlwaysAllow(ws)])

    assert problems == [
        "always-allow write-inside: expected ask, got allow",
        "always-allow edit-inside: expected ask, got allow",
        "always-allow write-dotdot: expected deny, got allow",
        "always-allow write-symlink: expected deny, got allow",
        "always-allow shell: expected ask, got allow",
        "always-allow unknown-tool: expected deny, got allow",
    ]


@pytest.mark.parametrize("name", PEER_NAMES)
def test_precheck_passes_for_each_installed_peer(ws: Workspace, name: str) -> None:
    if importlib.util.find_spec(name) is None:
        pytest.skip(f"{name} is not installed (pip install -r bench/requirements.txt)")
    peers, _ = available_peers(ws)
    peer = next(p for p in peers if p.name == name)
    scale = scale_subjects(ws, 10, [peer]) if peer.scales else []

    assert precheck(ToolPolicySubject(ws), [peer], scale) == []


def test_compare_check_only_runs_as_a_script_for_toolpolicy_alone() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH / "compare.py"),
            "--check-only",
            "--no-scale",
            "--engines",
            "none",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == (
        "pre-check passed: every engine (toolpolicy) decided all 8 requests"
    )
    assert "FAILED" not in done.stdout + done.stderr


def test_compare_refuses_an_unknown_engine_name() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "compare.py"), "--check-only", "--engines", "opa"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert done.returncode == 2
    assert done.stderr == "unknown engines: opa\n"
    assert done.stdout == ""


def test_a_new_path_each_call_keeps_the_request_shape_and_never_repeats() -> None:
    made = {case.key: [fresh_arguments(case, k) for k in (1, 2)] for case in CASES}

    assert made["read"] == [{"path": "src/a1.py"}, {"path": "src/a2.py"}]
    assert made["glob"][0] == {"pattern": "src/**/*1.py"}
    assert made["write-symlink"][1] == {"path": "link/escape2.txt", "content": "x"}
    assert made["shell"][0] == {"command": "git status && ls src1 | wc -l"}
    assert made["unknown-tool"][0] == {"url": "https://example1.com"}
    for case in CASES:
        first, second = made[case.key]
        assert first.keys() == second.keys() == case.arguments.keys()
        assert first != second and dict(case.arguments) not in (first, second)


def test_a_fresh_row_never_meets_a_call_a_memo_still_holds(ws: Workspace) -> None:
    """The fresh rows take prepared calls in turn: a call comes round again only after more
    new calls than ``check``'s memo and the engine's keep, so neither answers it."""
    from toolpolicy.engine import evaluate, selection

    assert max(selection._MEMO_LIMIT, evaluate._STATIC_LIMIT) * 2 < FRESH_POOL
    subject = ToolPolicySubject(ws)
    shell = next(case for case in CASES if case.key == "shell")
    call = subject.bind_fresh_check(shell)
    call()
    first = ("shell", *fresh_arguments(shell, 0).items())
    assert first in subject.policy._memo
    for _ in range(FRESH_POOL - 1):
        call()
    assert first not in subject.policy._memo
