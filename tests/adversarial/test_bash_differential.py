"""Bash is the judge: whatever toolpolicy allows runs only the allowed programs, with the
allowed words, and writes only the files the line names as literal redirection targets.

Lines come from a grammar of expansions, substitutions, assignments (``PATH=``,
``BASH_ENV=``, ``GIT_CONFIG_*``), code-running builtins (``eval``, ``.``, ``trap``,
``mapfile -C``, ``printf -v``, ``let``, ``hash -p``, functions ...), redirections, wrappers
and quoting. Every line the policy allows is run by real bash under ``env -i`` with a
``PATH`` of stub programs that log their argv; a hidden program (``touch``, ``curl``,
``rm``) can only show up in the log if bash ran code nobody allowed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from toolpolicy.compile.commands import split_command_line
from toolpolicy.core.vocabulary import Behavior
from toolpolicy.engine.selection import ToolPolicy, load

from .conftest import policy_file

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")

EXAMPLES = 1000
ALLOWED = ["echo", "git status", "ls", "cat", "pytest"]
STUBS = ["git", "ls", "cat", "pytest", "touch", "curl", "rm", "evil"]
FILES = {"a.txt": "a\n", "b.py": "b\n", "s.sh": "touch SOURCED\n", "x.sh": "touch BASHENV\n"}
_FIELD, _RECORD = "\x1f", "\x1e"
# One write per record: the programs of a pipeline run at once and append to the same log.
_STUB = f"""#!/bin/sh
r="${{0##*/}}"
for a; do r="$r{_FIELD}$a"; done
printf '%s{_RECORD}' "$r" >> "$STUB_LOG"
"""

HIDDEN = ["touch F", "curl x", "rm -rf x", "evil"]
VISIBLE = ["echo hi", "git status", "ls -la", "cat a.txt", "pytest -q", "git status --short"]

PLAIN_WORDS = ["x", "'q w'", '"d q"', "a.txt", "./*.py", "-v", "\\git", "!", "#c", "a=b", "b?.py"]
WORDS = [
    "~", "*.py", "[ab].txt", "$x", "${x}", "${x@P}",
    '"$x"', "$((x))", "$((a[$(touch F)]))", "$(touch F)", "`curl x`", '"$(rm -rf x)"',
    "{a,b}", "$'\\x41'", "$HOME", "$PATH", "!", "#c", "a=b", "<(touch F)",
]  # fmt: skip
PREFIXES = [
    "", "", "", "x='$(touch F)'; ", "x='a[$(touch F)]'; ", "A=1 ", "PATH=$PWD/bin:$PATH ",
    "PATH=/nope ", "BASH_ENV=./x.sh ", "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor "
    "GIT_CONFIG_VALUE_0='touch F;false' ", "LD_PRELOAD=./x.so ", "eval ", "command ", "exec ",
    "env ", "sudo ", "time ", "nice ", "builtin ", "\\",
]  # fmt: skip
CODE = [
    "eval 'touch F'", ". ./s.sh", "source ./s.sh", ". /dev/stdin <<< 'touch F'",
    "mapfile -C 'touch F #' -c 1 a <<< z", "trap 'touch F' EXIT", "printf -v 'a[$(touch F)]' x",
    "let 'a[$(touch F)]=1'", "test -v 'a[$(touch F)]'", "declare -a 'a[$(touch F)]'",
    "alias ls='touch F'", "hash -p \"$PWD/../bin/touch\" ls", "ls() { touch F; }",
    "f() { touch F; }; f", "cat() { evil; }", "read 'a[$(touch F)]' <<< 1",
    "enable -n echo", "shopt -s expand_aliases", "set -o noclobber", "cd ..", "export PATH=/x",
    "((a[$(touch F)]))", "[[ a[$(touch F)] -eq 1 ]]", "{ touch F; }", "(touch F)",
    "coproc touch F", "echo $(touch F)", "cat <<EOF\n$(touch F)\nEOF",
]  # fmt: skip
REDIRECTS = [
    "", "", "", " > out.txt", " 2>&1", " >> log.txt", " < a.txt", " > /dev/null", " 2>/dev/null",
    ' > "$x"', " > *.txt", " <<< x", " &> both.txt", " >&2", " 3>extra.txt", " > ~/home.txt",
    " > ../escape.txt", " >| forced.txt",
]  # fmt: skip
JOINS = ["; ", " && ", " || ", " | ", "\n", " &&\n", " & "]


def _mostly(plain: list[str], tricky: list[str]) -> st.SearchStrategy[str]:
    """Mostly plain choices, so that many lines are allowed and bash has work to judge."""
    return st.one_of(st.sampled_from(plain), st.sampled_from(plain), st.sampled_from(tricky))


@st.composite
def commands(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 9))
    if kind <= 6:
        command = draw(st.sampled_from(VISIBLE))
    elif kind <= 8:
        command = draw(st.sampled_from(CODE))
    else:
        command = draw(st.sampled_from(HIDDEN))
    words = draw(st.lists(_mostly(PLAIN_WORDS, WORDS), max_size=2))
    if words:
        command += " " + " ".join(words)
    prefix = draw(_mostly([""], PREFIXES))
    return prefix + command + draw(_mostly(REDIRECTS[:10], REDIRECTS))


@st.composite
def lines(draw: st.DrawFn) -> str:
    parts = draw(st.lists(commands(), min_size=1, max_size=2))
    line = parts[0]
    for part in parts[1:]:
        line += draw(st.sampled_from(JOINS)) + part
    return line


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ToolPolicy]:
    root = tmp_path_factory.mktemp("differential")
    bin_dir, workspace, home = root / "bin", root / "ws", root / "home"
    for folder in (bin_dir, workspace, home):
        folder.mkdir()
    for name in STUBS:
        stub = bin_dir / name
        stub.write_text(_STUB)
        stub.chmod(0o755)
    policy_dir = root / "policy"
    policy_dir.mkdir()
    rules: list[dict[str, object]] = [{"behavior": "allow", "match": {"commands": ALLOWED}}]
    return root, load(workspace=workspace, policies=[policy_file(policy_dir, rules)])


def _reset(workspace: Path) -> None:
    for entry in workspace.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    for name, content in FILES.items():
        (workspace / name).write_text(content)


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def _run(root: Path, line: str) -> list[tuple[str, ...]]:
    log = root / "stub.log"
    log.write_text("")
    subprocess.run(
        ["/usr/bin/env", "-i", f"PATH={root / 'bin'}", f"HOME={root / 'home'}",
         f"STUB_LOG={log}", shutil.which("bash") or "bash", "--noprofile", "--norc", "-c", line],
        cwd=root / "ws", stdin=subprocess.DEVNULL, capture_output=True, timeout=20, check=False,
    )  # fmt: skip
    records = log.read_text().split(_RECORD)
    return [tuple(record.split(_FIELD)) for record in records if record]


@settings(max_examples=EXAMPLES, deadline=None)
@given(line=lines())
def test_what_toolpolicy_allows_runs_only_the_allowed_programs_with_the_allowed_words(
    sandbox: tuple[Path, ToolPolicy], line: str
) -> None:
    root, policy = sandbox
    decision = policy.check("shell", {"command": line})
    event(f"decision: {decision.behavior.label}")
    if decision.behavior is not Behavior.ALLOW:
        return
    plain = split_command_line(line).plain
    assert plain is not None, (line, decision)
    workspace = root / "ws"
    _reset(workspace)
    before_outside = _tree(root / "home") | _tree(root / "bin")
    ran = _run(root, line)
    # Only the commands of the plain reading ran, each with its literal words as written.
    for argv in ran:
        assert any(
            argv[0] == command.words[0]
            and argv[: command.literal] == command.words[: command.literal]
            for command in plain.commands
        ), (line, argv)
    # No file appeared but the literal write targets; nothing changed outside the workspace.
    targets = {r.target for r in plain.redirects}
    created = _tree(workspace) - set(FILES)
    assert created <= targets, (line, created)
    assert _tree(root / "home") | _tree(root / "bin") == before_outside, line
    assert not (root / "ws" / "F").exists()


def test_the_grammar_reaches_both_sides(sandbox: tuple[Path, ToolPolicy]) -> None:
    """The property has teeth: plain lines are allowed and run, the tricks are not allowed."""
    root, policy = sandbox
    allowed = "git status --short > out.txt 2>&1; ls -la ./*.py | cat"
    assert policy.check("shell", {"command": allowed}).behavior is Behavior.ALLOW
    _reset(root / "ws")
    ran = _run(root, allowed)
    assert ("git", "status", "--short") in ran
    assert ("ls", "-la", "./b.py") in ran
    assert (root / "ws" / "out.txt").exists()
    for trick in CODE:
        assert policy.check("shell", {"command": f"echo hi; {trick}"}).behavior is not (
            Behavior.ALLOW
        ), trick
    # The same tricks do run the hidden program when bash is simply given them.
    _reset(root / "ws")
    assert ("touch", "F") in _run(root, "x='$(touch F)'; echo \"${x@P}\"")
    assert os.path.isdir(root / "ws")
