"""``toolpolicy check`` without click: the same answer as the click command, or no answer.

Issue 14: ``check`` is a process per call too. Its plain spellings are answered by
``cli.plain_check`` from the compiled-policy cache without importing click; everything else
(help, abbreviations, errors, ...) is left to the click command. Wherever the plain path
answers, its output and exit code must be the click command's.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.cli.app import app
from toolpolicy.cli.plain_check import plain_check_args, run_plain_check

POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
rules:
  - name: env
    behavior: deny
    reason: Secrets stay closed
    match: {paths: [.env, "secrets/**"]}
  - name: pushes
    behavior: ask
    reason: Ask before pushing
    match: {commands: [git push]}
  - name: listing
    behavior: allow
    reason: Listing is fine
    match: {commands: [ls]}
"""

TABLE = """\
apiVersion: toolpolicy/v1
kind: PresetTable
default: locked
presets:
  zeta: {sandbox: workspace-write, approval: ask}
  alpha: {sandbox: workspace-write, approval: ask}
  locked: {sandbox: read-only, approval: never}
"""


class Files:
    def __init__(self, root: Path) -> None:
        self.ws = root / "ws"
        self.other = root / "other"
        self.ws.mkdir()
        self.other.mkdir()
        self.policy = self.ws / "team.yaml"
        self.policy.write_text(POLICY)
        self.broken = root / "broken.yaml"
        self.broken.write_text("apiVersion: toolpolicy/v1\nkind: Policy\nname: x\nrules: [1]\n")
        self.table = root / "presets.yaml"
        self.table.write_text(TABLE)
        self.file = root / "a-file"
        self.file.write_text("")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Files]:
    root = tmp_path_factory.mktemp("plain-check")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TOOLPOLICY_CACHE_DIR", str(root / "cache"))
        for name in ("TOOLPOLICY_PROFILE", "TOOLPOLICY_PRESET"):
            patch.delenv(name, raising=False)
        yield Files(root)


def _plain(argv: list[str]) -> tuple[int, str] | None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = run_plain_check(argv)
    return None if code is None else (code, out.getvalue())


def _click(argv: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["check", *argv])
    return result.exit_code, result.stdout


def _argv(files: Files) -> st.SearchStrategy[list[str]]:
    tools = st.sampled_from(["read_file", "write_file", "edit_file", "shell", "glob", "nope"])
    arguments = st.sampled_from(
        [
            '{"path": ".env"}',
            '{"path": "secrets/k"}',
            '{"path": "../outside", "content": "x"}',
            '{"path": "team.yaml", "content": "x"}',
            '{"command": "git push origin"}',
            '{"command": "ls -la"}',
            '{"command": "ls; rm x"}',
            '{"pattern": "**/*.py"}',
            "{}",
            "not json",
            "[1]",
        ]
    )
    flag = st.sampled_from(
        [
            ("--profile", "P03"),
            ("--profile", "P02"),
            ("--profile", "p01"),
            ("--profile", "P09"),
            ("--profile", str(files.policy)),
            ("--preset", "read-only"),
            ("--preset", "danger-full-access"),
            ("--preset", "zeta"),
            ("--preset", "nope"),
            ("--sandbox", "read-only"),
            ("--sandbox", "workspace-write"),
            ("--sandbox", "everything"),
            ("--approval", "never"),
            ("--approval", "ask"),
            ("--approval", "maybe"),
            ("--policy", str(files.policy)),
            ("--policy", str(files.broken)),
            ("--policy", str(files.other)),
            ("--policy", "read-only-commands"),
            ("--presets", str(files.table)),
            ("--workspace", str(files.ws)),
            ("--workspace", str(files.other)),
            ("--workspace", str(files.file)),
            ("--workspace", str(files.ws / "missing")),
            ("--format", "json"),
            ("--format", "text"),
            ("--format", "xml"),
        ]
    )

    @st.composite
    def build(draw: st.DrawFn) -> list[str]:
        units: list[list[str]] = []
        for name, value in draw(st.lists(flag, max_size=4)):
            units.append([f"{name}={value}"] if draw(st.booleans()) else [name, value])
        positionals = [draw(tools)]
        if draw(st.booleans()):
            positionals.append(draw(arguments))
        at = 0
        for word in positionals:  # anywhere between the flags, in their own order
            at = draw(st.integers(at, len(units)))
            units.insert(at, [word])
            at += 1
        return [word for unit in units for word in unit]

    return build()


@settings(max_examples=250, deadline=None)  # about a quarter reach the comparison
@given(data=st.data())
def test_where_the_plain_path_answers_it_prints_what_click_prints(
    files: Files, data: st.DataObject
) -> None:
    argv = data.draw(_argv(files), label="argv")
    with contextlib.chdir(files.ws):
        plain = _plain(argv)
        if plain is not None:
            assert plain == _click(argv)


def test_the_plain_spellings_are_answered(files: Files) -> None:
    with contextlib.chdir(files.ws):
        for argv in (
            ["read_file", '{"path": ".env"}', "--policy", str(files.policy)],
            ["--format=json", "shell", '{"command": "ls"}', f"--policy={files.policy}"],
            ["write_file", '{"path": "a", "content": ""}', "--preset", "read-only"],
            ["nope"],
        ):
            assert _plain(argv) is not None, argv


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["read_file", "--help"],
        ["read_file", "--pol", "team.yaml"],  # an abbreviation
        ["read_file", "-"],  # the arguments on stdin
        ["read_file", "--", "{}"],
        ["read_file", "{}", "extra"],
        [],
        ["read_file", "--preset", "read-only", "--preset", "danger-full-access"],
        ["read_file", "--format", "xml"],
        ["read_file", "--sandbox", "everything"],
        ["read_file", "--profile"],
        ["read_file", "--profile="],
        ["read_file", "--workspace", "-"],  # a value that looks like a flag
        ["read_file", "--preset", "nope"],  # an error: click reports it
    ],
)
def test_anything_else_is_left_to_click(files: Files, argv: list[str]) -> None:
    with contextlib.chdir(files.ws):
        assert _plain(argv) is None


def test_the_environment_click_reads_is_left_to_click(
    files: Files, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLPOLICY_PRESET", "read-only")
    assert plain_check_args(["read_file", '{"path": "a"}']) is None


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_plain_check_imports_no_click_typing_signal_threading_contextlib_or_json(
    files: Files, fmt: str
) -> None:
    code = (  # the report is a repr: the probe itself imports no json
        "import sys; from toolpolicy.cli.main import main;"
        f"rc = main(['check', 'read_file', '{{\"path\": \".env\"}}', '--policy', "
        f"{str(files.policy)!r}, '--format', {fmt!r}]);"
        "print(repr({'rc': rc, 'loaded': [m for m in ('click', 'typing', 'signal',"
        " 'threading', 'contextlib', 'json') if m in sys.modules]}))"
    )
    # The first run compiles the policy into the cache unless a test before it on this
    # worker did (a cold load reads YAML, which imports typing); the second is the warm one.
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=files.ws,
            env={**os.environ},
        )
    *answer, report = done.stdout.splitlines()
    assert answer[0].startswith("deny (env)") or json.loads(answer[0])["behavior"] == "deny"
    assert ast.literal_eval(report) == {"rc": 0, "loaded": []}
