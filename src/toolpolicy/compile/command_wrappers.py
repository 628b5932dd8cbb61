"""Command wrappers: programs that run another command given in their arguments.

``sudo rm -rf x`` runs ``rm -rf x``. To keep a deny from hiding behind a wrapper, the
command splitter asks :func:`unwrap` for the inner command and emits both. Each wrapper's
options are known, so that an option's value is never mistaken for the inner command; an
unknown option makes the result uncertain (``certain=False``), and the caller fails closed.
"""

from __future__ import annotations

import re
import shlex
from typing import NamedTuple

from .shell_syntax import Word

__all__ = ["SHELLS", "Unwrapped", "unwrap"]

SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh"})

_NUMERIC_OPTION = re.compile(r"--?[0-9]+")


class _Syntax(NamedTuple):
    flags: str = ""  # short options without a value
    valued: str = ""  # short options with a value (attached or next word)
    attached_only: str = ""  # short options whose optional value can only be attached
    long_flags: frozenset[str] = frozenset()
    long_valued: frozenset[str] = frozenset()
    operands: int = 0  # words before the command (timeout's DURATION)
    assignments: bool = False  # NAME=value words may precede the command
    numeric: bool = False  # "-10" is an option (nice)
    no_command: str = ""  # short options meaning nothing is executed (command -v)


_WRAPPERS: dict[str, _Syntax] = {
    "sudo": _Syntax(
        flags="AbBEeHiKklnPSsVv",
        valued="CDghprRtTuU",
        long_flags=frozenset(
            {
                "--askpass", "--background", "--bell", "--preserve-env", "--edit",
                "--set-home", "--login", "--remove-timestamp", "--reset-timestamp",
                "--list", "--non-interactive", "--preserve-groups", "--stdin", "--shell",
                "--version", "--validate",
            }
        ),
        long_valued=frozenset(
            {
                "--close-from", "--chdir", "--group", "--host", "--prompt", "--chroot",
                "--role", "--type", "--command-timeout", "--other-user", "--user",
            }
        ),
        assignments=True,
    ),
    "doas": _Syntax(flags="nsL", valued="uC"),
    "env": _Syntax(
        flags="i0v",
        valued="uCPS",
        long_flags=frozenset(
            {
                "--ignore-environment", "--null", "--debug", "--block-signal",
                "--default-signal", "--ignore-signal", "--list-signal-handling",
            }
        ),
        long_valued=frozenset({"--unset", "--chdir", "--split-string"}),
        assignments=True,
    ),
    "nohup": _Syntax(),
    "time": _Syntax(
        flags="apqv",
        valued="fo",
        long_flags=frozenset({"--append", "--portability", "--quiet", "--verbose"}),
        long_valued=frozenset({"--format", "--output"}),
    ),
    "command": _Syntax(flags="pvV", no_command="vV"),
    "builtin": _Syntax(),
    "exec": _Syntax(flags="cl", valued="a"),
    "nice": _Syntax(valued="n", long_valued=frozenset({"--adjustment"}), numeric=True),
    "timeout": _Syntax(
        flags="v",
        valued="sk",
        long_flags=frozenset({"--foreground", "--preserve-status", "--verbose"}),
        long_valued=frozenset({"--kill-after", "--signal"}),
        operands=1,
    ),
    "xargs": _Syntax(
        flags="0oprtx",
        valued="adEILnPsJRS",
        attached_only="eil",
        long_flags=frozenset(
            {
                "--null", "--interactive", "--no-run-if-empty", "--verbose", "--exit",
                "--open-tty", "--show-limits", "--eof", "--replace", "--max-lines",
            }
        ),
        long_valued=frozenset(
            {
                "--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars",
                "--process-slot-var",
            }
        ),
    ),
    "stdbuf": _Syntax(valued="ioe", long_valued=frozenset({"--input", "--output", "--error"})),
    "setsid": _Syntax(flags="cfw", long_flags=frozenset({"--ctty", "--fork", "--wait"})),
    "watch": _Syntax(
        flags="bcdegtpx",
        valued="nq",
        long_flags=frozenset(
            {
                "--beep", "--color", "--differences", "--errexit", "--chgexit", "--no-title",
                "--precise", "--exec", "--no-wrap",
            }
        ),
        long_valued=frozenset({"--interval", "--equexit"}),
    ),
    "busybox": _Syntax(),
    "coproc": _Syntax(),
}  # fmt: skip

