"""What programs do with their arguments, in one table.

Two questions are asked of a program name: does the shell itself treat it specially when it
is the first word of a command (a reserved word, or a builtin that runs or defines code or
changes the shell's state — then the plain subset refuses the line, see
:mod:`toolpolicy.compile.plain_subset`), and does it run other code given in its arguments
(then an allow naming it lets anything run; ``lint`` warns with ``allow-runs-code``).

A deny needs neither table: it finds its program anywhere in the line
(:mod:`toolpolicy.compile.command_scan`), whatever wraps it.
"""

from __future__ import annotations

from types import MappingProxyType

__all__ = ["RESERVED_WORDS", "RUNS_CODE", "SHELLS", "SHELL_BUILTINS", "builtin_refusal"]

SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh"})

RESERVED_WORDS = frozenset(
    {"!", "{", "}", "[[", "]]", "if", "then", "else", "elif", "fi", "case", "esac", "for",
     "select", "while", "until", "do", "done", "in", "function", "time", "coproc"}
)  # fmt: skip
"""Words that open or close a compound command when they come first: never plain."""

_RUNS = "runs the code given in its arguments"
_DEFINES = "defines code that runs later"
_EVALUATES = "evaluates an array subscript (arithmetic, which can run commands)"
_STATE = "changes the shell's state for the commands after it"
_RUNS_COMMAND = "runs its arguments as a command"

SHELL_BUILTINS: MappingProxyType[str, str] = MappingProxyType(
    {
        "eval": _RUNS, "source": _RUNS, ".": _RUNS, "exec": _RUNS_COMMAND,
        "command": _RUNS_COMMAND, "builtin": _RUNS_COMMAND, "alias": _DEFINES,
        "unalias": _STATE, "trap": _DEFINES, "hash": _STATE, "enable": "loads builtins",
        "mapfile": _RUNS, "readarray": _RUNS, "compgen": _RUNS, "complete": _DEFINES,
        "bind": _DEFINES, "fc": _RUNS, "history": _STATE, "declare": _EVALUATES,
        "typeset": _EVALUATES, "local": _EVALUATES, "let": _EVALUATES, "read": _EVALUATES,
        "readonly": _EVALUATES, "export": _STATE, "unset": _EVALUATES, "getopts": _EVALUATES,
        "wait": _EVALUATES, "shift": _EVALUATES, "return": _EVALUATES, "exit": _EVALUATES,
        "set": _STATE, "shopt": _STATE, "cd": _STATE, "pushd": _STATE, "popd": _STATE,
        "umask": _STATE, "ulimit": _STATE,
    }
)  # fmt: skip
"""Builtins a plain line may not call, with why (``printf -v`` and ``test -v`` below)."""

_OPTION_BUILTINS = {"printf": ("-v",), "test": ("-v", "-R"), "[": ("-v", "-R")}

RUNS_CODE: MappingProxyType[str, str] = MappingProxyType(
    {
        **dict.fromkeys(SHELLS, "a shell runs any script given to it"),
        **dict.fromkeys(
            ("python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "deno", "bun",
             "perl", "ruby", "php", "lua", "Rscript", "osascript", "pwsh", "powershell", "awk",
             "gawk", "tclsh", "expect"),
            "an interpreter runs any program given to it",
        ),
        **dict.fromkeys(
            ("env", "sudo", "doas", "su", "runuser", "xargs", "nohup", "nice", "ionice",
             "timeout", "time", "taskset", "flock", "strace", "ltrace", "setsid", "stdbuf",
             "chroot", "unshare", "nsenter", "watch", "script", "busybox", "parallel",
             "eval", "exec", "command", "builtin"),
            "it runs the command given in its arguments",
        ),
        "find": "find -exec/-execdir/-ok run commands",
        "ssh": "ssh runs a command line on another machine",
        "git": "git -c/--config-env, aliases and hooks run any program",
        "make": "a Makefile runs any command",
        "npx": "npx downloads and runs any package",
        "uvx": "uvx downloads and runs any package",
        "pipx": "pipx run downloads and runs any package",
        "npm": "npm run/exec run any script",
        "docker": "docker run executes any image",
    }
)  # fmt: skip
"""Programs that run other code named in their arguments, with the reason."""


def builtin_refusal(words: tuple[str, ...]) -> str | None:
    """Why a plain line may not run the command ``words`` (its first word is the program),
    or ``None``."""
    program = words[0]
    reason = SHELL_BUILTINS.get(program)
    if reason is not None:
        return f"'{program}' {reason}"
    options = _OPTION_BUILTINS.get(program)
    if options is not None and any(word.startswith(options) for word in words[1:]):
        return f"'{program} {options[0]}' {_EVALUATES}"
    return None
