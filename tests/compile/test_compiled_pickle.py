"""A compiled policy is plain data: it pickles, and the copy decides like the original."""

from __future__ import annotations

import pickle
from pathlib import Path

from toolpolicy.compile.globs import compile_glob
from toolpolicy.compile.rules import CallFacts
from toolpolicy.core.vocabulary import Effect
from toolpolicy.engine.selection import load

POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: pickled
extends: P03
rules:
  - {name: keys, behavior: deny, reason: Keys, match: {paths: ["*.pem", "**/private/**"]}}
  - {name: push, behavior: ask, reason: Push, match: {commands: ["git push"]}}
  - {name: classes, behavior: deny, reason: Classes, match: {paths: ["[ab]/x"]}}
"""


def test_a_compiled_policy_pickles_and_decides_the_same(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(POLICY)
    compiled = load(policies=[tmp_path / "p.yaml"], workspace=tmp_path).compiled
    copy = pickle.loads(pickle.dumps(compiled))
    for path in ("a/k.pem", "x/private/y", "a/x", "c/x", "src/a.py"):
        facts = CallFacts("read_file", Effect.READ, path, path)
        assert [r.name for r in copy.rules if r.matches(facts)] == [
            r.name for r in compiled.rules if r.matches(facts)
        ]
        assert copy.rule_index.rules_for("read_file").candidates(facts) == (
            compiled.rule_index.rules_for("read_file").candidates(facts)
        )


def test_a_glob_is_translated_on_its_first_match_and_pickles_as_its_text() -> None:
    glob = compile_glob("**/private/**", gitignore=True)
    assert pickle.loads(pickle.dumps(glob)).matches("a/private/b")
    assert glob.matches("a/private/b")
    assert not glob.matches("a/privat/b")
    assert pickle.loads(pickle.dumps(glob)).matches("a/private/b")
