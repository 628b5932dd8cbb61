"""A file tool's plain lane answers exactly what the full decision would, or nothing.

``ToolPolicy.check`` answers a plain call (a file tool's required arguments, a path no rule
key or protected name looks at) with the tool's one remembered decision. Random policies of
every indexed rule shape, random knobs and random paths — ``..``, absolute, ``~``, ``.git``,
protected names in any case, reserved device names, illegal and control characters,
unicode, trailing slashes, glob characters — must get from ``check`` what a fresh engine
decides, or the same ``CallRejected``. Breaking the lane's tests (the plainness of the text,
the key names) must make that comparison fail.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy.compile.index import PathKeys
from toolpolicy.core.decision import Decision
from toolpolicy.core.errors import CallRejected
from toolpolicy.core.vocabulary import Behavior
from toolpolicy.engine import plain_lane
from toolpolicy.engine.cache import load_sources
from toolpolicy.engine.evaluate import DecisionEngine
from toolpolicy.engine.plain_lane import NO_LANE, is_plain_text, rule_keys
from toolpolicy.engine.selection import ToolPolicy, assemble, load
from toolpolicy.tools.protected import GIT_REASON, ProtectedEntry, ProtectedSet
from toolpolicy.tools.workspace import LexicalBoundary, normalized_path

from .conftest import Workspace

Call = tuple[str, object]

# Path patterns of every shape the index files (see ``compile.index``).
_PATTERNS = {
    "first": ["secrets/**", "Vault/*.txt", "src/gen/**", "/build"],
    "segment": ["**/private/**", "secret.txt", "hooks", "**/NUL.d/**"],
    "extension": ["*.pem", "**/id_*.pub", "*.YAML"],
    "unkeyed": ["**/*", "*", "?"],
    "outside": ["~/.ssh/**", "//etc/shadow"],
}
_KEYED = _PATTERNS["first"] + _PATTERNS["segment"] + _PATTERNS["extension"]
_TOOLS = [["read_file"], ["write_file", "edit_file"], ["*_file"], ["glob"], None]
# Segments whose text is plain: some of them are rule keys or protected names in some case.
_PLAIN_SEGMENTS = [
    *("src", "a.py", "x.pem", "X.PEM", "id_rsa.pub", "b.yaml", "b.YAML", "gen", "build"),
    *("-", "=x", "@a", "%", ",", "x" * 255, "contents", "auxiliary", "null", "lpt", "common"),
    *("secrets", "Secrets", "SECRETS", "Vault", "vault", "private", "PRIVATE", "secret.txt"),
    *("hooks", "HOOKS", "policies", "Policies", "lane.yaml", "LANE.yaml", "nul.d", "NUL.D"),
]
_OTHER_SEGMENTS = [
    *(".git", ".GIT", ".Git", ".github", ".claude", "settings.json", ".codex", ".gemini"),
    *("con", "CON", "NUL.txt", "lpt1", "Com9.log", "com\u00b9", "conin$", "aux ", "nul.", "prn.x"),
    *(".", "..", "...", "", "~", "~x", "*", "a?b", "[x]", "a\\b", "C:", "a:b", "<", ">"),
    *("\u00e9", "\u212a", "\u017fecrets", "a\x00b", "a\x1fb", "\x7f", " a", "a.", "a b"),
    *("a\u00a0", "y" * 256, "\ud800"),
]
_SEGMENT = st.one_of(
    st.sampled_from(_PLAIN_SEGMENTS),
    st.sampled_from(_PLAIN_SEGMENTS),
    st.sampled_from(_PLAIN_SEGMENTS),
    st.sampled_from(_OTHER_SEGMENTS),
    st.text(max_size=4),
)
_PATH = st.builds(
    lambda head, parts, tail: head + "/".join(parts) + tail,
    st.sampled_from(["", "", "", "", "", "/", "//", "~/", "./", "\\"]),
    st.lists(_SEGMENT, min_size=0, max_size=4),
    st.sampled_from(["", "", "", "", "", "/", "//", "/."]),
)


class _Text(str):
    __slots__ = ()


def _arguments(tool: str, path: str, shape: str) -> object:
    """The arguments of one call of ``tool`` in a given shape (plain, or one of many ways
    to be something else)."""
    required: dict[str, object] = {"path": path}
    if tool == "write_file":
        required["content"] = "x"
    elif tool == "edit_file":
        required.update(old_string="a", new_string="b")
    elif tool == "glob":
        required = {"pattern": path}
    elif tool == "shell":
        required = {"command": f"cat {path}"}
    shapes: dict[str, object] = {
        "plain": required,
        "json": json.dumps(required),
        "extra": {**required, "extra": "x"},
        "flag": {**required, "replace_all": True},
        "escalation": {
            **required,
            "sandbox_permissions": "danger-full-access",
            "justification": "needed",
        },
        "int-path": {**required, "path": 1},
        "str-subclass": {**required, "path": _Text(path)},
        "long-content": {**required, "content": "x" * (4 * 1024 * 1024 + 1)},
        "missing": {k: v for k, v in required.items() if k != "path"},
        "none": None,
    }
    return shapes[shape]


_CALLS = st.lists(
    st.builds(
        lambda tool, path, shape: (tool, _arguments(tool, path, shape)),
        st.sampled_from(["read_file"] * 3 + ["write_file"] * 3 + ["edit_file"] * 2)
        | st.sampled_from(["read_file", "write_file", "glob", "shell", "fetch_url"]),
        _PATH,
        st.sampled_from(["plain"] * 10 + ["json", "extra", "flag", "escalation", "int-path"])
        | st.sampled_from(["plain", "str-subclass", "long-content", "missing", "none"]),
    ),
    min_size=1,
    max_size=25,
)
_RULE = st.fixed_dictionaries(
    {
        "behavior": st.sampled_from(["deny", "ask", "allow"]),
        "tools": st.sampled_from(_TOOLS),
        "paths": st.none()
        | st.lists(
            st.sampled_from(_KEYED) | st.sampled_from(_PATTERNS["unkeyed"] + _PATTERNS["outside"]),
            min_size=1,
            max_size=2,
            unique=True,
        ),
    }
)
_KEYED_RULE = st.fixed_dictionaries(
    {
        "behavior": st.sampled_from(["deny", "ask", "allow"]),
        "tools": st.sampled_from([*_TOOLS[:3], None]),
        "paths": st.lists(st.sampled_from(_KEYED), min_size=1, max_size=4, unique=True),
    }
)
_KNOBS = st.sampled_from(
    [
        {},
        {"sandbox": "read-only"},
        {"sandbox": "danger-full-access"},
        {"approval": "never"},
        {"preset": "danger-full-access"},
        {"preset": "read-only", "approval": "never"},
    ]
)


def _policy_text(rules: list[dict[str, object]]) -> str:
    written = []
    for n, rule in enumerate(rules):
        match: dict[str, object] = {}
        if rule["tools"] is not None:
            match["tools"] = rule["tools"]
        if rule["paths"] is not None:
            match["paths"] = rule["paths"]
        if not match:
            match["effects"] = ["read", "write"]
        written.append(
            {"name": f"r{n}", "behavior": rule["behavior"], "reason": f"rule {n}", "match": match}
        )
    document = {"apiVersion": "toolpolicy/v1", "kind": "Policy", "name": "lane", "rules": written}
    return json.dumps(document)  # JSON is YAML


def _fresh_decision(policy: ToolPolicy, tool: str, arguments: object) -> Decision | str:
    """What an engine that remembers nothing decides, or the rejection's text."""
    try:
        request = policy.request(tool, arguments)  # type: ignore[arg-type]
    except CallRejected as rejected:
        return rejected.content
    engine = DecisionEngine(
        policy.compiled,
        LexicalBoundary(policy.workspace),
        enforces=policy.engine.enforces_policy,
        protected=policy.engine.protected,
    )
    return engine.evaluate(request, policy.knobs).effective


