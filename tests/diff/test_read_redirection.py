"""The search takes a redirection's signature from those the engine gave (``w < P`` from
``w`` and ``w P``; ``a b > P`` from ``a b`` and ``w > P``) instead of asking the engine
again: for random policies, commands and files, in a workspace with a symlink that leads
outside, it must be the engine's own."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.diff.command_regions import Command, CommandSearch, SideSignature
from toolpolicy.diff.sides import load_sides, parse_side

from .test_completeness import _write, policies

WORDS = ("a", "b", "a/b", "c", "-a", "./-a", "../up", "/etc/x", "link/x", "~/a", ".git/config")
PREFIX_WORDS = ("a", "b", "c", "w", "-a", "--all", "a/b", "../up", "/etc/x", "*")


def _search(
    root: Path, left_rules: list[dict[str, object]], right_rules: list[dict[str, object]]
) -> tuple[CommandSearch, str]:
    ws = root / "ws"
    ws.mkdir()
    (ws / "a").write_text("x")
    os.symlink("/etc", ws / "link")
    left = _write(root / "left.yaml", left_rules)
    right = _write(root / "right.yaml", right_rules)
    sides = load_sides(parse_side(left), parse_side(right), str(ws))
    rules = (sides[0].compiled.rules, sides[1].compiled.rules)
    return CommandSearch(sides, "shell", rules), str(ws)


def _engine(search: CommandSearch, command: Command) -> tuple[SideSignature, ...]:
    text = command.text
    return tuple(side.signature(command, text) for side in search.sides)


@settings(max_examples=60, deadline=None)
@given(
    left_rules=policies,
    right_rules=policies,
    prefixes=st.lists(st.lists(st.sampled_from(PREFIX_WORDS), min_size=1, max_size=3), max_size=3),
)
def test_a_redirection_is_signed_as_the_engine_decides_it(
    left_rules: list[dict[str, object]],
    right_rules: list[dict[str, object]],
    prefixes: list[list[str]],
) -> None:
    with tempfile.TemporaryDirectory() as top:
        search, ws = _search(Path(top), left_rules, right_rules)
        for words in ((search.neutral,), *map(tuple, prefixes)):
            for word in (*WORDS, f"{ws}/a", f"{ws}/b/c"):
                for operator in "<>":
                    derived = search.redirection(words, operator, word)
                    command = Command(words, operator, word)
                    assert derived == _engine(search, command), command.text


@settings(max_examples=60, deadline=None)
@given(left_rules=policies, right_rules=policies)
def test_a_file_command_is_decided_as_its_twin(
    left_rules: list[dict[str, object]], right_rules: list[dict[str, object]]
) -> None:
    """``w &> P`` as ``w > P``, and a path inside the workspace spelled absolute as its
    relative spelling (a write as any other absolute write): where the search signs a
    command as its twin (no engine call), the engine decides both alike."""
    with tempfile.TemporaryDirectory() as top:
        search, ws = _search(Path(top), left_rules, right_rules)
        inside = [
            f"{ws}/{w}"
            for w in (
                *("a", "b/c", ".git/config", "link/x", "link", "-a", "b", "a/", "b//c"),
                *("x/../a", ".claude/settings.json", ".git", "./a", "@b", "a+b"),
            )
        ]
        twinned = 0
        for word in (*WORDS, *inside):
            for operator in ("", "<", ">", "&>"):
                command = (
                    Command((search.neutral,), operator, word)
                    if operator
                    else Command((search.neutral, word))
                )
                twin = search.file_twin(command)
                if twin is not None:
                    twinned += 1
                    assert _engine(search, command) == _engine(search, twin), command.text
        assert twinned > 0 or search.open_programs is None


def test_a_read_redirection_after_a_prefix_is_put_together_from_its_parts(
    tmp_path: Path,
) -> None:
    """``x < secret`` under a read rule: no engine call beyond ``x`` and ``w < secret`` (which
    the engine decides: ``w secret`` is also a possible write of ``w``'s, so the argument no
    longer stands for the read redirection); with a wildcard program (``* -x`` could read
    more than ``x``), the engine decides it."""
    deny: dict[str, object] = {"behavior": "deny", "tools": ["read_file"], "paths": ["secret"]}
    ask: dict[str, object] = {"behavior": "ask", "tools": ["shell"], "commands": ["x"]}
    asked: list[str] = []
    for root, extra, expected in (
        ("plain", ask, []),
        ("wild", {**ask, "commands": ["* -x"]}, ["x < secret"] * 2),
    ):
        (tmp_path / root).mkdir()
        search, _ = _search(tmp_path / root, [deny, extra], [extra])
        alone = search.redirection((search.neutral,), "<", "secret")
        search.decide(Command(("x",)))
        for side in search.sides:
            signature = side.signature

            def counted(
                command: Command,
                text: str,
                signature: Callable[[Command, str], SideSignature] = signature,
            ) -> SideSignature:
                asked.append(text)
                return signature(command, text)

            side.signature = counted  # type: ignore[method-assign]
        pair = search.redirection(("x",), "<", "secret")
        assert asked == expected
        assert alone[0].redirect_deny is not None and alone[1].redirect_deny is None
        assert pair[0].redirect_deny == alone[0].redirect_deny and pair[1].redirect_deny is None
        asked.clear()


def test_a_path_inside_the_workspace_is_signed_by_its_relative_spelling(tmp_path: Path) -> None:
    """Where both sides read every line and no path rule names an absolute or home path,
    ``w ROOT/a`` and ``w < ROOT/a`` are signed as ``w a`` and ``w < a``, and every absolute
    write as ``w > ROOT/w``; not through a symlink, nor where a rule names an absolute path."""
    deny: dict[str, object] = {"behavior": "deny", "tools": ["read_file"], "paths": ["a"]}
    ask: dict[str, object] = {"behavior": "ask", "tools": ["write_file"], "paths": ["b/**"]}
    search, ws = _search(tmp_path, [deny], [ask])
    w = search.neutral
    assert search.file_twin(Command((w, f"{ws}/a"))) == Command((w, "a"))
    assert search.file_twin(Command((w,), "<", f"{ws}/b/c")) == Command((w,), "<", "b/c")
    assert search.file_twin(Command((w,), ">", f"{ws}/a")) == Command((w,), ">", f"{ws}/{w}")
    assert search.file_twin(Command((w,), "&>", f"{ws}/a")) == Command((w,), ">", f"{ws}/{w}")
    assert search.file_twin(Command((w,), "<", f"{ws}/link/x")) is None  # a symlink
    assert search.file_twin(Command((w,), "<", f"{ws}/-a")) is None  # an option
    assert search.file_twin(Command((w,), "<", "/etc/x")) is None  # outside
    pair = _engine(search, Command((w,), "<", f"{ws}/a"))
    assert pair == _engine(search, Command((w,), "<", "a"))
    assert pair[0].redirect_deny is not None and pair[1].redirect_deny is None

    home: dict[str, object] = {"behavior": "deny", "tools": ["read_file"], "paths": ["//etc/x"]}
    (tmp_path / "outside").mkdir()
    search, ws = _search(tmp_path / "outside", [deny], [ask, home])
    assert search.inside is None
    assert search.file_twin(Command((search.neutral, f"{ws}/a"))) is None
