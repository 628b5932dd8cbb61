"""The files a plain shell line names, as the file accesses they are.

A redirection's target is a file access — ``>``/``>>`` a write, ``<`` a read — and so is a
command's literal path argument (a read). The engine decides each one with the very
participants ``write_file`` and ``read_file`` get (the boundary with its protected set, the
path rules): this module only turns the line's files into such requests.

The engine imports it on its first shell call (a hook's read or write never loads the shell
reader) and keeps what it needs from it in one :class:`ShellSupport`.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Iterator
from types import MappingProxyType

from ..compile.commands import CommandLine, split_command_line
from ..compile.index import RuleIndex
from ..compile.plain_subset import PlainLine
from ..compile.program_table import WRITES_BELOW_HINTS
from ..compile.redirect_scan import WrittenTarget
from ..core.lean_typing import NamedTuple
from ..core.vocabulary import Effect
from ..tools.definitions import builtin_definitions
from ..tools.real_path import real_path
from ..tools.registry import PreparedCall, ToolCall, ToolContext, ToolDefinition
from .request import PermissionRequest

__all__ = [
    "MAX_GLOB_MATCHES",
    "SINKS",
    "FileAccess",
    "ShellSupport",
    "below_writes",
    "file_accesses",
    "file_request",
    "files_ruled",
    "named_writes",
    "shell_support",
    "written_accesses",
]

SINKS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr"})
"""Targets that are no file: writing or reading them touches nothing."""

MAX_GLOB_MATCHES = 1024
"""A glob argument that matches more files than this is not checked file by file."""

_TOOL_FOR = {Effect.WRITE: "write_file", Effect.READ: "read_file"}


class FileAccess(NamedTuple):
    """One file a line touches: how, the path as the line wrote it (or a file its glob
    matches now), and whether it is a redirection (else a command's argument; a write there
    is one the program may make, ``CommandLine.maybe_written``). ``unchecked``:
    a glob that matches more than :data:`MAX_GLOB_MATCHES` files. ``listed``: only commands
    that list folders name it (``PlainLine.listed``), so a folder there is not read whole."""

    effect: Effect
    path: str
    redirect: bool
    unchecked: bool = False
    listed: bool = False
    below: bool = False
    """A folder its program may write anything below (``CommandLine.written_below``)."""
    whole: bool = False
    """With ``below``: even when it is the folder the line runs in."""

    def describe(self) -> str:
        """``redirection '> out.txt'``, ``argument '~/.ssh'`` or ``argument 'f' (may be
        written)``, for explanations."""
        if self.redirect:
            return f"redirection '{'<' if self.effect is Effect.READ else '>'} {self.path}'"
        if self.below:
            return f"argument '{self.path}' (anything below it may be written)"
        if self.effect is Effect.WRITE:
            return f"argument '{self.path}' (may be written)"
        return f"argument '{self.path}'"


class ShellSupport(NamedTuple):
    """What an engine needs for shell lines, bound once per engine: the line reader, this
    module's functions, ``real_path`` and whether path rules decide a plain line's files."""

    split: Callable[[str], CommandLine]
    accesses: Callable[[PlainLine, str], Iterator[FileAccess]]
    written: Callable[[Iterable[WrittenTarget], str], Iterator[FileAccess]]
    named: Callable[[Iterable[str], str], Iterator[FileAccess]]
    below: Callable[[Iterable[tuple[str, bool]], str], Iterator[FileAccess]]
    request: Callable[[FileAccess, ToolContext], PermissionRequest]
    real_path: Callable[[str, str], str]
    files_ruled: bool
    below_hints: frozenset[str]


def shell_support(index: RuleIndex) -> ShellSupport:
    """The :class:`ShellSupport` of an engine deciding with ``index``."""
    return ShellSupport(
        split_command_line,
        file_accesses,
        written_accesses,
        named_writes,
        below_writes,
        file_request,
        real_path,
        files_ruled(index),
        WRITES_BELOW_HINTS,
    )


def files_ruled(index: RuleIndex) -> bool:
    """Whether path rules of ``read_file`` or ``write_file`` exist: then they decide a plain
    line's files whether or not any rule looks at the command itself."""
    return any(index.rules_for(tool).has_path_rules for tool in _TOOL_FOR.values())


