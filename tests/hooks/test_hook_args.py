"""The plain reading of the hook's flags agrees with argparse wherever it answers."""

from __future__ import annotations

import contextlib
import io

from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.hooks.adapters import ADAPTERS
from toolpolicy.hooks.entry import hook_parser
from toolpolicy.hooks.hook_args import HookArgs, plain_hook_args

FLAGS = [
    "--profile",
    "--preset",
    "--sandbox",
    "--approval",
    "--policy",
    "--presets",
    "--workspace",
    "--audit",
    "--explicit-allow",
    "--audit-arguments",
    "--pol",
    "--help",
    "--",
    "-h",
]
VALUES = [
    "P01",
    "team.yaml",
    "read-only",
    "workspace-write",
    "never",
    "on-request",
    "",
    "-x",
    "a=b",
]
WORDS = st.one_of(
    st.sampled_from(FLAGS),
    st.sampled_from(VALUES),
    st.builds(lambda f, v: f"{f}={v}", st.sampled_from(FLAGS), st.sampled_from(VALUES)),
    st.sampled_from([*sorted(ADAPTERS), "bogus"]),
)


def _argparse(argv: list[str]) -> HookArgs | None:
    sink = io.StringIO()
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            parsed = hook_parser(argv[0] if argv else None).parse_args(argv)
    except SystemExit:
        return None
    return HookArgs(**vars(parsed))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from([*sorted(ADAPTERS), "bogus", "--profile"]), st.lists(WORDS, max_size=6))
def test_the_plain_reading_is_argparse_s_reading_whenever_it_answers(
    first: str, rest: list[str]
) -> None:
    argv = [first, *rest]
    plain = plain_hook_args(argv, ADAPTERS)
    if plain is not None:
        assert plain == _argparse(argv)


def test_the_installed_command_lines_are_read_without_argparse() -> None:
    for argv in (
        ["claude-code"],
        ["codex", "--profile", "P02", "--policy", "/p/team.yaml", "--policy=/p/more.yaml"],
        ["gemini", "--sandbox", "read-only", "--approval", "never", "--explicit-allow"],
        ["copilot", "--audit", "/tmp/a.jsonl", "--audit-arguments", "--workspace", "/w"],
    ):
        plain = plain_hook_args(argv, ADAPTERS)
        assert plain is not None
        assert plain == _argparse(argv)


def test_help_errors_and_abbreviations_are_left_to_argparse() -> None:
    for argv in (
        ["claude-code", "--help"],
        ["claude-code", "--pol", "x.yaml"],
        ["claude-code", "--policy"],
        ["claude-code", "--sandbox", "everything"],
        ["claude-code", "--policy", "-x"],
        ["claude-code", "extra"],
        ["--policy", "x.yaml", "claude-code"],
        ["bogus"],
        [],
    ):
        assert plain_hook_args(argv, ADAPTERS) is None
