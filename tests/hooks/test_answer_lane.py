"""The hook's answer lane (``hooks.answer_lane``): whatever it answers, the engine answers
the same, to the byte (the agent's stdout and the audit line but its time); it answers only
plain, link-free paths under an unchanged policy and unchanged code; and it does answer them.

Real files, real symlinks, a real policy file; the property compares the lane with the
engine's own answer (``hooks.answer.full_answer``) on the same event.
"""

from __future__ import annotations

import json
import marshal
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from toolpolicy.engine.cache_files import read_entry, write_entry
from toolpolicy.hooks.adapters import ADAPTERS
from toolpolicy.hooks.answer import full_answer
from toolpolicy.hooks.answer_lane import Lane, answer, lane_key, lane_path
from toolpolicy.hooks.hook_args import HookArgs, plain_hook_args

from .conftest import Hook, claude_event

RULES = (
    "{name: no-secrets, behavior: deny, reason: Secrets stay private, "
    "match: {tools: [read_file], paths: ['secrets/**']}}",
    "{name: keys-ask, behavior: ask, reason: Keys need a human, "
    "match: {tools: [read_file], paths: ['*.pem']}}",
    "{name: closed, behavior: deny, reason: Closed by its absolute path, "
    "match: {tools: [read_file], paths: ['/@ws/closed/**']}}",  # @ws: the workspace
    "{name: notes, behavior: deny, reason: Notes stay home, "
    "match: {tools: [read_file], paths: ['~/notes/**']}}",
)
INPUTS: dict[str, dict[str, object]] = {
    "Read": {},
    "Write": {"content": "print('hello')\n"},
    "Edit": {"old_string": "x", "new_string": "y", "replace_all": False},
}
"""Each tool's other ``tool_input`` fields, as Claude Code sends them."""
OPEN = ("ts", "seq", "prev")
"""What differs between two audit lines of the same answer: the time and the chain."""


class Setup:
    """A workspace with files, links in and out, protected folders and a policy."""

    def __init__(self, top: Path) -> None:
        self.ws = top / "project"
        self.outside = top / "elsewhere"
        self.home = top / "home"
        self.cache = top / "cache"
        for folder in (self.ws / "src", self.ws / "secrets", self.ws / ".git", self.outside):
            folder.mkdir(parents=True)
        self.home.mkdir()
        (self.ws / "src" / "a.py").write_text("x\n")
        (self.ws / "secrets" / "k").write_text("k\n")
        (self.ws / ".git" / "config").write_text("[core]\n")
        (self.outside / "stolen").write_text("s\n")
        (self.ws / "out").symlink_to(self.outside)
        (self.ws / "in").symlink_to(self.ws / "src")
        (self.ws / "src" / "up").symlink_to(self.ws / "secrets" / "k")
        self.policy = top / "policy.yaml"
        self.write_policy(*RULES)
        self.audit = top / "audit.jsonl"

    def write_policy(self, *rules: str) -> None:
        body = "".join(f"  - {rule.replace('@ws', str(self.ws))}\n" for rule in rules)
        self.policy.write_text(
            f"apiVersion: toolpolicy/v1\nkind: Policy\nname: team\nextends: P03\nrules:\n{body}"
        )

    def args(self, *flags: str) -> HookArgs:
        found = plain_hook_args(
            ["claude-code", "--audit", str(self.audit), "--policy", str(self.policy), *flags],
            ADAPTERS,
        )
        assert found is not None
        return found

    def event(self, path: str, tool: str = "Read", **extra: object) -> dict[str, Any]:
        return claude_event(self.ws, self.home, tool, {"file_path": path, **INPUTS[tool]}, **extra)

    def records(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.audit.read_text().splitlines()]


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    top = tmp_path_factory.mktemp("lane")
    made = Setup(top.resolve())
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TOOLPOLICY_CACHE_DIR", str(made.cache))
        patch.setenv("CLAUDE_PROJECT_DIR", str(made.ws))
        patch.setenv("HOME", str(made.home))
        patch.chdir(made.ws)
        yield made