def file_accesses(plain: PlainLine, workspace: str = "") -> Iterator[FileAccess]:
    """The redirections of ``plain``, then every argument that may name a file the program
    reads, each right away also as a write when its program may write it, then the other
    words a program may write (``PlainLine.maybe_written``); a ``*``/``?`` glob also as every
    file it matches in ``workspace`` now, as bash will expand it."""
    for redirect in plain.redirects:
        if redirect.target not in SINKS:
            yield FileAccess(redirect.effect, redirect.target, True)
    listed = plain.listed
    writable = dict.fromkeys(plain.maybe_written)
    for path in plain.arguments:
        if path in SINKS:
            continue
        only = path in listed
        reads = [FileAccess(Effect.READ, path, False, listed=only)]
        if workspace and ("*" in path or "?" in path):
            reads += _expanded(Effect.READ, path, False, workspace, only)
        yield from reads
        if path in writable:
            del writable[path]
            if "[" in path:  # a class is expanded for the write alone (``named_writes``)
                yield from named_writes((path,), workspace)
            else:  # the same files, expanded once, as the writes they may be
                yield from (read._replace(effect=Effect.WRITE, listed=False) for read in reads)
    yield from named_writes(writable, workspace)


def written_accesses(targets: Iterable[WrittenTarget], workspace: str) -> Iterator[FileAccess]:
    """The writes of a line that is not plain (``CommandLine.written``): each target as
    written, and a glob target also as every file it matches in ``workspace`` now."""
    for target in targets:
        if target.path not in SINKS:
            yield FileAccess(Effect.WRITE, target.path, True)
        if target.glob is not None:
            yield from _expanded(Effect.WRITE, target.glob, True, workspace, False)


def named_writes(paths: Iterable[str], workspace: str) -> Iterator[FileAccess]:
    """The files a line's programs may write through their arguments
    (``PlainLine.maybe_written``, ``CommandLine.maybe_written``), as argument writes: each
    as written, and a glob (``*``, ``?``, ``[...]``) also as every file it matches in
    ``workspace`` now."""
    for path in paths:
        if path not in SINKS:
            yield FileAccess(Effect.WRITE, path, False)
        if workspace and ("*" in path or "?" in path or "[" in path):
            # bash's negated class ``[^...]`` is Python's ``[!...]``: both readings
            for pattern in dict.fromkeys((path, path.replace("[^", "[!"))):
                yield from _expanded(Effect.WRITE, pattern, False, workspace, False)


def below_writes(folders: Iterable[tuple[str, bool]], workspace: str) -> Iterator[FileAccess]:
    """The folders a line's programs may write anything below (``CommandLine.written_below``),
    as argument writes: each as written, and a glob also as every file it matches in
    ``workspace`` now."""
    for path, whole in folders:
        for access in named_writes((path,), workspace):
            yield access._replace(below=True, whole=whole)


def _expanded(
    effect: Effect, pattern: str, redirect: bool, workspace: str, listed: bool
) -> Iterator[FileAccess]:
    """The files ``pattern`` matches in ``workspace`` now, as bash will expand it; past
    :data:`MAX_GLOB_MATCHES`, the pattern itself, unchecked."""
    import glob  # only for a line with a glob

    matches = glob.glob(os.path.expanduser(pattern), root_dir=workspace)
    if len(matches) > MAX_GLOB_MATCHES:
        yield FileAccess(effect, pattern, redirect, unchecked=True)
        return
    for match in matches:
        yield FileAccess(effect, match, redirect, listed=listed)


def file_request(access: FileAccess, context: ToolContext) -> PermissionRequest:
    """The ``write_file``/``read_file`` request for ``access`` (``~`` expanded, a relative
    path taken from the folder the line runs in, ``context.cwd``), in the shell call's
    ``context``."""
    path = access.path
    if path == "~" or path.startswith("~/"):
        path = os.path.expanduser(path)
    elif context.cwd and not path.startswith("/"):
        folder = context.cwd
        path = os.path.join(folder, path) if folder.startswith("/") else f"{folder}/{path}"
    definition = _definitions()[_TOOL_FOR[access.effect]]
    arguments = MappingProxyType({"path": path})
    call = ToolCall("shell-file", definition.name, arguments)
    return PermissionRequest(PreparedCall(call, definition, arguments), context)


@functools.cache
def _definitions() -> dict[str, ToolDefinition]:
    return {d.name: d for d in builtin_definitions() if d.name in _TOOL_FOR.values()}