def _checked(policy: ToolPolicy, tool: str, arguments: object) -> Decision | str:
    try:
        return policy.check(tool, arguments)  # type: ignore[arg-type]
    except CallRejected as rejected:
        return rejected.content


def _disagreements(policy: ToolPolicy, calls: list[Call]) -> list[tuple[str, object, object]]:
    """Every call on which ``check`` (lane, memo) and a fresh engine disagree."""
    found = []
    for tool, arguments in calls * 2:  # the second round may meet what the first kept
        wanted = _fresh_decision(policy, tool, arguments)
        got = _checked(policy, tool, arguments)
        if got != wanted:
            found.append((tool, arguments, got))
    return found


@contextmanager
def _workspace(factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    base = factory.mktemp("lane")
    ws = Workspace(base / "ws", base / "outside")
    ws.root.mkdir()
    ws.outside.mkdir()
    yield ws


def _load(
    ws: Workspace, rules: list[dict[str, object]], where: str, knobs: dict[str, str]
) -> ToolPolicy:
    folder = {"root": ws.root, "folder": ws.root / "policies", "outside": ws.outside}[where]
    folder.mkdir(exist_ok=True)
    path = folder / "lane.yaml"
    path.write_text(_policy_text(rules))
    return load(workspace=ws.root, policies=[path], **knobs)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.lists(_RULE, max_size=4),
    where=st.sampled_from(["root", "folder", "outside"]),
    knobs=_KNOBS,
    calls=_CALLS,
)
def test_check_with_its_lanes_decides_as_a_fresh_engine(
    tmp_path_factory: pytest.TempPathFactory,
    rules: list[dict[str, object]],
    where: str,
    knobs: dict[str, str],
    calls: list[Call],
) -> None:
    with _workspace(tmp_path_factory) as ws:
        policy = _load(ws, rules, where, knobs)
        assert _disagreements(policy, calls) == []