def both(
    setup: Setup, event: dict[str, Any], *flags: str, agent: str = "claude-code"
) -> tuple[Any, Any]:
    """The engine's answer and audit line, then the lane's (``None`` when it does not
    answer); the engine answers first, so it builds the lane the event may use."""
    args = setup.args(*flags)._replace(agent=agent)
    raw = json.dumps(event).encode()
    engine = full_answer(ADAPTERS[agent], args, raw)
    engine_line = setup.records()[-1]
    lane = answer(args, raw)
    if lane is None:
        return (engine, engine_line), None
    lane_line = setup.records()[-1]
    assert lane_line["seq"] == engine_line["seq"] + 1  # it appended one line, chained
    return (engine, engine_line), (lane, lane_line)


def _without(line: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in line.items() if k not in OPEN}


SEGMENTS = (
    "src", "a.py", "README.md", "p0", "out", "in", "up", "stolen", "secrets", "k", "k.pem",
    ".git", "config", ".claude", "settings.json", "CON", "con.txt", "nul", "..", ".", "",
    "closed", "Closed", "notes",
    "x y", "ä", "~", "*", "a\\b", "LPT1.log", "Secrets", "K.PEM", "-v",
)  # fmt: skip


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    segments=st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=4),
    mode=st.sampled_from(("default", "plan", "dontAsk", "acceptEdits", 7)),
    name=st.sampled_from(("PreToolUse", "PermissionRequest")),
    ids=st.sampled_from((("sess-1", "toolu_01"), ("other", None), ("s\u00e9", 3))),
    tool=st.sampled_from(sorted(INPUTS)),
)
@example(["src", "a.py"], "default", "PreToolUse", ("sess-1", "t"), "Read")
@example(["out", "stolen"], "default", "PreToolUse", ("s", "t"), "Read")
@example(["secrets", "k"], "default", "PreToolUse", ("s", "t"), "Read")
@example(["src", "up"], "default", "PreToolUse", ("s", "t"), "Read")
@example(["src", "a.py"], "acceptEdits", "PreToolUse", ("s", "t"), "Edit")
@example(["src", "new.py"], "plan", "PreToolUse", ("s", "t"), "Write")
@example(["out", "new.py"], "default", "PreToolUse", ("s", "t"), "Write")
def test_whatever_the_lane_answers_the_engine_answers_alike(
    setup: Setup,
    segments: list[str],
    mode: object,
    name: str,
    ids: tuple[str, object],
    tool: str,
) -> None:
    path = str(setup.ws) + "/" + "/".join(segments)
    extra = {"session_id": ids[0], "tool_use_id": ids[1]}
    event = setup.event(path, tool, permission_mode=mode, hook_event_name=name, **extra)
    engine, lane = both(setup, event)
    if lane is not None:
        assert lane[0] == engine[0]
        assert _without(lane[1]) == _without(engine[1])


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    tool=st.sampled_from(("Read", "Bash", "Edit", "Write", "mcp__s__t", "Unheard", "TodoWrite")),
    given_input=st.sampled_from(
        ({"file_path": "x"}, {"command": "rm -rf /", "timeout": 5}, {}, {"a": True, "b": 1.5})
    ),
    ids=st.sampled_from((("s-1", "toolu_1"), ("s-2", None), ("s\u00e9", 7))),
    mode=st.sampled_from(("default", "plan", None)),
)
def test_what_ran_is_recorded_alike_by_its_lane(
    setup: Setup,
    tool: str,
    given_input: dict[str, object],
    ids: tuple[str, object],
    mode: str | None,
) -> None:
    event = {
        "session_id": ids[0],
        "tool_use_id": ids[1],
        "cwd": str(setup.ws),
        "permission_mode": mode,
        "hook_event_name": "PostToolUse",
        "tool_name": tool,
        "tool_input": given_input,
        "tool_response": {"stdout": "x" * 100},
    }
    engine, lane = both(setup, event)
    assert engine[0] == "" and engine[1]["behavior"] == "executed"
    engine, lane = both(setup, event)  # the first built the lane
    assert lane is not None
    assert lane[0] == ""
    assert _without(lane[1]) == _without(engine[1])


