"""Each probe is decided on both sides; changes and the verdict follow deny < ask < allow."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolpolicy.core.vocabulary import Behavior, SandboxMode
from toolpolicy.diff import Change, DiffReport, Verdict, run_diff
from toolpolicy.diff.compare import Outcome, ProbeResult, change_of, decide
from toolpolicy.diff.probes import Probe
from toolpolicy.engine.selection import load

from .conftest import GIT_STATUS_POLICY, TEAM_POLICY


def _changes(report: DiffReport) -> dict[tuple[str, str], str]:
    return {(r.probe.tool, str(r.probe.arguments)): r.change.value for r in report.differences}


def _find(report: DiffReport, tool: str, arguments: dict[str, object]) -> ProbeResult:
    return next(
        r for r in report.results if r.probe.tool == tool and r.probe.arguments == arguments
    )


def test_the_two_default_presets_differ_on_shell_and_on_file_writes() -> None:
    report = run_diff("workspace-write", "danger-full-access")
    assert (report.left, report.right) == ("P03@workspace-write", "P03@danger-full-access")
    shell = _find(report, "shell", {"command": "w"})
    assert shell.left == Outcome(
        Behavior.ASK,
        "shell-default",
        "Shell execution requires approval",
        SandboxMode.WORKSPACE_WRITE,
    )
    assert shell.right == Outcome(
        Behavior.DENY,
        "approval-policy",
        "Approval policy is never: Shell execution requires approval",
        None,
    )
    assert shell.change is Change.NARROW
    write = _find(report, "write_file", {"path": "b", "content": "x"})
    assert (write.left.behavior, write.right.behavior, write.change) == (
        Behavior.ASK,
        Behavior.DENY,
        Change.NARROW,
    )
    read = _find(report, "read_file", {"path": "b"})
    assert read.change is Change.NONE
    assert report.verdict is Verdict.LESS_PERMISSIVE
    assert report.count(Change.WIDEN) == 0


def test_a_selection_against_itself_is_equivalent_with_zero_differences(team: Path) -> None:
    for side in ("P01", "P02", "P03", "read-only", "P02@danger-full-access", str(team)):
        report = run_diff(side, side)
        assert report.verdict is Verdict.EQUIVALENT, side
        assert report.differences == (), side
        assert len(report.results) > 0


def test_p02_to_p03_is_less_permissive_because_writes_go_from_allow_to_ask() -> None:
    report = run_diff("P02", "P03")
    write = _find(report, "write_file", {"path": "b", "content": "x"})
    assert (write.left.behavior, write.right.behavior) == (Behavior.ALLOW, Behavior.ASK)
    assert (write.left.source, write.right.source) == ("default", "confirm-file-write")
    assert report.verdict is Verdict.LESS_PERMISSIVE
    assert run_diff("P03", "P02").verdict is Verdict.MORE_PERMISSIVE


def test_a_user_deny_on_vendored_c_narrows_only_inside_its_pattern(team: Path) -> None:
    report = run_diff("P03", str(team))
    assert report.verdict is Verdict.LESS_PERMISSIVE
    escalated = {"sandbox_permissions": "danger-full-access", "justification": "probe"}
    # A path rule makes the engine decide the files a shell line names: the boundary then
    # refuses a redirection into a protected path, which P03 leaves to the shell default.
    assert {r.right.source for r in report.differences if r.probe.tool == "shell"} <= {
        "workspace-boundary",
        "no-vendored-c",
    }
    files = [r for r in report.differences if r.probe.tool != "shell"]
    assert [(r.probe.tool, r.probe.arguments) for r in files] == [
        ("write_file", {"path": "third_party/.c", "content": "x"}),
        ("write_file", {"path": "third_party/.c", "content": "x", **escalated}),
        ("edit_file", {"path": "third_party/.c", "old_string": "a", "new_string": "b"}),
        (
            "edit_file",
            {"path": "third_party/.c", "old_string": "a", "new_string": "b", **escalated},
        ),
    ]
    first = files[0]
    assert first.right == Outcome(
        Behavior.DENY, "no-vendored-c", "Vendored C sources are read-only", None
    )
    region = first.probe.region
    assert region is not None and region.left is not None and region.right is not None
    assert (region.left.name, region.right.name) == ("confirm-file-write", "no-vendored-c")
    assert region.right.patterns == ("third_party/**/*.c",)
    # Reads are not in the rule's tools: no read region differs.
    assert not any(r.probe.tool == "read_file" for r in report.differences)


def test_an_allowed_shell_command_widens_and_its_compound_hiding_place_does_not(
    git_status: Path,
) -> None:
    report = run_diff("P03", str(git_status))
    widen = [r.probe.arguments for r in report.differences if r.change is Change.WIDEN]
    assert widen == [{"command": "git status"}]
    # Every other difference is a file the line names, which the boundary decides once a
    # command rule makes the engine read the line (P03 leaves them to the shell default).
    others = [r for r in report.differences if r.change is not Change.WIDEN]
    assert others and {r.right.source for r in others} == {"workspace-boundary"}
    hidden = decide(
        load(str(git_status)), Probe("shell", {"command": "true && git status"}, "test")
    )
    assert hidden.behavior is Behavior.ASK


def test_a_wider_sandbox_for_an_allowed_execute_call_is_a_widen(git_status: Path) -> None:
    report = run_diff(f"{git_status}@read-only", f"{git_status}@workspace-write")
    status = _find(report, "shell", {"command": "git status"})
    assert (status.left.sandbox, status.right.sandbox) == (
        SandboxMode.READ_ONLY,
        SandboxMode.WORKSPACE_WRITE,
    )
    assert status.change is Change.WIDEN
    back = run_diff(f"{git_status}@workspace-write", f"{git_status}@read-only")
    assert _find(back, "shell", {"command": "git status"}).change is Change.NARROW


def test_a_call_a_side_cannot_make_is_a_deny_from_its_error_code() -> None:
    report = run_diff("P01", "P02")
    read = _find(report, "read_file", {"path": "b"})
    assert read.left == Outcome(
        Behavior.DENY, "unknown_tool", "Error [unknown_tool]: Unknown tool: read_file", None
    )
    assert read.change is Change.WIDEN


def test_same_behavior_from_another_source_is_listed_but_keeps_equivalence(
    tmp_path: Path,
) -> None:
    policy = tmp_path / "reads.yaml"
    policy.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: reads\nextends: P03\nrules:\n"
        "  - name: reads-ok\n    behavior: allow\n    reason: Reading is fine\n"
        "    match: {tools: [read_file]}\n",
        encoding="utf-8",
    )
    report = run_diff("P03", str(policy))
    assert report.verdict is Verdict.EQUIVALENT
    same = [r for r in report.differences]
    assert same and all(r.change is Change.SAME for r in same)
    assert same[0].left.source == "default" and same[0].right.source == "reads-ok"


@pytest.mark.parametrize(
    ("left", "right", "change"),
    [
        ((Behavior.DENY, "a", None), (Behavior.ASK, "b", None), Change.WIDEN),
        ((Behavior.ASK, "a", None), (Behavior.ALLOW, "a", None), Change.WIDEN),
        ((Behavior.ALLOW, "a", None), (Behavior.DENY, "a", None), Change.NARROW),
        (
            (Behavior.ASK, "a", SandboxMode.READ_ONLY),
            (Behavior.ASK, "b", SandboxMode.DANGER_FULL_ACCESS),
            Change.WIDEN,
        ),
        (
            (Behavior.ALLOW, "a", SandboxMode.DANGER_FULL_ACCESS),
            (Behavior.ALLOW, "a", SandboxMode.WORKSPACE_WRITE),
            Change.NARROW,
        ),
        ((Behavior.ALLOW, "a", None), (Behavior.ALLOW, "b", None), Change.SAME),
        ((Behavior.DENY, "a", None), (Behavior.DENY, "a", None), Change.NONE),
    ],
)
def test_change_follows_the_behavior_order_then_the_sandbox_order(
    left: tuple[Behavior, str, SandboxMode | None],
    right: tuple[Behavior, str, SandboxMode | None],
    change: Change,
) -> None:
    assert (
        change_of(
            Outcome(left[0], left[1], "r", left[2]), Outcome(right[0], right[1], "r", right[2])
        )
        is change
    )


def test_the_verdict_of_mixed_changes_is_incomparable(tmp_path: Path) -> None:
    both = tmp_path / "both.yaml"
    both.write_text(TEAM_POLICY + GIT_STATUS_POLICY.split("rules:\n", 1)[1], encoding="utf-8")
    report = run_diff("P03", str(both))
    # One widen (git status); four narrows on the file tools, four on shell lines writing
    # the same file (with and without escalation; alone, and after reading outside, which
    # P03 asks for in a quoted line). A protected write is denied on both sides alike: the
    # boundary decides written files with or without rules.
    assert (report.count(Change.WIDEN), report.count(Change.NARROW)) == (1, 8)
    shell = [r for r in report.differences if r.change is Change.NARROW and r.probe.tool == "shell"]
    assert len(shell) == 4
    assert {r.right.source for r in shell} == {"no-vendored-c"}
    assert report.verdict is Verdict.INCOMPARABLE


def test_a_denied_execute_call_carries_no_sandbox(tmp_path: Path) -> None:
    p03 = load("P03", preset="danger-full-access", workspace=tmp_path)
    outcome = decide(p03, Probe("shell", {"command": "ls"}, "test"))
    assert outcome.sandbox is None and outcome.behavior is Behavior.DENY


def test_deciding_never_runs_a_handler_or_touches_the_workspace(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    report = run_diff("P02", "P03", workspace=str(ws))
    assert report.differences
    assert list(ws.iterdir()) == []
    assert not (tmp_path / "outside.txt").exists()


def test_a_request_for_a_mode_no_wider_than_a_sides_is_a_region_of_its_own(
    tmp_path: Path,
) -> None:
    """Red team, round 31: only wider escalation requests were probed, so a write asking for
    ``read-only`` — refused under workspace-write as no escalation, under read-only by the
    sandbox — was never compared (the same behavior, another source)."""
    report = run_diff("workspace-write", "read-only", workspace=str(tmp_path))
    found = next(
        r
        for r in report.differences
        if r.probe.tool == "write_file"
        and r.probe.region is not None
        and r.probe.region.special is None  # a plain path inside
        and isinstance(r.probe.arguments, dict)
        and r.probe.arguments.get("sandbox_permissions") == "read-only"
    )
    arguments = dict(found.probe.arguments)  # type: ignore[arg-type]
    assert (found.left.behavior, found.left.source) == (Behavior.DENY, "sandbox-escalation")
    assert found.left.reason == "Sandbox escalation must ask for a wider mode than workspace-write"
    assert (found.right.behavior, found.right.source) == (Behavior.DENY, "sandbox")
    assert found.right.reason == "The read-only sandbox does not allow writes"
    assert found.change is Change.SAME
    for side, outcome in (("workspace-write", found.left), ("read-only", found.right)):
        decided = load("P03", preset=side, workspace=tmp_path).check("write_file", arguments)
        assert (decided.behavior, decided.source) == (outcome.behavior, outcome.source)


def test_a_side_that_reads_files_only_on_some_lines_shows_its_boundary_pairs(
    tmp_path: Path,
) -> None:
    """A profile without rules of its own decides a line's files only on some lines (a
    quote, a ``$``, a glob, a protected name, ``rm -r``, ``curl``); P02 → P03 once missed
    ``rm -r /tmp/x`` (the same behavior, another source; a strict xfail in round 31). The
    search now spells every command quoted too, where such a side reads it."""
    ws = tmp_path / "ws"
    ws.mkdir()
    line = "rm -r /tmp/x"
    p02 = load("P02", workspace=ws).check("shell", {"command": line})
    p03 = load("P03", workspace=ws).check("shell", {"command": line})
    assert (p02.behavior.label, p02.source) == ("ask", "shell-default")
    assert (p03.behavior.label, p03.source) == ("ask", "workspace-boundary")
    report = run_diff("P02", "P03", workspace=str(ws))
    pairs = {
        ((r.left.behavior.label, r.left.source), (r.right.behavior.label, r.right.source))
        for r in report.differences
        if r.probe.tool == "shell"
    }
    assert (("ask", "shell-default"), ("ask", "workspace-boundary")) in pairs
    assert report.incomplete is None


def _shell_rules(path: Path, rules: list[tuple[str, str, str]]) -> str:
    lines = ["apiVersion: toolpolicy/v1", "kind: Policy", f"name: {path.stem}", "extends: P03"]
    lines.append("rules:")
    for name, behavior, pattern in rules:
        lines += [f"  - name: {name}", f"    behavior: {behavior}", "    reason: r", "    match:"]
        lines += ["      tools: [shell]", f'      commands: ["{pattern}"]']
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_a_deny_pattern_word_with_a_break_character_is_compared_as_the_engine_reads_it(
    tmp_path: Path,
) -> None:
    """Red team, round 32: the runs of words the deny and ask patterns read never hold a
    word with ``=``, ``:`` or ``,``; the engine never hit ``a=b`` while the search read it as
    a word, and called two sides ``equivalent`` that decided ``x a=b`` differently. Both now
    read it as ``a b``: the sides agree, and the diff says so completely."""
    ws = tmp_path / "ws"
    ws.mkdir()
    ask = ("p", "ask", "a=b")
    left = _shell_rules(tmp_path / "left.yaml", [ask, ("al", "allow", "x a=b")])
    right = _shell_rules(tmp_path / "right.yaml", [ask])
    for side in (left, right):
        decided = load(side, workspace=ws).check("shell", {"command": "x a=b"})
        assert (decided.behavior.label, decided.source) == ("ask", "p")
    report = run_diff(left, right, workspace=str(ws))
    assert (report.verdict, report.incomplete) == (Verdict.EQUIVALENT, None)


def test_a_long_option_value_no_run_holds_leaves_the_diff_inconclusive(tmp_path: Path) -> None:
    """A long option keeps its value (``--o=b`` is read by its name), a word the runs never
    hold (they hold ``--o`` and ``b``): the search does not model it and says so."""
    ws = tmp_path / "ws"
    ws.mkdir()
    left = _shell_rules(tmp_path / "left.yaml", [("d", "deny", "x --o=b")])
    right = _shell_rules(tmp_path / "right.yaml", [("a", "allow", "x")])
    report = run_diff(left, right, workspace=str(ws))
    assert report.verdict is not Verdict.EQUIVALENT
    assert report.incomplete is not None
    assert "the pattern 'x --o=b' holds a word no run of words holds" in report.incomplete


def test_a_line_decided_unlike_its_region_names_leaves_the_diff_incomplete() -> None:
    """Found by the completeness property (CI, end of stop 31): a program given several
    arguments may copy into the last, a folder (``w a w`` writes below ``w``), and those
    writes are decided after every other file of the line, so in ``w a w ; w /`` the
    boundary's ask on ``/`` decides, while the search's model of joined commands keeps them
    in their command's place and names the rule on ``?/``. The decisions shown are the
    engine's; that the region's rule is not makes the comparison incomplete (a region may be
    missing), never ``equivalent``."""
    from .test_completeness import _diff_and_check

    left = [
        {"behavior": "deny", "paths": ["//?"], "tools": None},
        {"behavior": "ask", "paths": ["?/"], "tools": ["write_file"]},
        {"behavior": "deny", "tools": None, "commands": ["b"]},
    ]
    right = [
        {"behavior": "deny", "tools": None, "paths": ["?-"]},
        {"behavior": "allow", "tools": None, "commands": ["* a *"]},
    ]
    report = _diff_and_check(left, right)
    assert report.incomplete == (
        "incomplete: the line 'w a w ; w /' is decided by 'workspace-boundary', "
        "not by 'r1' as the search of its region had it"
    )