_SPLIT_STRING_OPTIONS = ("-S", "--split-string")


class Unwrapped(NamedTuple):
    """Where the inner command starts in ``words`` (``None``: nothing is run).

    ``words`` is the wrapper's own word tuple, or a new one when ``env -S`` split a string
    into words. ``certain`` is false when an unknown option made the split a guess.
    """

    words: tuple[Word, ...]
    start: int | None
    certain: bool


def unwrap(words: tuple[Word, ...], start: int) -> Unwrapped | None:
    """The command run by the command at ``words[start:]`` if its program is a wrapper.

    The program is recognised by its basename (``/usr/bin/sudo`` is ``sudo``). Returns
    ``None`` when it is not a known wrapper. Work is proportional to the options read, so
    a chain of wrappers is unwrapped in linear time.
    """
    syntax = _WRAPPERS.get(words[start].text.rsplit("/", 1)[-1])
    if syntax is None:
        return None
    certain = True
    split: tuple[Word, ...] = ()
    index = start + 1
    while index < len(words):
        text = words[index].text
        if text == "--":
            index += 1
            break
        if text == "-" and syntax.assignments:
            index += 1
            continue
        if not text.startswith("-") or text == "-":
            break
        if syntax.numeric and _NUMERIC_OPTION.fullmatch(text):
            index += 1
            continue
        option, value, consumed, known = _read_option(syntax, words, index)
        index += consumed
        certain = certain and known
        if len(option) == 1 and option in syntax.no_command:
            return Unwrapped(words, None, certain)
        if option in _SPLIT_STRING_OPTIONS and value is not None:
            split, split_certain = _split_string(value)
            certain = certain and split_certain
    if split:
        words, index = split + words[index:], 0
    if syntax.assignments:
        while index < len(words) and words[index].assignment:
            index += 1
    index += syntax.operands
    return Unwrapped(words, index if index < len(words) else None, certain)


def _read_option(
    syntax: _Syntax, words: tuple[Word, ...], index: int
) -> tuple[str, str | None, int, bool]:
    """One option word at ``index``: (option, value, words consumed, option was known).

    For a cluster of short flags the option returned is the letter that ended it (or the
    first letter found in ``syntax.no_command``); an env ``-S`` value is returned as well.
    """
    text = words[index].text
    following = words[index + 1].text if index + 1 < len(words) else None
    if text.startswith("--"):
        option, equals, attached = text.partition("=")
        if option in syntax.long_valued:
            if equals:
                return option, attached, 1, True
            return option, following, 2, following is not None
        return option, None, 1, option in syntax.long_flags
    known = True
    for position, letter in enumerate(text[1:], start=1):
        rest = text[position + 1 :]
        if letter in syntax.no_command:
            return letter, None, 1, known
        if letter in syntax.valued:
            option = "-" + letter
            if rest:
                return option, rest, 1, known
            return option, following, 2, known and following is not None
        if letter in syntax.attached_only:
            return "-" + letter, rest, 1, known
        known = known and letter in syntax.flags
    return "", None, 1, known


def _split_string(value: str) -> tuple[tuple[Word, ...], bool]:
    """``env -S STRING``: the string is split into words that precede the command."""
    try:
        return tuple(Word.plain(part) for part in shlex.split(value)), True
    except ValueError:
        return tuple(Word.plain(part) for part in value.split()), False