def test_a_multi_edit_that_ran_is_the_engines_to_record(setup: Setup) -> None:
    event = setup.event(f"{setup.ws}/src/a.py", hook_event_name="PostToolUse")
    event["tool_input"]["edits"] = [{"old_string": "a", "new_string": "b"}]
    for _ in range(2):
        assert both(setup, event)[1] is None


GEMINI_TOOLS = {"read_file": {}, "write_file": {"content": "x"}, "replace": INPUTS["Edit"]}


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    segments=st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=3),
    absolute=st.booleans(),
    below=st.sampled_from(("", "src")),
    tool=st.sampled_from(sorted(GEMINI_TOOLS)),
    project=st.sampled_from((None, "", "src")),
)
@example(["a.py"], False, "src", "read_file", None)
@example(["k"], False, "secrets", "read_file", None)
@example(["..", "secrets", "k"], False, "src", "read_file", "")
@example(["up"], False, "src", "replace", None)
def test_gemini_relative_paths_from_its_folder_are_answered_alike(
    setup: Setup, segments: list[str], absolute: bool, below: str, tool: str, project: str | None
) -> None:
    """``$GEMINI_PROJECT_DIR`` (``project``, below the workspace; ``None``: unset) replaces
    the event's cwd as Gemini's project folder, the workspace and relative paths' folder."""
    if project is None:
        os.environ.pop("GEMINI_PROJECT_DIR", None)
    else:
        os.environ["GEMINI_PROJECT_DIR"] = f"{setup.ws}/{project}".rstrip("/")
    try:
        _gemini_alike(setup, segments, absolute, below, tool)
    finally:
        os.environ.pop("GEMINI_PROJECT_DIR", None)


def _gemini_alike(setup: Setup, segments: list[str], absolute: bool, below: str, tool: str) -> None:
    cwd = f"{setup.ws}/{below}".rstrip("/")
    path = "/".join(segments)
    event = {
        "session_id": "g-1",
        "cwd": cwd,
        "hook_event_name": "BeforeTool",
        "timestamp": "2026-11-30T23:01:57.000Z",
        "tool_name": tool,
        "tool_input": {"file_path": f"{cwd}/{path}" if absolute else path, **GEMINI_TOOLS[tool]},
    }
    engine, lane = both(setup, event, agent="gemini")
    if lane is not None:
        assert lane[0] == engine[0]
        assert _without(lane[1]) == _without(engine[1])


def test_gemini_reads_are_answered_by_a_lane(setup: Setup) -> None:
    event = {
        "session_id": "g-1",
        "cwd": f"{setup.ws}/src",
        "hook_event_name": "BeforeTool",
        "tool_name": "read_file",
        "tool_input": {"file_path": "a.py"},
    }
    both(setup, event, agent="gemini")
    event["tool_input"] = {"file_path": "b.py"}
    engine, lane = both(setup, event, agent="gemini")
    assert lane is not None and lane[0] == engine[0] == ""  # Gemini is told denies only
    assert lane[1]["agent"] == "gemini" and lane[1]["behavior"] == "allow"
    # Gemini's workspace is its project folder, the event's cwd
    event.update(cwd=str(setup.ws), tool_input={"file_path": "secrets/k"})
    engine, lane = both(setup, event, agent="gemini")
    assert lane is None and engine[1]["reason"] == "Secrets stay private"


@pytest.mark.parametrize(
    "parts",
    [["src", "a.py"], ["README.md"], ["src", "new", "deep.txt"], ["p0"], ["docs-1", "x.md"]],
)
def test_the_lane_answers_a_plain_link_free_read_as_the_engine_did(
    setup: Setup, parts: list[str]
) -> None:
    both(setup, setup.event(f"{setup.ws}/src/a.py"))  # the engine builds the lane
    event = setup.event(f"{setup.ws}/{'/'.join(parts)}", session_id="s2", tool_use_id="t2")
    engine, lane = both(setup, event)
    assert lane is not None
    assert lane[0] == engine[0] == ""  # a profile default's allow: no opinion
    assert lane[1]["session_id"] == "s2" and lane[1]["call_id"] == "t2"
    assert (lane[1]["behavior"], lane[1]["reason"]) == (
        "allow",
        "No permission rule blocked the request",
    )


