"""`toolpolicy diff` as a user runs it: real subprocesses, exit codes and every format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolpolicy.diff.run import TWIN_RULES

from .conftest import run_cli

EQUIVALENT_P03 = """\
left:  P03@workspace-write
right: P03@workspace-write
calls: 116 for 32 argument regions, 9 physical probes, 0 recorded

no differences

Facts the rules cannot see (the workspace boundary, symlinks, the protected set) are the \
same on both sides; the physical probes check how each side treats them.

verdict: equivalent (0 of 125 calls decided differently: 0 widen, 0 narrow; \
0 same behavior with a different source)
"""


def test_a_selection_against_itself_prints_no_differences_and_exits_0(tmp_path: Path) -> None:
    done = run_cli("diff", "P03", "workspace-write", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == EQUIVALENT_P03


def test_the_two_default_presets_print_a_table_and_exit_1(tmp_path: Path) -> None:
    done = run_cli("diff", "workspace-write", "danger-full-access", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:3] == [
        "left:  P03@workspace-write",
        "right: P03@danger-full-access",
        "calls: 116 for 32 argument regions, 9 physical probes, 0 recorded",
    ]
    assert lines[4] == "Argument regions (every value the rules tell apart, shortest witness):"
    assert lines[5].split() == ["CALL", "LEFT", "RIGHT", "CHANGE"]
    assert lines[6].split("  ")[1] == "shell command=w"
    assert " ".join(lines[6].split()) == (
        "shell command=w ask (shell-default) [workspace-write] deny (approval-policy) narrow"
    )
    assert lines[7] == "      left: no rule; right: no rule"
    assert "Physical probes" not in done.stdout  # the presets treat the boundary alike
    assert lines[-1] == (
        "verdict: less-permissive (14 of 125 calls decided differently: 0 widen, 14 narrow; "
        "3 same behavior with a different source)"
    )
    assert not any(line.endswith(" none") for line in lines)


def test_fail_on_widen_passes_p02_to_p03_and_fails_the_other_way(tmp_path: Path) -> None:
    tightening = run_cli("diff", "P02", "P03", "--fail-on", "widen", cwd=tmp_path)
    assert tightening.returncode == 0, tightening.stderr
    assert tightening.stdout.splitlines()[-1].startswith("verdict: less-permissive (")
    loosening = run_cli("diff", "P03", "P02", "--fail-on", "widen", cwd=tmp_path)
    assert loosening.returncode == 1
    assert loosening.stdout.splitlines()[-1].startswith("verdict: more-permissive (")
    any_change = run_cli("diff", "P02", "P03", cwd=tmp_path)
    assert any_change.returncode == 1


def test_json_has_the_documented_shape(tmp_path: Path) -> None:
    done = run_cli("diff", "P02", "P03", "--format", "json", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    out = json.loads(done.stdout)
    assert list(out) == [
        "left",
        "right",
        "verdict",
        "probes",
        "regions",
        "summary",
        "recorded",
        "facts",
        "differences",
    ]
    assert (out["left"], out["right"], out["verdict"]) == (
        "P02@workspace-write",
        "P03@workspace-write",
        "less-permissive",
    )
    assert out["summary"] == {"widen": 0, "narrow": 20, "same": 5}
    assert out["recorded"] is None
    assert out["differences"][0]["call"] == {"tool": "shell", "arguments": {"command": "w > /"}}
    first = next(d for d in out["differences"] if d["call"]["tool"] == "write_file")
    assert first["region"]["right"]["at"].startswith("confirm-file-write (")
    first["region"]["right"]["at"] = "..."
    assert first == {
        "call": {"tool": "write_file", "arguments": {"path": "b", "content": "x"}},
        "origin": "region",
        "left": {
            "behavior": "allow",
            "source": "default",
            "reason": "No permission rule blocked the request",
            "sandbox": None,
        },
        "right": {
            "behavior": "ask",
            "source": "confirm-file-write",
            "reason": "File writes require explicit approval from chapter 3 onward",
            "sandbox": None,
        },
        "change": "narrow",
        "region": {
            "tool": "write_file",
            "argument": "path",
            "witness": "b",
            "left": None,
            "right": {
                "rule": "confirm-file-write",
                "at": "...",
                "behavior": "ask",
                "patterns": [],
            },
            "special": None,
        },
    }
    assert len(out["differences"]) == 25
    assert (out["probes"], out["regions"]) == (125, 32)
    physical = [d for d in out["differences"] if d["region"] is None]
    assert {d["origin"] for d in physical} == {
        "boundary: '..' climbs out of the workspace",
        "boundary: symlink escape",
        "boundary: reserved name",
    }
    absolute = [d for d in out["differences"] if d["call"]["arguments"].get("path") == "/"]
    assert absolute[0]["region"]["special"] == "an absolute path"
    assert absolute[0]["right"]["source"] == "workspace-boundary"


def test_all_also_lists_the_probes_that_agree(tmp_path: Path) -> None:
    done = run_cli("diff", "P02", "P03", "--format", "json", "--all", cwd=tmp_path)
    out = json.loads(done.stdout)
    assert len(out["differences"]) + len(out["agreeing"]) == out["probes"]
    assert {e["change"] for e in out["agreeing"]} == {"none"}
    text = run_cli("diff", "P03", "P03", "--all", cwd=tmp_path)
    assert text.returncode == 0
    rows = [line for line in text.stdout.splitlines() if line.endswith(" none")]
    assert len(rows) == 125


def test_markdown_is_a_table_to_paste_into_a_pull_request(tmp_path: Path) -> None:
    done = run_cli("diff", "P02", "P03", "--format", "markdown", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "### toolpolicy diff: `P02@workspace-write` → `P03@workspace-write`"
    assert lines[2] == (
        "**Verdict: less-permissive** (20 of 125 calls decided differently: 0 widen, 20 narrow; "
        "5 same behavior with a different source)."
    )
    assert lines[4:9] == [
        "#### Argument regions (every value the rules tell apart, shortest witness)",
        "",
        "| call | left | right | change | region |",
        "| --- | --- | --- | --- | --- |",
        '| `shell {"command": "w > /"}` | ask (`shell-default`) in workspace-write '
        "| deny (`workspace-boundary`) | **narrow** "
        "| left: no rule; right: workspace-boundary (deny) |",
    ]


def test_markdown_escapes_pipes_and_backticks_in_recorded_calls(tmp_path: Path) -> None:
    calls = tmp_path / "calls.jsonl"
    calls.write_text(
        json.dumps({"tool": "write_file", "arguments": {"path": "a|b`c", "content": "x"}}) + "\n",
        encoding="utf-8",
    )
    done = run_cli(
        "diff", "P02", "P03", "--calls", str(calls), "--format", "markdown", cwd=tmp_path
    )
    row = next(line for line in done.stdout.splitlines() if "a\\|b" in line)
    assert row.startswith('| ``write_file {"path": "a\\|b`c", "content": "x"}`` |')
    assert row.count(" | ") == 4


def test_an_unknown_side_exits_2_naming_it(tmp_path: Path) -> None:
    done = run_cli("diff", "P03", "staging", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "toolpolicy: unknown side 'staging' (expected a preset: workspace-write, "
        "danger-full-access, read-only; a profile: P01, P02, P03; PROFILE@PRESET; "
        "or a policy file)\n"
    )


def test_a_broken_policy_side_exits_2_with_each_problem(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: broken\nrules:\n"
        "  - name: x\n    behavior: sometimes\n",
        encoding="utf-8",
    )
    done = run_cli("diff", "P03", "broken.yaml", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "broken.yaml:6:15:" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_calls_line_that_is_not_json_exits_2_with_file_and_line(tmp_path: Path) -> None:
    calls = tmp_path / "calls.jsonl"
    calls.write_text('{"tool": "glob", "arguments": {"pattern": "*"}}\n{oops\n', encoding="utf-8")
    done = run_cli("diff", "P03", "P02", "--calls", "calls.jsonl", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "toolpolicy: calls.jsonl:2: not JSON: Expecting property name enclosed in double "
        "quotes: line 1 column 2 (char 1)\n"
    )


def test_recorded_calls_are_replayed_and_skipped_lines_reported(tmp_path: Path, team: Path) -> None:
    calls = tmp_path / "audit.jsonl"
    calls.write_text(
        json.dumps(
            {
                "tool": "write_file",
                "arguments": {"path": "third_party/zlib/zutil.c", "content": "x"},
                "behavior": "ask",
            }
        )
        + "\n"
        + json.dumps({"tool": "write_file", "arguments_sha256": "ab" * 32})
        + "\n",
        encoding="utf-8",
    )
    done = run_cli("diff", "P03", "team.yaml", "--calls", "audit.jsonl", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[2] == (
        "calls: 148 for 40 argument regions, 9 physical probes, 1 recorded (replayed 1 recorded "
        "calls from audit.jsonl; 1 lines not replayable: no arguments recorded (record with "
        "--audit-arguments))"
    )
    assert any(
        line.startswith("  write_file path=third_party/zlib/zutil.c content=x ")
        and line.endswith(" narrow")
        for line in lines
    )
    out = json.loads(
        run_cli(
            "diff", "P03", "team.yaml", "--calls", "audit.jsonl", "--format", "json", cwd=tmp_path
        ).stdout
    )
    assert out["recorded"] == {"file": "audit.jsonl", "replayed": 1, "skipped": 1}
    recorded = [d for d in out["differences"] if d["origin"] == "recorded audit.jsonl:1"]
    assert recorded[0]["right"]["source"] == "no-vendored-c"


def test_the_scratch_workspace_is_removed_afterwards(tmp_path: Path) -> None:
    scratch_parent = tmp_path / "tmp"
    scratch_parent.mkdir()
    done = run_cli("diff", "P02", "P03", cwd=tmp_path, env={"TMPDIR": str(scratch_parent)})
    assert done.returncode == 1
    assert "link/escape.txt" in done.stdout
    assert list(scratch_parent.iterdir()) == []


def test_a_diff_with_a_twin_ends_its_process_with_all_its_output_and_nothing_left(
    tmp_path: Path,
) -> None:
    """The process skips the interpreter's teardown (``cli.main._ended``): its whole report
    is still written, its exit code kept, the scratch workspace removed and the twin gone
    (a twin left running would hold the output pipe open: ``run_cli`` would not return)."""
    scratch_parent = tmp_path / "tmp"
    scratch_parent.mkdir()
    sides = []
    for name, flipped in (("left", "deny"), ("right", "allow")):
        rules = [
            f"  - {{name: r{i}, behavior: {flipped if i == 7 else 'deny'}, reason: r, "
            f"match: {{tools: [read_file], paths: ['area{i}/**/*.c']}}}}"
            for i in range(TWIN_RULES)
        ]
        path = tmp_path / f"{name}.yaml"
        header = ["apiVersion: toolpolicy/v1", "kind: Policy", f"name: {name}", "rules:"]
        path.write_text("\n".join([*header, *rules]) + "\n", encoding="utf-8")
        sides.append(str(path))
    done = run_cli(
        "diff", *sides, "--format", "json", cwd=tmp_path, env={"TMPDIR": str(scratch_parent)}
    )
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["verdict"] == "more-permissive"
    found = [(d["call"]["tool"], d["region"]["witness"]) for d in report["differences"]]
    assert ("read_file", "area7/.c") in found
    assert all("area7/.c" in witness for _, witness in found)
    assert list(scratch_parent.iterdir()) == []


def test_a_given_workspace_is_used_for_both_sides_and_left_untouched(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    done = run_cli("diff", "P02", "P03", "--workspace", "ws", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "link/escape.txt" not in done.stdout
    assert list(ws.iterdir()) == []
    (tmp_path / "elsewhere").mkdir()
    (ws / "out").symlink_to(tmp_path / "elsewhere")
    with_link = run_cli("diff", "P02", "P03", "--workspace", "ws", cwd=tmp_path)
    assert (
        " ".join(
            next(line for line in with_link.stdout.splitlines() if "out/escape.txt" in line).split()
        )
        == "write_file path=out/escape.txt content=x "
        "allow (default) deny (workspace-boundary) narrow"
    )
    assert list((tmp_path / "elsewhere").iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("diff", "P03"), "Missing argument 'RIGHT'."),
        (("diff", "P03", "P02", "--format", "yaml"), "Invalid value for '--format'"),
        (("diff", "P03", "P02", "--fail-on", "narrow"), "Invalid value for '--fail-on'"),
        (("diff", "P03", "P02", "--calls", "missing.jsonl"), "Invalid value for '--calls'"),
    ],
)
def test_usage_errors_exit_2(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stdout == ""


def test_profile_serves_the_sides_that_name_only_a_preset(tmp_path: Path) -> None:
    done = run_cli("diff", "read-only", "P02@read-only", "--profile", "P02", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == ["left:  P02@read-only", "right: P02@read-only"]


def test_a_limited_search_is_inconclusive_never_equivalent(tmp_path: Path) -> None:
    """An option that no word can give alone (``-a``, ``-aa``, ... all run as a rule's
    program) leaves the command regions unproven: comparing a policy with itself is then
    not called equivalent; without that rule it is. Forty-five deny programs are no limit."""
    rules = "".join(
        f"  - {{name: d{i}, behavior: deny, reason: r, match: {{commands: [tool{i} run]}}}}\n"
        for i in range(45)
    )
    spelled = (
        "  - {name: o, behavior: deny, reason: r, match: "
        "{commands: [x -a, p --zyxqjk, a, aa, aaa, aaaa]}}\n"
    )
    policy = tmp_path / "many.yaml"
    policy.write_text(
        f"apiVersion: toolpolicy/v1\nkind: Policy\nname: m\nextends: P03\nrules:\n{rules}{spelled}"
    )
    for fail_on in ("any", "widen"):
        done = run_cli("diff", str(policy), str(policy), "--fail-on", fail_on, cwd=tmp_path)
        assert done.returncode == 1, done.stderr
        assert done.stdout.splitlines()[-1].startswith("verdict: inconclusive (0 of ")
        assert done.stdout.splitlines()[-1].endswith(
            "; incomplete: the options of 'x -a' were not all spelled)"
        )
    few = tmp_path / "few.yaml"
    few.write_text(policy.read_text().replace(spelled, ""))
    done = run_cli("diff", str(few), str(few), cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1].startswith("verdict: equivalent (")


def test_a_limited_search_that_found_only_narrowing_still_fails_widen(tmp_path: Path) -> None:
    """Finding a narrowing proves nothing about widening elsewhere: with part of the search
    limited, the verdict is not ``less-permissive`` and ``--fail-on widen`` fails."""
    spelled = (
        "  - {name: o, behavior: deny, reason: r, match: "
        "{commands: [x -a, p --zyxqjk, a, aa, aaa, aaaa]}}\n"
    )
    head = "apiVersion: toolpolicy/v1\nkind: Policy\nname: m\nextends: P03\nrules:\n"
    left = tmp_path / "left.yaml"
    left.write_text(head + spelled)
    right = tmp_path / "right.yaml"
    right.write_text(
        head
        + spelled
        + "  - {name: s, behavior: deny, reason: r, match: {tools: [read_file], paths: [secret]}}\n"
    )
    done = run_cli("diff", str(left), str(right), "--fail-on", "widen", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    last = done.stdout.splitlines()[-1]
    assert last.startswith("verdict: inconclusive (")
    assert "less-permissive" not in done.stdout
    assert last.endswith("; incomplete: the options of 'x -a' were not all spelled)")
    report = json.loads(
        run_cli("diff", str(left), str(right), "--format", "json", cwd=tmp_path).stdout
    )
    assert report["verdict"] == "inconclusive"
    # Narrowing, and the same denial from another source (``w < secret ; w > /``: the
    # right side's read rule, written first, before the left side's boundary); no widening.
    assert {d["change"] for d in report["differences"]} == {"narrow", "same"}
