"""The Claude Code hook fed random bytes, mutated events and hostile payloads.

Outcomes allowed: exit 0 with exactly one JSON answer line (allow, ask or deny) or nothing at
all (no opinion) and nothing on stderr, or exit 2 with exactly one ``toolpolicy hook: ...``
line on stderr and nothing on stdout. Every audit line written parses. A Write or Edit aimed
outside ``cwd`` is never allowed. Most cases run ``run_hook`` in-process (fast); the hostile
ones run as real processes under a memory limit and a timeout.
"""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy.hooks.entry import run_hook

from .conftest import build_trap, policy_file
from .mutations import mutated
from .test_path_zoo import zoo_paths

EXAMPLES = 300
MEMORY_LIMIT = 1 << 30

TOOLS = ["Bash", "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Glob", "Grep", "LS"]
OTHER_TOOLS = ["WebFetch", "mcp__fs__write", "", "write_file", "Task", "\x00"]
json_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def hook_dirs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A booby-trapped workspace and the audit file, shared by every example of a test."""
    base = tmp_path_factory.mktemp("hook")
    trap = build_trap(base)
    return trap.ws, base / "audit.jsonl"


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for key in list(os.environ):
        if key.startswith("TOOLPOLICY_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("TOOLPOLICY_CACHE_DIR", str(tmp_path / "cache"))


def _run(data: bytes, audit: Path, *flags: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_hook(["claude-code", "--audit", str(audit), *flags], io.BytesIO(data), out, err)
    return code, out.getvalue(), err.getvalue()


def _assert_clean(code: int, out: str, err: str) -> str | None:
    """The decision label on exit 0 (``"none"`` for no opinion); ``None`` on exit 2."""
    assert "Traceback" not in out + err
    if code == 0:
        assert err == ""
        if out == "":
            return "none"
        assert out.endswith("\n") and out.count("\n") == 1
        answer = json.loads(out)["hookSpecificOutput"]
        if answer["hookEventName"] == "PermissionRequest":
            assert answer["decision"]["behavior"] in ("allow", "deny")
            return str(answer["decision"]["behavior"])
        assert answer["hookEventName"] == "PreToolUse"
        assert answer["permissionDecision"] in ("allow", "ask", "deny")
        return str(answer["permissionDecision"])
    assert code == 2
    assert out == ""
    assert err.startswith("toolpolicy hook: ") and err.endswith("\n") and err.count("\n") == 1
    return None


def _assert_audit_parses(audit: Path) -> None:
    if audit.exists():
        for line in audit.read_bytes().splitlines():
            assert isinstance(json.loads(line), dict)


def _event(ws: Path, tool: str, tool_input: object, **changes: object) -> dict[str, object]:
    event: dict[str, object] = {
        "session_id": "sess-fuzz",
        "transcript_path": str(ws / "t.jsonl"),
        "cwd": str(ws),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_fuzz",
    }
    event.update(changes)
    return event


SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@SETTINGS
@given(data=st.binary(max_size=1024))
def test_random_bytes_on_stdin_block_cleanly(hook_dirs: tuple[Path, Path], data: bytes) -> None:
    _, audit = hook_dirs
    code, out, err = _run(data, audit)
    _assert_clean(code, out, err)
    _assert_audit_parses(audit)


@st.composite
def structured_events(draw: st.DrawFn, ws: Path) -> dict[str, object]:
    """Events with the right shape and random contents: tools, inputs, cwd, ids, extras."""
    tool = draw(st.sampled_from(TOOLS + OTHER_TOOLS))
    tool_input = draw(
        st.one_of(
            st.fixed_dictionaries(
                {},
                optional={
                    "command": json_values | st.sampled_from(["rm -rf /", "echo $(id)", ""]),
                    "file_path": json_values | zoo_paths(),
                    "path": json_values | zoo_paths(),
                    "content": json_values,
                    "old_string": json_values,
                    "new_string": json_values,
                    "edits": json_values,
                    "pattern": json_values,
                    "notebook_path": json_values,
                },
            ),
            json_values,
        )
    )
    changes = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "cwd": st.sampled_from(["", "relative", "/nonexistent/dir", str(ws / "a"), "/"])
                | json_values,
                "hook_event_name": st.sampled_from(["PostToolUse", "", "pretooluse"]) | json_values,
                "tool_use_id": json_values,
                "session_id": json_values,
                "tool_name": json_values,
            },
        )
    )
    return _event(ws, tool, tool_input, **changes)


@SETTINGS
@given(data=st.data())
def test_events_with_random_contents_get_a_decision_or_block_cleanly(
    hook_dirs: tuple[Path, Path], data: st.DataObject
) -> None:
    ws, audit = hook_dirs
    event = data.draw(structured_events(ws))
    code, out, err = _run(json.dumps(event).encode(), audit)
    _assert_clean(code, out, err)
    _assert_audit_parses(audit)


VALID_EVENT = json.dumps(
    _event(Path("/WS"), "Write", {"file_path": "/WS/notes.txt", "content": "hello"})
).encode()


@SETTINGS
@given(data=st.data())
def test_mutated_events_get_a_decision_or_block_cleanly(
    hook_dirs: tuple[Path, Path], data: st.DataObject
) -> None:
    ws, audit = hook_dirs
    raw = data.draw(mutated(VALID_EVENT.replace(b"/WS", str(ws).encode())))
    code, out, err = _run(raw, audit)
    _assert_clean(code, out, err)
    _assert_audit_parses(audit)


OUTSIDE_SPELLINGS = [
    "{ws}/../outside/new.txt",
    "{ws}/link_out/new.txt",
    "{ws}/chain1/new.txt",
    "{ws}/dangling_out",
    "{ws}/file_link_out",
    "{ws}/a/deep_out/new.txt",
    "{ws}/root_link{base}/outside/new.txt",
    "{base}/outside/existing.txt",
    "{ws}//..//outside/new.txt",
    "{ws}/./a/../../outside/new.txt",
    "../outside/new.txt",
    "link_out/new.txt",
]


@SETTINGS
@given(
    spelling=st.sampled_from(OUTSIDE_SPELLINGS),
    tool=st.sampled_from(["Write", "Edit", "MultiEdit"]),
    flags=st.sampled_from(
        [
            (),
            ("--preset", "danger-full-access"),
            ("--sandbox", "danger-full-access"),
            ("--approval", "never"),
            ("--policy", "{policy}"),
        ]
    ),
)
def test_a_write_event_aimed_outside_the_workspace_is_never_allowed(
    hook_dirs: tuple[Path, Path], spelling: str, tool: str, flags: tuple[str, ...]
) -> None:
    ws, audit = hook_dirs
    path = spelling.format(ws=ws, base=ws.parent)
    flags = tuple(flag.format(policy=_allow_everything(ws.parent)) for flag in flags)
    tool_input: dict[str, object] = (
        {"file_path": path, "content": "x"}
        if tool == "Write"
        else {"file_path": path, "old_string": "a", "new_string": "b"}
    )
    code, out, err = _run(json.dumps(_event(ws, tool, tool_input)).encode(), audit, *flags)
    assert _assert_clean(code, out, err) == "deny"


def _allow_everything(directory: Path) -> str:
    path = directory / "allow-everything.yaml"
    if not path.exists():
        policy_file(directory, [{"behavior": "allow", "match": {"tools": ["*"]}}])
        (directory / "adversarial-policy.yaml").rename(path)
    return str(path)


@pytest.mark.parametrize("profile", ["P01", "P02", "P03"])  # P01 has no write tools
def test_the_hook_never_allows_a_write_outside_cwd_under_any_profile(
    hook_dirs: tuple[Path, Path], profile: str
) -> None:
    ws, audit = hook_dirs
    event = _event(
        ws, "Write", {"file_path": str(ws.parent / "outside" / "new.txt"), "content": "x"}
    )
    code, out, err = _run(json.dumps(event).encode(), audit, "--profile", profile)
    assert _assert_clean(code, out, err) == "deny"


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


HOSTILE_EVENTS = {
    "deep-nesting": b"[" * 200_000 + b"]" * 200_000,
    "deep-object": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    "over-8-mib": b" " * (8 * 1024 * 1024 + 10),
    "huge-number": b'{"tool_use_id": 1' + b"0" * 100_000 + b"}",
    "many-keys": b"{" + b",".join(b'"k%d":1' % i for i in range(300_000)) + b"}",
    "huge-command": json.dumps(
        _event(Path("/"), "Bash", {"command": "echo " + "a && " * 1_000_000})
    ).encode(),
    "nul-command": json.dumps(_event(Path("/"), "Bash", {"command": "ls\x00rm -rf /"})).encode(),
    "lone-surrogate": b'{"tool_name": "\\ud800"}',
}


@pytest.mark.parametrize("name", sorted(HOSTILE_EVENTS))
def test_a_hostile_event_is_answered_in_bounded_time_and_memory(tmp_path: Path, name: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLPOLICY_")}
    env["TOOLPOLICY_CACHE_DIR"] = str(tmp_path / "cache")
    done = subprocess.run(
        [sys.executable, "-m", "toolpolicy", "hook", "claude-code", "--audit", str(tmp_path / "a")],
        input=HOSTILE_EVENTS[name],
        capture_output=True,
        timeout=60,
        preexec_fn=_limit_memory,
        cwd=tmp_path,
        env=env,
    )
    decision = _assert_clean(done.returncode, done.stdout.decode(), done.stderr.decode())
    assert decision in (None, "none", "ask", "deny")