@pytest.mark.parametrize("tool", ["Write", "Edit"])
@pytest.mark.parametrize("parts", [["src", "a.py"], ["src", "new.py"], ["notes.md"]])
def test_the_lane_answers_a_plain_write_or_edit_as_the_engine_did(
    setup: Setup, tool: str, parts: list[str]
) -> None:
    both(setup, setup.event(f"{setup.ws}/src/b.py", tool))  # the engine builds the lane
    engine, lane = both(setup, setup.event(f"{setup.ws}/{'/'.join(parts)}", tool))
    assert lane is not None
    assert lane[0] == engine[0]
    assert json.loads(lane[0])["hookSpecificOutput"]["permissionDecision"] == "ask"
    assert lane[1]["tool"] == ("write_file" if tool == "Write" else "edit_file")


def test_a_multi_edit_names_more_files_and_gets_no_lane(setup: Setup) -> None:
    event = setup.event(f"{setup.ws}/src/a.py", "Edit", tool_name="MultiEdit")
    event["tool_input"] = {
        "file_path": f"{setup.ws}/src/a.py",
        "edits": [{"old_string": "x", "new_string": "y"}],
    }
    for _ in range(2):
        assert both(setup, event)[1] is None


@pytest.mark.parametrize(
    ("parts", "reason"),
    [
        (["out", "stolen"], None),  # a link out of the workspace: the boundary denies
        (["src", "up"], "Secrets stay private"),  # a link onto a denied file
        (["in", "a.py"], None),  # a link inside: the engine's, not the lane's
        (["secrets", "k"], "Secrets stay private"),
        (["k.pem"], "Keys need a human"),
        ([".git", "config"], None),
        (["src", "..", "secrets", "k"], "Secrets stay private"),
        (["closed", "x"], "Closed by its absolute path"),
        (["src", "closed"], None),  # the absolute rule's key: the engine's (which allows)
    ],
)
def test_the_lane_leaves_links_rules_and_protected_names_to_the_engine(
    setup: Setup, parts: list[str], reason: str | None
) -> None:
    both(setup, setup.event(f"{setup.ws}/src/a.py"))
    engine, lane = both(setup, setup.event(f"{setup.ws}/{'/'.join(parts)}"))
    assert lane is None
    if reason is not None:
        assert engine[1]["reason"] == reason


def test_a_changed_policy_is_never_answered_from_the_old_lane(setup: Setup) -> None:
    both(setup, setup.event(f"{setup.ws}/src/a.py"))
    args = setup.args()
    raw = json.dumps(setup.event(f"{setup.ws}/src/b.py")).encode()
    assert answer(args, raw) == ""  # the lane answers
    try:
        setup.write_policy(
            *RULES,
            "{name: src-closed, behavior: deny, reason: Source is closed, "
            "match: {tools: [read_file], paths: ['src/**']}}",
        )
        count = len(setup.records())
        assert answer(args, raw) is None  # the policy file's sha256 changed
        assert len(setup.records()) == count  # and it wrote nothing
        text = full_answer(ADAPTERS["claude-code"], args, raw)
        assert json.loads(text)["hookSpecificOutput"]["permissionDecisionReason"] == (
            "Source is closed"
        )
        assert answer(args, raw) is None  # 'src' is a rule's key now: never the lane's
    finally:
        setup.write_policy(*RULES)


def _lane_file(setup: Setup, path: str) -> str:
    key = lane_key(setup.args(), setup.event(path))
    assert key is not None
    return lane_path(key)


