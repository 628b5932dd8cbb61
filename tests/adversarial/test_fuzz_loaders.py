"""Random bytes and mutated valid documents against the loader, ``load`` and ``toolpolicy lint``.

The only outcomes allowed: a document or a list of problems (``check_bytes``), a policy or a
``PolicyLoadError``/``ConfigurationError`` (``load``), exit 0/1/2 without a traceback
(``lint``). A handful of the nastiest mutations also run as a real process under a 1 GiB
address-space limit and a timeout: no hang, no memory blow-up.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpolicy.cli.main import main
from toolpolicy.core.errors import ConfigurationError, PolicyLoadError, Problem
from toolpolicy.engine.selection import load
from toolpolicy.language import check_bytes

from .mutations import mutated

EXAMPLES = 300
CLI_EXAMPLES = 100
MEMORY_LIMIT = 1 << 30

REPO = Path(__file__).resolve().parents[2]
POLICY = json.dumps(
    {
        "apiVersion": "toolpolicy/v1",
        "kind": "Policy",
        "name": "fuzz-base",
        "extends": "P03",
        "rules": [
            {
                "name": "no-secrets",
                "behavior": "deny",
                "reason": "Secrets stay put",
                "match": {"paths": ["secrets/**", "**/*.pem"]},
            },
            {
                "name": "git-push",
                "behavior": "ask",
                "reason": "Pushing asks",
                "match": {"tools": ["shell"], "commands": ["git push"]},
            },
        ],
        "examples": [
            {
                "call": {"tool": "write_file", "arguments": {"path": "secrets/a", "content": "x"}},
                "expect": {"behavior": "deny", "source": "no-secrets"},
            }
        ],
    },
    indent=2,
).encode()
DOCUMENTS = {
    "policy": POLICY,
    "profile": (REPO / "profiles" / "p03.yaml").read_bytes(),
    "presets": (REPO / "policy" / "presets.yaml").read_bytes(),
}
any_document = st.sampled_from(sorted(DOCUMENTS)).flatmap(
    lambda kind: st.tuples(st.just(kind), mutated(DOCUMENTS[kind]))
)
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _assert_checked(data: bytes) -> None:
    document, problems = check_bytes(data, "fuzz.yaml")
    assert (document is None) == bool(problems)
    for problem in problems:
        assert isinstance(problem, Problem)
        assert problem.code and problem.message
        assert problem.line >= 1 and problem.column >= 1


@SETTINGS
@given(data=st.binary(max_size=2048))
def test_random_bytes_give_a_document_or_problems(data: bytes) -> None:
    _assert_checked(data)


@SETTINGS
@given(case=any_document)
def test_mutated_documents_give_a_document_or_problems(case: tuple[str, bytes]) -> None:
    _assert_checked(case[1])


@SETTINGS
@given(case=any_document)
def test_loading_a_mutated_document_gives_a_policy_or_a_load_error(
    tmp_path: Path, case: tuple[str, bytes]
) -> None:
    kind, data = case
    path = tmp_path / f"fuzz-{kind}.yaml"
    path.write_bytes(data)
    try:
        if kind == "policy":
            load(policies=[path], workspace=tmp_path)
        elif kind == "profile":
            load(profile=str(path), workspace=tmp_path)
        else:
            load(presets=path, workspace=tmp_path)
    except (PolicyLoadError, ConfigurationError):
        pass


@settings(
    max_examples=CLI_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=any_document)
def test_lint_of_a_mutated_document_exits_0_1_or_2_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: tuple[str, bytes]
) -> None:
    kind, data = case
    path = tmp_path / f"fuzz-{kind}.yaml"
    path.write_bytes(data)
    code = main(["lint", "--format", "json", str(path)])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2)
    assert "Traceback" not in out + err
    if code != 2:
        report = json.loads(out)
        assert isinstance(report, dict | list)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


HEAD = b"apiVersion: toolpolicy/v1\nkind: Policy\nname: x\n"
HOSTILE_DOCUMENTS = {
    "billion-laughs": HEAD
    + b"a: &a [x,x,x,x,x,x,x,x,x]\n"
    + b"".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 9)}]\n".encode()
        for i in range(9)
    ),
    "deep-nesting": HEAD + b"rules: " + b"[" * 100_000 + b"]" * 100_000,
    "huge-scalar": b"apiVersion: toolpolicy/v1\nkind: Policy\nname: " + b"x" * (9 << 20),
    "many-rules": HEAD
    + b"rules:\n"
    + b"- {name: r, behavior: deny, reason: r, match: {tools: ['*']}}\n" * 50_000,
    "python-tag": b"!!python/object/apply:os.system ['echo pwned']\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_DOCUMENTS))
def test_a_hostile_document_is_linted_in_bounded_time_and_memory(tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.yaml"
    path.write_bytes(HOSTILE_DOCUMENTS[name])
    done = subprocess.run(
        [sys.executable, "-m", "toolpolicy", "lint", str(path)],
        capture_output=True,
        timeout=60,
        preexec_fn=_limit_memory,
        cwd=tmp_path,
    )
    assert done.returncode in (1, 2), done.stderr
    assert b"Traceback" not in done.stdout + done.stderr
    assert b"MemoryError" not in done.stdout + done.stderr
    assert b"pwned" not in done.stdout