# Plain segments that are, in some case, a key of ``_PATTERNS`` or the policy folder.
_KEY_SEGMENTS = [
    *("x.pem", "X.PEM", "id_rsa.pub", "b.YAML", "b.yaml", "secrets", "Secrets", "Vault"),
    *("vault", "private", "PRIVATE", "secret.txt", "hooks", "HOOKS", "policies", "Policies"),
    *("lane.yaml", "gen", "build", "src", "a.py"),
]
_PLAIN_CALLS = st.lists(
    st.builds(
        lambda tool, parts: (tool, _arguments(tool, "/".join(parts), "plain")),
        st.sampled_from(["read_file", "write_file", "edit_file"]),
        st.lists(st.sampled_from(_KEY_SEGMENTS), min_size=1, max_size=3),
    ),
    min_size=5,
    max_size=25,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.lists(_KEYED_RULE | _RULE, min_size=1, max_size=4),
    where=st.sampled_from(["root", "folder", "outside"]),
    knobs=_KNOBS,
    calls=_PLAIN_CALLS,
)
def test_plain_texts_that_name_a_rule_key_or_a_policy_folder_are_decided_in_full(
    tmp_path_factory: pytest.TempPathFactory,
    rules: list[dict[str, object]],
    where: str,
    knobs: dict[str, str],
    calls: list[Call],
) -> None:
    """Every path here is plain text; many name a key, an extension or the policy folder
    in some case, and those are the lane's to leave to the full decision."""
    with _workspace(tmp_path_factory) as ws:
        policy = _load(ws, rules, where, knobs)
        assert _disagreements(policy, calls) == []