def test_a_lane_built_by_other_code_or_altered_is_ignored(setup: Setup) -> None:
    event = setup.event(f"{setup.ws}/src/a.py")
    both(setup, event)
    raw = json.dumps(event).encode()
    file = _lane_file(setup, f"{setup.ws}/src/a.py")
    body = read_entry(file)
    assert body is not None and answer(setup.args(), raw) == ""
    key, files, code, lane = marshal.loads(body)
    stale = [(name, mtime - 1, size) for name, mtime, size in code]
    try:
        write_entry(file, marshal.dumps((key, files, stale, lane)))
        assert answer(setup.args(), raw) is None  # another build of the code
        deny = tuple(Lane(*lane)._replace(text='{"hookSpecificOutput":{}}\n'))
        other = [(setup.policy.as_posix(), "0" * 64, setup.policy.as_posix())]
        write_entry(file, marshal.dumps((key, other, code, deny)))
        assert answer(setup.args(), raw) is None  # another policy file
        moved = [(path, sha, real + ".moved") for path, sha, real in files]
        write_entry(file, marshal.dumps((key, moved, code, lane)))
        assert answer(setup.args(), raw) is None  # a policy file that really is elsewhere
        write_entry(file, marshal.dumps((key, files, code, lane)))
        assert answer(setup.args(), raw) == ""  # as it was built: it answers again
        os.chmod(file, stat.S_IRUSR | stat.S_IWUSR | stat.S_IWOTH)
        assert answer(setup.args(), raw) is None  # writable by others: not ours alone
        os.chmod(file, stat.S_IRUSR | stat.S_IWUSR)
        with open(file, "r+b") as handle:
            handle.seek(-2, os.SEEK_END)
            handle.write(b"\x00\x00")
        assert answer(setup.args(), raw) is None  # its digest no longer holds
    finally:
        os.unlink(file)


@pytest.mark.parametrize(
    ("flags", "agent", "change"),
    [
        (("--audit-arguments",), "claude-code", {}),
        ((), "codex", {}),
        ((), "copilot", {}),
        ((), "claude-code", {"cwd": "relative"}),
        ((), "claude-code", {"session_id": ""}),
        ((), "claude-code", {"tool_input": {"file_path": 3}}),
    ],
)
def test_no_lane_where_the_event_or_the_flags_are_not_the_lanes(
    setup: Setup, flags: tuple[str, ...], agent: str, change: dict[str, object]
) -> None:
    both(setup, setup.event(f"{setup.ws}/src/a.py"))
    args = setup.args(*flags)._replace(agent=agent)
    event = {**setup.event(f"{setup.ws}/src/a.py"), **change}
    assert answer(args, json.dumps(event).encode()) is None


def test_a_read_answered_by_the_lane_in_a_real_process_loads_no_engine(
    hook: Hook, tmp_path: Path
) -> None:
    from .conftest import modules_after_command

    hook.cache = tmp_path / "own-cache"
    (hook.ws / "src").mkdir()
    (hook.ws / "src" / "a.py").write_text("x\n")
    first = hook.event("Read", {"file_path": f"{hook.ws}/src/a.py"})
    second = hook.event("Read", {"file_path": f"{hook.ws}/src/b.py"}, tool_use_id="toolu_02")
    args = ["hook", "claude-code", "--audit", str(hook.audit)]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLPOLICY_", "CLAUDE_"))}
    env.update(TOOLPOLICY_CACHE_DIR=str(hook.cache), CLAUDE_PROJECT_DIR=str(hook.ws))
    env["HOME"] = str(hook.home)
    rc, cold = modules_after_command(args, json.dumps(first), env=env, cwd=hook.ws)
    assert rc == 0 and "toolpolicy.hooks.lane_build" in cold
    rc, warm = modules_after_command(args, json.dumps(second), env=env, cwd=hook.ws)
    assert rc == 0
    assert [m for m in warm if m.startswith(("toolpolicy.engine.selection", "enum"))] == []
    one, two = hook.records()
    assert two["call_id"] == "toolu_02" and two["prev"] is not None and two["seq"] == 2
    assert _without(one) | {"call_id": "toolu_02", "arguments_sha256": ""} == _without(two) | {
        "arguments_sha256": ""
    }


