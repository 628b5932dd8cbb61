"""Concrete paths and commands built from rule patterns, each verified by the real matcher.

A path is built from a gitignore-style glob by construction: ``**`` becomes one segment
(``x``) or, if that does not match, none; ``*`` a letter string (``y``); ``?`` a letter
(``z``); ``[...]`` its first member (for a negated class, a letter outside it); a trailing
``/`` gets a file below the directory. A near miss changes the path as little as possible
(last character, then one segment, then the first segment dropped) until it no longer
matches. Commands: the prefix itself (``*`` becomes a word), the prefix hidden behind
``true &&``, and a near miss (the last word dropped, or one word lengthened).
Nothing is returned unless the real matcher (the rule's compiled glob or command pattern)
agrees.
"""

from __future__ import annotations

import functools
import os
import shlex
from collections.abc import Iterator
from dataclasses import dataclass

from ..compile.commands import CommandPattern, split_command_line
from ..compile.globs import GlobPattern
from ..core.errors import WorkspacePathError
from ..tools.workspace import normalized_path

__all__ = ["CommandProbes", "PathProbes", "command_probes", "path_probes"]

_STAR = "y"
_QUESTION = "z"
_SEGMENT = "x"
_FILE_BELOW = "x"
_NEGATED_CANDIDATES = "xyzabcdefghijklmnopqrstuvw0123456789_"


@dataclass(frozen=True, slots=True)
class PathProbes:
    """A path that matches a glob, and a near miss that does not (``None`` when none was
    found, e.g. for ``*``, which matches every path)."""

    match: str
    miss: str | None


@dataclass(frozen=True, slots=True)
class CommandProbes:
    """A command line matching a prefix, the prefix hidden in a compound line, a near miss;
    each ``None`` when it could not be verified."""

    match: str | None
    compound: str | None
    miss: str | None


@functools.lru_cache(maxsize=4096)
def path_probes(pattern: GlobPattern) -> PathProbes | None:
    """Verified probes for a rule's glob (``compile_glob(text, gitignore=True)``, as the
    compiler builds it); ``None`` when construction did not produce a matching path."""
    if pattern.outside:
        return _outside_probes(pattern)
    for candidate in _constructions(pattern.text):
        if _clean(candidate) and pattern.matches(candidate):
            miss = next(
                (m for m in _near_misses(candidate) if _clean(m) and not pattern.matches(m)),
                None,
            )
            return PathProbes(candidate, miss)
    return None


def _outside_probes(pattern: GlobPattern) -> PathProbes | None:
    """Absolute probes for an absolute (``//``) or home (``~/``) pattern, verified by the
    matcher against this process's home folder."""
    home = os.path.expanduser("~")
    root = "/" if pattern.root == "//" else home.rstrip("/") + "/"
    for candidate in _constructions(pattern.text[2:]):
        if pattern.matches_absolute(root + candidate, home):
            misses = (root + m for m in _near_misses(candidate))
            miss = next((m for m in misses if not pattern.matches_absolute(m, home)), None)
            return PathProbes(root + candidate, miss)
    return None


def command_probes(pattern: CommandPattern) -> CommandProbes:
    """Verified probes for a command prefix."""
    words = [_SEGMENT if word == "*" else word for word in pattern.words]
    line = " ".join(shlex.quote(word) for word in words)
    match = line if _hits(pattern, line) else None
    compound = f"true && {line}"
    misses = []
    if len(words) > 1:
        misses.append(words[:-1])
    for index in reversed(range(len(words))):
        if pattern.words[index] != "*":
            misses.append([*words[:index], words[index] + _SEGMENT, *words[index + 1 :]])
    miss = next(
        (
            text
            for text in (" ".join(shlex.quote(word) for word in m) for m in misses)
            if not _hits(pattern, text)
        ),
        None,
    )
    return CommandProbes(match, compound if _hits(pattern, compound) else None, miss)


def _hits(pattern: CommandPattern, line: str) -> bool:
    return any(pattern.matches(part) for part in split_command_line(line).parts)


def _clean(path: str) -> bool:
    """The engine matches the normalized path: a probe must already be in that form."""
    try:
        return normalized_path(path) == path
    except WorkspacePathError:
        return False


def _constructions(text: str) -> Iterator[str]:
    body = text.removeprefix("/")
    directory = body.endswith("/")
    segments = body.rstrip("/").split("/")
    for double_star in ([_SEGMENT], []):
        built: list[str] = []
        for segment in segments:
            built.extend(double_star if segment == "**" else [_segment(segment)])
        if directory or not built:
            built.append(_FILE_BELOW)
        yield "/".join(built)


def _segment(segment: str) -> str:
    out: list[str] = []
    index = 0
    while index < len(segment):
        char = segment[index]
        if char == "*":
            if not out or out[-1] != _STAR:
                out.append(_STAR)
            index += 1
        elif char == "?":
            out.append(_QUESTION)
            index += 1
        elif char == "[":
            member, index = _class_member(segment, index)
            out.append(member)
        else:
            out.append(char)
            index += 1
    return "".join(out)


def _class_member(segment: str, start: int) -> tuple[str, int]:
    """The first member of ``[...]`` at ``segment[start]`` and the index after the class;
    for a negated class, a letter outside it."""
    index = start + 1
    negate = index < len(segment) and segment[index] in "!^"
    if negate:
        index += 1
    ranges: list[tuple[str, str]] = []
    first = True
    while index < len(segment) and (segment[index] != "]" or first):
        first = False
        char = segment[index]
        if index + 2 < len(segment) and segment[index + 1] == "-" and segment[index + 2] != "]":
            ranges.append((char, segment[index + 2]))
            index += 3
        else:
            ranges.append((char, char))
            index += 1
    after = index + 1
    if not negate:
        return (ranges[0][0] if ranges else _QUESTION), after
    for candidate in _NEGATED_CANDIDATES:
        if not any(low <= candidate <= high for low, high in ranges):
            return candidate, after
    return _QUESTION, after


def _near_misses(path: str) -> Iterator[str]:
    segments = path.split("/")
    last = segments[-1]
    replacement = "g" if last[-1] == "h" else "h"
    yield "/".join([*segments[:-1], last[:-1] + replacement])
    for index in range(len(segments)):
        yield "/".join([*segments[:index], segments[index] + _SEGMENT, *segments[index + 1 :]])
    if len(segments) > 1:
        yield "/".join(segments[1:])