def test_every_key_shape_in_every_case_is_decided_in_full(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Each keyed pattern in a rule of its own; every path of one or two key segments."""
    behaviors = ["deny", "ask", "allow"]
    rules: list[dict[str, object]] = [
        {"behavior": behaviors[n % 3], "tools": _TOOLS[n % 4], "paths": [pattern]}
        for n, pattern in enumerate(_KEYED)
    ]
    paths = [*_KEY_SEGMENTS, *(f"{a}/{b}" for a in _KEY_SEGMENTS for b in _KEY_SEGMENTS)]
    calls = [
        (tool, _arguments(tool, path, "plain"))
        for tool in ("read_file", "write_file", "edit_file")
        for path in paths
    ]
    with _workspace(tmp_path_factory) as ws:
        assert _disagreements(_load(ws, rules, "folder", {}), calls) == []


@settings(max_examples=25, deadline=None)
@given(profile=st.sampled_from(["P01", "P02", "P03"]), knobs=_KNOBS, calls=_CALLS)
def test_every_profile_decides_plain_calls_as_a_fresh_engine(
    tmp_path_factory: pytest.TempPathFactory, profile: str, knobs: dict[str, str], calls: list[Call]
) -> None:
    with _workspace(tmp_path_factory) as ws:
        assert _disagreements(load(profile, workspace=ws.root, **knobs), calls) == []


@settings(max_examples=300, deadline=None)
@given(path=_PATH)
def test_a_plain_text_is_its_own_normalized_path(path: str) -> None:
    """What the lane calls plain the file tools open as written: nothing to normalize,
    nothing refused."""
    if is_plain_text(path):
        assert normalized_path(path) == path
        assert path.isascii() and not path.startswith(".") and "/." not in path


# Calls that only the lane's tests keep from the plain decision.
_TRICKY: list[Call] = [
    ("write_file", {"path": p, "content": "x"})
    for p in (".git/config", "a/.GIT/x", "..", "../up.txt", "src/../../x", "con", "lpt1.log")
] + [
    ("write_file", {"path": "policies/lane.yaml", "content": "x"}),
    ("read_file", {"path": "secrets/key"}),
    ("read_file", {"path": "a/id_x.pem"}),
    ("read_file", {"path": "src/private/b"}),
    ("read_file", {"path": "a\x00b"}),
    ("read_file", {"path": "/etc/passwd"}),
    ("read_file", {"path": "/".join(["x" * 255] * 17)}),
]
_TRICKY_RULES: list[dict[str, object]] = [
    {"behavior": "deny", "tools": ["read_file"], "paths": ["secrets/**", "*.pem", "**/private/**"]}
]


def test_a_lane_that_takes_every_text_for_plain_is_caught(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _workspace(tmp_path_factory) as ws:
        assert _disagreements(_load(ws, _TRICKY_RULES, "folder", {}), _TRICKY) == []
        monkeypatch.setattr(plain_lane, "_plain_match", lambda path: path)
        broken = _disagreements(_load(ws, _TRICKY_RULES, "folder", {}), _TRICKY)
    assert {str(arguments) for _, arguments, _ in broken} >= {
        str({"path": p, "content": "x"}) for p in ("..", "../up.txt", "con", "lpt1.log")
    }


def test_a_lane_that_forgets_the_rule_keys_and_policy_folders_is_caught(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(plain_lane, "_plain_forms", lambda names: frozenset())
    with _workspace(tmp_path_factory) as ws:
        broken = _disagreements(_load(ws, _TRICKY_RULES, "folder", {}), _TRICKY)
    assert {str(arguments) for _, arguments, _ in broken} == {
        str({"path": "policies/lane.yaml", "content": "x"}),
        str({"path": "secrets/key"}),
        str({"path": "src/private/b"}),
    }


def test_a_plain_read_and_write_get_the_one_remembered_decision(ws: Workspace) -> None:
    policy = load(workspace=ws.root)
    first = policy.check("read_file", {"path": "src/a.py"})
    assert policy.check("read_file", {"path": "docs/b.md"}) is first
    write = policy.check("write_file", {"path": "src/new.py", "content": "x"})
    assert (write.behavior, write.reason) == (
        Behavior.ASK,
        "File writes require explicit approval from chapter 3 onward",
    )
    assert policy.check("write_file", {"path": "b.txt", "content": "y"}) is write
    denied = policy.check("write_file", {"path": ".git/hooks/pre-commit", "content": "x"})
    assert (denied.behavior, denied.reason) == (Behavior.DENY, "Writing inside .git is forbidden")


def test_other_knobs_get_other_lanes(ws: Workspace) -> None:
    policy = load(workspace=ws.root)
    call = {"path": "notes.txt", "content": "x"}
    assert policy.check("write_file", call).behavior is Behavior.ASK
    read_only = policy.with_knobs(sandbox="read-only")
    assert (
        read_only.check("write_file", call).reason == "The read-only sandbox does not allow writes"
    )
    never = policy.with_knobs(approval="never")
    assert never.check("write_file", call).reason == (
        "Approval policy is never: File writes require explicit approval from chapter 3 onward"
    )
    assert policy.check("write_file", call).behavior is Behavior.ASK


def test_a_policy_loaded_again_after_an_edit_gets_new_lanes(ws: Workspace) -> None:
    before = _load(ws, [], "outside", {})
    assert before.check("read_file", {"path": "notes/a.txt"}).behavior is Behavior.ALLOW
    closed: list[dict[str, object]] = [
        {"behavior": "deny", "tools": ["read_file"], "paths": ["notes/**"]}
    ]
    after = _load(ws, closed, "outside", {})
    assert after.check("read_file", {"path": "notes/a.txt"}).reason == "rule 0"
    assert after.check("read_file", {"path": "docs/a.txt"}).behavior is Behavior.ALLOW
    assert before.check("read_file", {"path": "notes/b.txt"}).behavior is Behavior.ALLOW


def test_another_workspace_gets_its_own_protected_policy_folder(
    ws: Workspace, tmp_path: Path
) -> None:
    policy = _load(ws, _TRICKY_RULES, "folder", {})
    call = {"path": "policies/lane.yaml", "content": "x"}
    assert policy.check("write_file", call).reason == "Policy files in use cannot be written"
    other = tmp_path / "other"
    other.mkdir()
    elsewhere = load(workspace=other, policies=[ws.root / "policies" / "lane.yaml"])
    assert elsewhere.check("write_file", call).behavior is Behavior.ASK
    assert elsewhere.check("read_file", {"path": "secrets/a"}).reason == "rule 0"


def test_a_policy_folder_is_protected_in_every_case_the_file_system_may_fold(
    ws: Workspace,
) -> None:
    """``\u017f`` (long s) folds to ``s``: a write to ``secure/`` or ``SECURE/`` may land in
    the folder ``\u017fecure/`` that holds the policy."""
    folder = ws.root / "\u017fecure"
    folder.mkdir()
    (folder / "lane.yaml").write_text(_policy_text([]))
    policy = load(workspace=ws.root, policies=[folder / "lane.yaml"])
    for path in ("secure/lane.yaml", "SECURE/new.txt", "\u017fecure/x"):
        refused = policy.check("write_file", {"path": path, "content": "x"})
        assert refused.reason == "Policy files in use cannot be written"
    assert policy.check("write_file", {"path": "secured/x", "content": "x"}).behavior is (
        Behavior.ASK
    )


def test_a_folder_protected_anywhere_is_left_to_the_full_decision(ws: Workspace) -> None:
    """Like ``.git``, but a name a plain path can hold: it is refused at any depth."""
    loaded = load(workspace=ws.root)
    vendor = ProtectedEntry("vendor", True, GIT_REASON, anywhere=True)
    engine = DecisionEngine(
        loaded.compiled,
        LexicalBoundary(loaded.workspace),
        enforces=True,
        protected=ProtectedSet((*loaded.engine.protected.entries, vendor)),
    )
    policy = ToolPolicy(
        loaded.compiled,
        loaded.presets,
        loaded.knob_events,
        loaded.knobs,
        loaded.workspace,
        engine,
        loaded.tools,
    )
    for path in ("vendor/a", "src/Vendor/b.py"):
        assert policy.check("write_file", {"path": path, "content": "x"}).reason == GIT_REASON
    assert policy.check("write_file", {"path": "src/vendors", "content": "x"}).behavior is (
        Behavior.ASK
    )


def test_a_home_rule_leaves_the_tool_without_a_lane(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A relative path's absolute spelling lies under ``$HOME`` when the workspace does: a
    ``~/`` rule makes every path's decision depend on the environment."""
    rules: list[dict[str, object]] = [
        {"behavior": "deny", "tools": ["read_file"], "paths": ["~/notes/**"]}
    ]
    policy = _load(ws, rules, "outside", {})
    monkeypatch.setenv("HOME", str(ws.outside))
    assert policy.check("read_file", {"path": "notes/a"}).behavior is Behavior.ALLOW
    monkeypatch.setenv("HOME", str(ws.root))
    assert policy.check("read_file", {"path": "notes/b"}).reason == "rule 0"
    assert policy._lanes["read_file"] is NO_LANE


def test_a_physical_boundary_leaves_every_tool_without_a_lane(ws: Workspace) -> None:
    """The hook resolves links: a write through a link out of the workspace is refused."""
    os.symlink(ws.outside, ws.root / "link")
    hook = assemble(load_sources("P03"), workspace=str(ws.root), enforce_boundary=True)
    refused = hook.check("write_file", {"path": "link/x.txt", "content": "x"})
    assert (refused.behavior, refused.reason) == (
        Behavior.DENY,
        "Writing outside the workspace is forbidden",
    )
    assert hook.check("write_file", {"path": "src/x.txt", "content": "x"}).behavior is (
        Behavior.ASK
    )
    assert hook._lanes["write_file"] is NO_LANE
    assert not (ws.outside / "x.txt").exists()


def test_an_unknown_tool_is_rejected_and_gets_no_lane(ws: Workspace) -> None:
    policy = load(workspace=ws.root)
    for _ in range(2):
        with pytest.raises(CallRejected) as caught:
            policy.check("fetch_url", {"path": "a"})
        assert caught.value.content == "Error [unknown_tool]: Unknown tool: fetch_url"
    assert "fetch_url" not in policy._lanes


def test_path_keys_are_none_when_a_path_rule_has_no_key(ws: Workspace) -> None:
    rules: list[dict[str, object]] = [
        {"behavior": "deny", "tools": ["read_file"], "paths": ["secrets/**", "*.pem"]},
        {"behavior": "ask", "tools": ["write_file"], "paths": ["**/*"]},
    ]
    engine = _load(ws, rules, "outside", {}).engine
    assert rule_keys(engine, "read_file") == (
        PathKeys(frozenset({"secrets"}), frozenset({"pem"})),
        frozenset(),
    )
    assert rule_keys(engine, "write_file") == (None, frozenset())