def test_what_ran_is_recorded_from_its_lane_in_a_real_process_without_the_adapters(
    hook: Hook, tmp_path: Path
) -> None:
    from .conftest import modules_after_command

    hook.cache = tmp_path / "own-cache"
    args = ["hook", "claude-code", "--audit", str(hook.audit)]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLPOLICY_", "CLAUDE_"))}
    env.update(TOOLPOLICY_CACHE_DIR=str(hook.cache), CLAUDE_PROJECT_DIR=str(hook.ws))
    env["HOME"] = str(hook.home)
    for n in (1, 2):
        event = hook.event(
            "Bash", {"command": f"make test{n}"}, hook_event_name="PostToolUse", tool_use_id=f"t{n}"
        )
        rc, modules = modules_after_command(args, json.dumps(event), env=env, cwd=hook.ws)
        assert rc == 0
        assert ("toolpolicy.hooks.claude_code" in modules) is (n == 1)  # then its lane's
        assert ("enum" in modules) is (n == 1)
    one, two = hook.records()
    assert (one["reason"], one["behavior"], one["tool"]) == (
        "claude-code ran Bash",
        "executed",
        "shell",
    )
    assert _without(one) | {"call_id": "", "arguments_sha256": ""} == _without(two) | {
        "call_id": "",
        "arguments_sha256": "",
    }


def test_a_file_named_like_a_built_in_layer_is_never_answered_from_the_built_ins_lane(
    setup: Setup,
) -> None:
    """``--policy read-only-commands`` names the shipped layer until a file of that name
    exists in the hook's folder; then the file is the layer, and the lane built before is not
    the answer."""
    event = setup.event(f"{setup.ws}/src/a.py")
    raw = json.dumps(event).encode()
    args = setup.args("--policy", "read-only-commands")
    full_answer(ADAPTERS["claude-code"], args, raw)
    assert answer(args, raw) == ""  # the lane of the shipped layer
    planted = setup.ws / "read-only-commands"
    planted.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: planted\nextends: P03\nrules:\n"
        "  - {name: planted, behavior: deny, reason: Planted layer, "
        "match: {tools: [read_file], paths: ['src/**']}}\n"
    )
    try:
        assert answer(args, raw) is None
        text = full_answer(ADAPTERS["claude-code"], args, raw)
        assert json.loads(text)["hookSpecificOutput"]["permissionDecisionReason"] == (
            "Planted layer"
        )
    finally:
        planted.unlink()


def test_a_policy_file_moved_behind_its_link_is_never_answered_from_the_old_lane(
    setup: Setup,
) -> None:
    """The protected set holds the folder a policy file inside the workspace really is in:
    retarget the link the policy is named by (same contents) and a write to the new folder
    is the engine's (which refuses it), not the old lane's."""
    for folder in ("rules-a", "rules-b"):
        (setup.ws / folder).mkdir(exist_ok=True)
        (setup.ws / folder / "team.yaml").write_text(setup.policy.read_text())
    link = setup.ws.parent / "linked.yaml"
    link.symlink_to(setup.ws / "rules-a" / "team.yaml")
    try:
        args = setup.args()._replace(policies=[str(link)])
        first = json.dumps(setup.event(f"{setup.ws}/src/x.py", "Write")).encode()
        full_answer(ADAPTERS["claude-code"], args, first)
        target = json.dumps(setup.event(f"{setup.ws}/rules-b/new.py", "Write")).encode()
        assert answer(args, target) is not None  # rules-b holds no policy yet: the lane's
        link.unlink()
        link.symlink_to(setup.ws / "rules-b" / "team.yaml")
        assert answer(args, target) is None
        text = full_answer(ADAPTERS["claude-code"], args, target)
        assert json.loads(text)["hookSpecificOutput"]["permissionDecision"] == "deny"
    finally:
        link.unlink()


