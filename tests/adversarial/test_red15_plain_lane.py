"""red15: the plain lane against a fresh engine, on rule shapes the lane's own tests omit.

``tests/engine/test_plain_lane.py`` draws its rules from one pattern per index table. An
outside attacker tries the shapes that sit between the tables, where a key could be taken
for more than it proves: character classes (``[Ss]ecret.txt``), ``?`` beside literals
(``a?/**``, ``?ab``), ``**`` in the middle (``a/**/b``), a literal segment after a glob one
(``*/keys/*.pem``), multi-dot extensions (``**/*.tar.gz``, ``**/x.y.z``), a folder pattern
(``x/y/``), tool-name wildcards (``*``, ``read_*``), and the policy file itself at depth
(its folders become protected). Every plain and near-plain path must get from ``check``
(with its lane and memo) exactly what a freshly loaded engine gives.

Found nothing: this property passes. It stays as coverage for those shapes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy import load

_PATTERNS = [
    "src/[ab]/**", "**/se?ret/**", "a/**/b", "a/**/b/**", "*/keys/*.pem", "x/y/",
    "[Ss]ecret.txt", "docs/*", "**/*.tar.gz", "id_*.pub", "/top", "deep/er/file.txt",
    "**/Makefile", "cfg/**/*.yaml", "?ab", "a?/**", "*.d/**", "**/x.y.z", "*.Z",
]  # fmt: skip
_SEGMENTS = [
    "src", "a", "b", "secret", "Secret", "se1ret", "keys", "k.pem", "x", "y", "docs",
    "f.tar.gz", "id_1.pub", "top", "deep", "er", "file.txt", "Makefile", "cfg", "p.yaml",
    "ab", "zab", "a1", "q.d", "x.y.z", "w.Z", "w.z", "conf", "nested", "secret.txt",
]  # fmt: skip
# Segments no pattern above is keyed by: paths of these alone are the lane's to answer.
_NEUTRAL = ["lib", "main.py", "n1", "README", "conf", "policies", "tar.gz", "Z", "pem"]
# Checked in every example: the policy file and its folders in every case, and plain paths.
_ALWAYS = [
    *("lib/main.py", "conf/n1", "CONF/x", "Conf/Policies/p.yaml", "p.yaml", "P.YAML"),
    *("top/n1", "n1/keys/x.pem", "a/n1/b", "docs/n1", "n1/f.tar.gz", "n1/w.Z", "x/y/n1"),
]
_SEGMENT = st.sampled_from(_NEUTRAL) | st.sampled_from(_NEUTRAL) | st.sampled_from(_SEGMENTS)
_RULE = st.fixed_dictionaries(
    {
        "behavior": st.sampled_from(["deny", "ask", "allow"]),
        "tools": st.sampled_from(
            [["read_file"], ["write_file", "edit_file"], ["*_file"], ["*"], ["read_*"]]
        ),
        "paths": st.lists(st.sampled_from(_PATTERNS), min_size=1, max_size=2, unique=True),
    }
)
_CALLS = {
    "read_file": lambda path: {"path": path},
    "write_file": lambda path: {"path": path, "content": "x"},
    "edit_file": lambda path: {"path": path, "old_string": "a", "new_string": "b"},
}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("lane")
    (folder / "ws" / "conf" / "policies").mkdir(parents=True)
    return folder


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rules=st.lists(_RULE, min_size=1, max_size=4),
    where=st.sampled_from(["ws/conf/policies/p.yaml", "ws/p.yaml", "p.yaml"]),
    knobs=st.sampled_from([{}, {"sandbox": "read-only"}, {"approval": "never"}]),
    calls=st.lists(
        st.tuples(
            st.sampled_from(sorted(_CALLS)),
            st.lists(_SEGMENT, min_size=1, max_size=4).map("/".join),
        ),
        min_size=1,
        max_size=30,
    ),
)
def test_check_with_its_lanes_decides_between_the_index_tables_as_a_fresh_engine(
    base: Path,
    rules: list[dict[str, object]],
    where: str,
    knobs: dict[str, str],
    calls: list[tuple[str, str]],
) -> None:
    document = {
        "apiVersion": "toolpolicy/v1", "kind": "Policy", "name": "t", "extends": "P03",
        "rules": [
            {"name": f"r{n}", "behavior": r["behavior"], "reason": f"rule {n}",
             "match": {"tools": r["tools"], "paths": r["paths"]}}
            for n, r in enumerate(rules)
        ],
    }  # fmt: skip
    policy = base / where
    policy.write_text(json.dumps(document))
    try:
        workspace = base / "ws"
        laned = load("P03", policies=[policy], workspace=workspace, **knobs)  # type: ignore[arg-type]
        for tool, path in [*calls, *((t, p) for t in sorted(_CALLS) for p in _ALWAYS)]:
            got = laned.check(tool, _CALLS[tool](path))
            fresh = load("P03", policies=[policy], workspace=workspace, **knobs)  # type: ignore[arg-type]
            want = fresh.evaluate(tool, _CALLS[tool](path)).effective
            assert (got.behavior, got.source, got.reason) == (
                want.behavior,
                want.source,
                want.reason,
            ), (tool, path)
    finally:
        policy.unlink()