def test_a_workspace_named_through_a_link_gets_no_lane(setup: Setup) -> None:
    """Red-team finding (round 30): with the project folder a link, a lane kept the folder it
    led to while the key kept the link's text; pointed elsewhere, the lane still answered
    for the old folder (which the engine then finds outside the workspace). Only a spelling
    that is its own real path gets a lane now."""
    link = setup.ws.parent / "proj"
    link.symlink_to(setup.ws)
    saved = os.environ["CLAUDE_PROJECT_DIR"]
    os.environ["CLAUDE_PROJECT_DIR"] = str(link)
    try:
        event = setup.event(f"{setup.ws}/src/a.py", "Write", permission_mode="acceptEdits")
        event["cwd"] = str(link)
        engine, lane = both(setup, event)
        assert lane is None  # no lane was built
        assert engine[1]["behavior"] == "ask"
        other = setup.ws.parent / "elsewhere-ws"
        other.mkdir(exist_ok=True)
        link.unlink()
        link.symlink_to(other)
        engine, lane = both(setup, event)
        assert lane is None
        assert engine[1]["reason"] == "Writing outside the workspace is forbidden"
    finally:
        os.environ["CLAUDE_PROJECT_DIR"] = saved
        link.unlink()


def test_a_hook_whose_folder_is_gone_is_answered_by_the_engine(
    setup: Setup, tmp_path: Path
) -> None:
    """Red-team finding (round 30): the lane read the hook's folder unguarded, so a hook
    started in a deleted folder blocked every event the engine answers; and a builder that
    failed after the engine's answer was audited turned it into a block."""
    event = setup.event(f"{setup.ws}/src/a.py")
    raw = json.dumps(event).encode()
    gone = tmp_path / "gone"
    gone.mkdir()
    os.chdir(gone)
    gone.rmdir()
    try:
        assert answer(setup.args(), raw) is None  # the engine's to answer, no error
        count = len(setup.records())
        assert full_answer(ADAPTERS["claude-code"], setup.args(), raw) == ""
        assert len(setup.records()) == count + 1
    finally:
        os.chdir(setup.ws)


def test_a_change_to_any_module_of_the_package_retires_its_lanes(
    hook: Hook, tmp_path: Path, package_copy: Path
) -> None:
    """Red-team finding (round 30, second look): a lane stamped only the modules its building
    process had loaded, so a change to one it had not (the policy language's validation, the
    shell reader) left it answering. A lane (and a compiled entry) now stamps every source
    file of the package."""
    copy = package_copy
    process = _OwnHookProcess(hook, tmp_path, copy)

    def engine_answered() -> bool:
        return "toolpolicy.engine.selection" in process.modules()

    assert engine_answered()  # and built the lane
    assert not engine_answered()  # the lane's
    with open(copy / "toolpolicy" / "language" / "models.py", "a") as source:
        source.write("# changed\n")
    assert engine_answered()  # a module the lane's builder never loaded changed
    assert not engine_answered()  # and the lane built again
    # Third look: a file added to the built-in profiles' folder (a later file of the same
    # profile name wins there) is an input too.
    profiles = copy / "toolpolicy" / "_data" / "profiles"
    (profiles / "p99.yaml").write_text((profiles / "p03.yaml").read_text())
    assert engine_answered()


def test_another_install_of_a_library_that_reads_policies_retires_lanes_and_entries(
    hook: Hook, tmp_path: Path
) -> None:
    """Left open at stop 30, closed here: the libraries that read a policy file (PyYAML,
    pydantic) were no input of a lane nor of a compiled entry, so after an upgrade that reads
    the same file otherwise both kept answering with the old reading. An install of one (its
    folder, or the folder that holds it, changed) now retires both: the next event is the
    engine's, and it reads and compiles the policy again."""
    import shutil

    import yaml

    site = tmp_path / "site"  # a copy of PyYAML that takes over from the installed one
    shutil.copytree(
        Path(yaml.__file__).parent, site / "yaml", ignore=shutil.ignore_patterns("__pycache__")
    )
    process = _OwnHookProcess(hook, tmp_path, site)
    taken = subprocess.run(
        [sys.executable, "-c", "import yaml; print(yaml.__file__)"],
        capture_output=True, text=True, env=process.env, cwd=hook.ws, timeout=60, check=True,
    )  # fmt: skip
    assert taken.stdout.strip() == str(site / "yaml" / "__init__.py")

    def answered() -> str:
        """Who answered: the lane, the engine from its compiled entry, or the engine after
        reading the policy again (PyYAML loaded)."""
        modules = process.modules()
        if "yaml" in modules:
            return "read"
        return "entry" if "toolpolicy.engine.selection" in modules else "lane"

    assert answered() == "read"  # and wrote the entry and the lane
    assert answered() == "lane"
    (site / "yaml" / "added.py").write_text("")  # an upgrade writes new files
    assert answered() == "read"  # neither the lane nor the entry was used
    assert answered() == "lane"
    with open(site / "yaml" / "__init__.py", "a") as init:  # the same files, edited
        init.write("# another version\n")
    assert answered() == "read"
    (site / "other-1.0.dist-info").mkdir()  # an install beside it
    assert answered() == "read"
    assert answered() == "lane"


class _OwnHookProcess:
    """A Claude Code Read of ``src/a.py`` in ``hook``'s workspace, answered by a fresh hook
    process with a cache of its own and ``site`` first on ``PYTHONPATH`` (a copy of the
    package, or of a library it loads)."""

    def __init__(self, hook: Hook, tmp_path: Path, site: Path) -> None:
        hook.cache = tmp_path / "own-cache"
        (hook.ws / "src").mkdir()
        self.hook = hook
        self.event = json.dumps(hook.event("Read", {"file_path": f"{hook.ws}/src/a.py"}))
        self.args = ["hook", "claude-code", "--audit", str(hook.audit)]
        prefixes = ("TOOLPOLICY_", "CLAUDE_")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}
        self.env.update(TOOLPOLICY_CACHE_DIR=str(hook.cache), CLAUDE_PROJECT_DIR=str(hook.ws))
        self.env.update(HOME=str(hook.home), PYTHONPATH=str(site), PYTHONDONTWRITEBYTECODE="1")

    def modules(self) -> frozenset[str]:
        """Answer the event once (exit 0): every module the process had loaded."""
        from .conftest import modules_after_command

        rc, modules = modules_after_command(self.args, self.event, env=self.env, cwd=self.hook.ws)
        assert rc == 0
        return modules


@pytest.mark.parametrize(
    ("folder", "lane"),
    [("/proc", False), ("/dev", False), ("/proc/self/cwd", False), ("/", False), ("/tmp", True)],
)
def test_no_lane_for_a_workspace_whose_paths_the_kernel_names(folder: str, lane: bool) -> None:
    """Red-team finding (round 30, second look): with ``/proc`` itself as the workspace, a
    lane answered ``/proc/<pid>/cwd``, which the engine reads from the kernel (and asks, or
    denies, when that process is gone)."""
    from toolpolicy.hooks.lane_build import _real_folder

    assert _real_folder(folder) is lane


def test_inputs_that_change_while_the_engine_answers_get_no_lane(setup: Setup) -> None:
    """Red-team finding (round 30, third look): a lane took the policy files' real paths and
    the code's stamp when it was written, after the engine answered; a policy link retargeted
    meanwhile made a lane of an answer given under the old protected set. The inputs are
    taken before the answer now, and a lane is written only if they still hold."""
    from toolpolicy.hooks.answer_lane import lane_inputs
    from toolpolicy.hooks.lane_build import _write

    target = setup.ws.parent / "team-copy.yaml"
    target.write_text(setup.policy.read_text())
    link = setup.ws.parent / "team-link.yaml"
    link.symlink_to(setup.policy)
    lane = Lane("file_path", str(setup.ws), str(setup.ws), 9, frozenset(), frozenset(),
                frozenset(), "", ("{}",), ())  # fmt: skip
    try:
        before = lane_inputs([(str(link), "0" * 64)])
        key = b"inputs-test"
        _write(key, before, lane)
        assert read_entry(lane_path(key)) is not None  # unchanged: written
        os.unlink(lane_path(key))
        link.unlink()
        link.symlink_to(target)  # retargeted while the engine answered
        _write(key, before, lane)
        assert read_entry(lane_path(key)) is None
    finally:
        link.unlink()
