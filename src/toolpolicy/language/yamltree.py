"""Safe YAML with positions: a plain JSON-like tree built from PyYAML's event stream.

Nothing is ever constructed by PyYAML itself. The events are folded into dicts, lists and
scalars by hand, so that

* anchors and aliases are refused *before* anything could expand (no alias bombs),
* duplicate keys, non-string keys and unusual tags are problems, not silent overwrites,
* every node keeps its 1-based line and column, addressed by JSON pointer,
* input is bounded: bytes, nesting depth, node count and scalar length.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

import yaml
from yaml.constructor import SafeConstructor
from yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    NodeEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from ..core.errors import Problem
from . import codes

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_NODES",
    "MAX_SCALAR_CHARS",
    "ParsedTree",
    "escape_pointer",
    "parse_yaml",
    "read_as",
]

MAX_FILE_BYTES = 1024 * 1024
MAX_DEPTH = 64
MAX_NODES = 262_144
MAX_SCALAR_CHARS = 65_536

Position = tuple[int, int]

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = frozenset(_TAG + t for t in ("str", "int", "float", "bool", "null", "timestamp"))
_MAPPING_TAGS = frozenset({None, "!", _TAG + "map"})
_SEQUENCE_TAGS = frozenset({None, "!", _TAG + "seq"})

_PURE_LOADER: Any = yaml.SafeLoader
try:  # the C parser is an order of magnitude faster; the pure one behaves the same
    _LOADER: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _LOADER = _PURE_LOADER

# The characters YAML 1.1 refuses outright (its c-printable set, complemented).
_NON_PRINTABLE = re.compile(r"[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_RESOLVER = Resolver()
_IMPLICIT_FIRST = frozenset(k for k in Resolver.yaml_implicit_resolvers if k)
_CONSTRUCTOR = SafeConstructor()
_CONSTRUCT = {
    _TAG + "int": _CONSTRUCTOR.construct_yaml_int,
    _TAG + "float": _CONSTRUCTOR.construct_yaml_float,
    _TAG + "bool": _CONSTRUCTOR.construct_yaml_bool,
    _TAG + "null": _CONSTRUCTOR.construct_yaml_null,
}


@dataclass(frozen=True, slots=True)
class ParsedTree:
    """A YAML document as plain data plus where each node started.

    ``positions`` maps the JSON pointer of every node to the (line, column) of its value;
    ``key_positions`` maps the pointer of every mapping member to where its key starts;
    ``refused`` lists the pointers of nodes replaced by ``None`` (aliases, refused tags);
    ``unquoted`` maps the pointer of every plain scalar YAML read as something other than a
    string (``no`` → false, ``1.0`` → 1.0, ``~`` → null) to the text as written;
    ``keys`` holds every mapping key written in the document (None: not known).

    For a document without problems the three tables hold the root and the two levels below
    it (``/rules/3``) at once; any other pointer folds the text again, once, keeping every
    position (``_OnDemand``): a valid document rarely needs one, and keeping them all is half
    the cost of reading a large policy.
    """

    value: object
    positions: Mapping[str, Position]
    key_positions: Mapping[str, Position]
    refused: tuple[str, ...] = ()
    unquoted: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    keys: frozenset[str] | None = None

    def position(self, pointer: str) -> Position:
        """Where the node at ``pointer`` starts, or its nearest ancestor that exists."""
        while pointer and pointer not in self.positions:
            pointer = pointer.rsplit("/", 1)[0]
        return self.positions.get(pointer, (1, 1))


def escape_pointer(token: str) -> str:
    """One JSON pointer reference token (RFC 6901: ``~`` → ``~0``, ``/`` → ``~1``)."""
    return token.replace("~", "~0").replace("/", "~1")


class _Stop(Exception):
    """A problem after which the rest of the event stream cannot be trusted or afforded."""


class _Frame:
    """One open mapping or sequence while folding events."""

    __slots__ = ("container", "key", "key_position", "pointer")

    def __init__(self, container: dict[str, object] | list[object], pointer: str) -> None:
        self.container = container
        self.pointer = pointer
        self.key: str | None = None
        self.key_position: Position = (0, 0)


_TOO_DEEP = f"mappings and sequences nest deeper than {MAX_DEPTH}"

_DISCARD = "\x00discard"
"""Pending-key marker: the next value belongs to a refused key and is dropped."""


_SHALLOW = 2
"""Without every position, positions are kept for nodes this many levels below the root."""

_DEEP = "\x00deep"
"""Pointer of a node below the positions kept: it is placed, not recorded."""


class _Builder:
    """Folds one event stream into a tree, collecting problems as it goes.

    With ``deep`` False, positions and unquoted texts are kept only down to ``_SHALLOW``
    levels; everything else it does (values, keys, problems, bounds) is the same.
    """

    def __init__(self, path: str, *, deep: bool = True) -> None:
        self.path = path
        self.limit = MAX_DEPTH + 1 if deep else _SHALLOW
        self.keys: set[str] = set()
        self.problems: list[Problem] = []
        self.positions: dict[str, Position] = {}
        self.key_positions: dict[str, Position] = {}
        self.stack: list[_Frame] = []
        self.root: object = None
        self.refused: list[str] = []
        self.unquoted: dict[str, str] = {}
        self.nodes = 0
        self.documents = 0

    def problem(self, position: Position, code: str, message: str, pointer: str = "") -> None:
        self.problems.append(Problem(self.path, position[0], position[1], code, message, pointer))

    def fatal(self, position: Position, code: str, message: str) -> _Stop:
        self.problem(position, code, message)
        return _Stop()

    def feed(self, event: Event) -> None:
        kind = type(event)
        if kind is MappingEndEvent or kind is SequenceEndEvent:
            self.stack.pop()
            return
        mark = event.start_mark
        position = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        if isinstance(event, NodeEvent):
            self.nodes += 1
            if self.nodes > MAX_NODES:
                raise self.fatal(
                    position, codes.TOO_LARGE, f"the document has more than {MAX_NODES} nodes"
                )
            if isinstance(event, AliasEvent):
                message = f"YAML aliases are not allowed (*{event.anchor}); write the value out"
                self.refuse(position, codes.YAML_ALIAS, message)
                return
            if event.anchor is not None:
                message = f"YAML anchors are not allowed (&{event.anchor}); write the value out"
                self.problem(position, codes.YAML_ALIAS, message)
            if isinstance(event, ScalarEvent):
                text = event.value
                if (  # the common case, a plain or quoted string, without the detour
                    event.tag is None
                    and len(text) <= MAX_SCALAR_CHARS
                    and (not event.implicit[0] or (text and text[0] not in _IMPLICIT_FIRST))
                ):
                    self.attach(text, position)
                else:
                    self.scalar(event, position)
            elif isinstance(event, CollectionStartEvent):
                self.open(event, position)
        elif kind is DocumentStartEvent:
            self.documents += 1
            if self.documents > 1:
                raise self.fatal(
                    position,
                    codes.MULTI_DOCUMENT,
                    "only one YAML document per file is allowed; split the file at '---'",
                )

    def run(self, next_event: Callable[[], Any]) -> None:
        """Fold every event ``next_event`` gives.

        The common events (a collection ending; a collection or a string, without anchor or
        tag, placed where its place is kept) are folded here, inline, exactly as ``feed``
        would fold them; every other event goes through ``feed``. A 100,000-rule policy is
        about two million events.
        """
        feed, stack, limit, keys = self.feed, self.stack, self.limit, self.keys
        positions, key_positions = self.positions, self.key_positions
        scalar_event, mapping_start, sequence_start = (
            ScalarEvent,
            MappingStartEvent,
            SequenceStartEvent,
        )
        mapping_end, sequence_end = MappingEndEvent, SequenceEndEvent
        implicit_first, plain_text = _IMPLICIT_FIRST, _plain_is_text
        max_nodes, max_depth, max_chars, discard = MAX_NODES, MAX_DEPTH, MAX_SCALAR_CHARS, _DISCARD
        # ``self.nodes`` is counted here in ``nodes`` and handed over around ``feed`` (which
        # counts too); a stream that raises leaves the builder unused.
        nodes = self.nodes
        while (event := next_event()) is not None:
            kind = type(event)
            if (
                kind is scalar_event
                and stack
                and event.anchor is None
                and event.tag is None
                and nodes < max_nodes
                and len(text := event.value) <= max_chars
                and not (
                    event.implicit[0]
                    and (not text or (text[0] in implicit_first and not plain_text(text)))
                )
                and (frame := stack[-1]).pointer is not discard
            ):
                nodes += 1
                container = frame.container
                if len(stack) > limit:  # placed, not recorded (a duplicate key is a problem)
                    if type(container) is list:
                        container.append(text)
                    elif frame.key is None:
                        if text in container:
                            self.take_key(frame, text, (1, 1), "")
                        else:
                            frame.key = text
                            keys.add(text)
                    else:
                        pending, frame.key = frame.key, None
                        if pending is not discard:
                            container[pending] = text  # type: ignore[call-overload]
                    continue
                mark = event.start_mark
                position = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
                if type(container) is list:
                    positions[f"{frame.pointer}/{len(container)}"] = position
                    container.append(text)
                    continue
                key = frame.key
                if key is None:
                    if text in container:
                        self.take_key(frame, text, position, "")
                    else:
                        frame.key, frame.key_position = text, position
                        keys.add(text)
                    continue
                frame.key = None
                if key is discard:
                    continue
                token = escape_pointer(key) if "/" in key or "~" in key else key
                pointer = f"{frame.pointer}/{token}"
                container[key] = text  # type: ignore[call-overload]
                key_positions[pointer] = frame.key_position
                positions[pointer] = position
                continue
            if kind is mapping_end or kind is sequence_end:
                stack.pop()
                continue
            if (
                (kind is mapping_start or kind is sequence_start)
                and event.anchor is None
                and event.tag is None
                and nodes < max_nodes
                and len(stack) < max_depth
            ):
                nodes += 1
                mark = event.start_mark
                position = (  # read only where it is kept
                    (mark.line + 1, mark.column + 1)
                    if mark is not None and len(stack) <= limit
                    else (1, 1)
                )
                opened: dict[str, object] | list[object] = {} if kind is mapping_start else []
                placed = self.attach(opened, position)
                stack.append(_Frame(opened, placed if placed is not None else discard))
                continue
            self.nodes = nodes  # every other event, folded by ``feed``
            feed(event)
            nodes = self.nodes
        self.nodes = nodes

    def refuse(self, position: Position, code: str, message: str) -> None:
        """Stand ``None`` in for a refused node and remember where, so later checks skip it."""
        pointer = self.attach(None, position)
        if pointer is not None:
            self.refused.append(pointer)
        self.problem(position, code, message, pointer or "")

    def open(self, event: CollectionStartEvent, position: Position) -> None:
        if len(self.stack) >= MAX_DEPTH:
            raise self.fatal(position, codes.TOO_DEEP, _TOO_DEEP)
        container: dict[str, object] | list[object]
        if isinstance(event, MappingStartEvent):
            allowed, container = _MAPPING_TAGS, {}
        else:
            allowed, container = _SEQUENCE_TAGS, []
        if event.tag in allowed:
            pointer = self.attach(container, position)
        else:  # the children are still folded (into a container nobody sees) to stay in step
            self.refuse(position, codes.YAML_TAG, f"the YAML tag {event.tag} is not allowed")
            pointer = None
        self.stack.append(_Frame(container, pointer if pointer is not None else _DISCARD))

    def attach(self, value: object, position: Position, written: str = "") -> str | None:
        """Place ``value`` in the open container; returns its pointer (None if dropped).

        ``written`` is the text of a plain scalar YAML read as something other than a string.
        """
        if not self.stack:
            self.root = value
            self.positions[""] = position
            return ""
        frame = self.stack[-1]
        container = frame.container
        kept = len(self.stack) <= self.limit
        if type(container) is list:
            pointer = f"{frame.pointer}/{len(container)}" if kept else _DEEP
            container.append(value)
        elif frame.key is None:
            self.take_key(frame, value, position, written)
            return None
        else:
            key, frame.key = frame.key, None
            if key is _DISCARD:
                return None
            container[key] = value  # type: ignore[call-overload]
            if not kept:
                pointer = _DEEP
            else:
                token = escape_pointer(key) if "/" in key or "~" in key else key
                pointer = f"{frame.pointer}/{token}"
                if frame.pointer is not _DISCARD:
                    self.key_positions[pointer] = frame.key_position
        if frame.pointer is _DISCARD:
            return None
        if pointer is _DEEP:
            return _DEEP
        self.positions[pointer] = position
        return pointer

    def take_key(self, frame: _Frame, key: object, position: Position, written: str) -> None:
        assert isinstance(frame.container, dict)
        frame.key, frame.key_position = _DISCARD, position
        if not isinstance(key, str):
            if written:
                quoted = json.dumps(written, ensure_ascii=False)
                message = (
                    f"mapping keys must be strings, but YAML reads the unquoted {written} as "
                    f"{read_as(written, key)}; write {quoted} in quotes"
                )
            else:
                shown = "a mapping or sequence" if isinstance(key, dict | list) else repr(key)
                message = f"mapping keys must be strings, but YAML reads this key as {shown}"
            self.problem(position, codes.YAML_KEY, message)
        elif key in frame.container:
            first = self.key_positions.get(f"{frame.pointer}/{escape_pointer(key)}", (0, 0))
            self.problem(
                position,
                codes.DUPLICATE_KEY,
                f"duplicate key {key!r} (first defined at line {first[0]}, column {first[1]})",
                f"{frame.pointer}/{escape_pointer(key)}",
            )
        else:
            frame.key = key
            self.keys.add(key)

    def scalar(self, event: ScalarEvent, position: Position) -> None:
        text, tag = event.value, event.tag
        if len(text) > MAX_SCALAR_CHARS:
            raise self.fatal(
                position, codes.TOO_LARGE, f"a scalar is longer than {MAX_SCALAR_CHARS} characters"
            )
        if tag is None and event.implicit[0]:
            # Most plain scalars start with a character no implicit resolver claims: text.
            if text and text[0] not in _IMPLICIT_FIRST:
                self.attach(text, position)
                return
            tag = _plain_tag(text)
        elif tag is None or tag == "!":
            self.attach(text, position)
            return
        if tag not in _SCALAR_TAGS:
            self.refuse(position, codes.YAML_TAG, f"the YAML tag {tag} is not allowed")
            return
        construct = _CONSTRUCT.get(tag)
        if construct is None:  # str, and timestamps, which the language keeps as text
            self.attach(text, position)
            return
        try:
            value = construct(ScalarNode(tag, text))
        except ValueError:
            raise self.fatal(position, codes.TOO_LARGE, "a number is too large") from None
        written = text if event.tag is None else ""
        pointer = self.attach(value, position, written)
        if pointer is not None and pointer is not _DEEP and written:
            self.unquoted[pointer] = written


def read_as(written: str, value: object) -> str:
    """What YAML made of the plain text ``written``: ``the YAML 1.1 boolean false``,
    ``the boolean true``, ``the number 1.1``, ``null``."""
    if isinstance(value, bool):
        shown = "true" if value else "false"
        yaml11 = written not in ("true", "false", "True", "False", "TRUE", "FALSE")
        return f"the YAML 1.1 boolean {shown}" if yaml11 else f"the boolean {shown}"
    if value is None:
        return "null"
    return f"the number {json.dumps(value)}"


@functools.lru_cache(maxsize=4096)
def _plain_is_text(text: str) -> bool:
    """Whether YAML reads the plain scalar ``text`` as a string (``name``, not ``no``)."""
    return _plain_tag(text) == _TAG + "str"


@functools.lru_cache(maxsize=4096)
def _plain_tag(text: str) -> str:
    """The tag PyYAML's safe loader gives a plain scalar (keys repeat, so this is cached)."""
    tag: str = _RESOLVER.resolve(ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]
    return tag


def parse_yaml(text: str, path: str) -> tuple[ParsedTree | None, list[Problem]]:
    """Fold ``text`` (already decoded and size-checked) into a tree; never raises for bad input.

    The tree is ``None`` when the text is not well-formed or a bound was hit; otherwise it is
    returned together with the non-fatal problems (duplicate keys, aliases, tags, keys).
    """
    refused = _NON_PRINTABLE.search(text)
    if refused is not None:
        line, column = _line_column(text, refused.start())
        message = f"control character U+{ord(refused.group()):04X} is not allowed in YAML text"
        return None, [Problem(path, line, column, codes.ENCODING, message)]
    # First without the deep positions; a document with any problem is folded again with
    # all of them, so that every problem is found, placed and worded by the same fold.
    quick = _Builder(path, deep=False)
    try:
        complete = _fold(quick, text, _LOADER)
    except _BackendTooDeep:
        complete = False
    if not complete or quick.problems:
        return _parse_deep(text, path)
    refold = _Refold(text, path)
    return (
        ParsedTree(
            quick.root,
            _OnDemand(_root_positions(quick), refold, _positions_of),
            _OnDemand(quick.key_positions, refold, _key_positions_of),
            (),
            _OnDemand({}, refold, _unquoted_of),
            frozenset(quick.keys),
        ),
        [],
    )


def _parse_deep(text: str, path: str) -> tuple[ParsedTree | None, list[Problem]]:
    """``parse_yaml`` keeping the position of every node."""
    builder = _Builder(path)
    try:
        complete = _fold(builder, text, _LOADER)
    except _BackendTooDeep as exc:
        # libyaml (as PyYAML 6.0.4 ships it) stops at its own nesting limit, 1,000 levels,
        # while it looks ahead along a line of flow openers, before emitting the events our
        # lower limit counts. The pure parser streams them, so the refusal is ours, at its
        # place.
        builder = _Builder(path)
        try:
            complete = _fold(builder, text, _PURE_LOADER)
        except _BackendTooDeep:  # pragma: no cover - only if a backend's limit were ours
            builder.problem(exc.position, codes.TOO_DEEP, _TOO_DEEP)
            complete = False
    if not complete:
        return None, builder.problems
    return (
        ParsedTree(
            builder.root,
            MappingProxyType(_root_positions(builder)),
            MappingProxyType(builder.key_positions),
            tuple(builder.refused),
            MappingProxyType(builder.unquoted),
            frozenset(builder.keys),
        ),
        builder.problems,
    )


def _root_positions(builder: _Builder) -> dict[str, Position]:
    if builder.documents == 0:
        builder.positions[""] = (1, 1)
    return builder.positions


_Value = TypeVar("_Value")


class _Refold:
    """A problem-free document's text, folded again with every position on first use."""

    __slots__ = ("_path", "_text", "_tree")

    def __init__(self, text: str, path: str) -> None:
        self._text, self._path = text, path
        self._tree: ParsedTree | None = None

    def tree(self) -> ParsedTree:
        if self._tree is None:
            tree, _ = _parse_deep(self._text, self._path)
            # The same text folded the same way; an empty tree only if that ever failed.
            self._tree = tree if tree is not None else ParsedTree(None, {}, {})
        return self._tree


class _OnDemand(Mapping[str, _Value]):
    """A table of ``ParsedTree``: what the quick fold kept, the rest from the refold."""

    __slots__ = ("_known", "_read", "_refold")

    def __init__(
        self,
        known: Mapping[str, _Value],
        refold: _Refold,
        read: Callable[[ParsedTree], Mapping[str, _Value]],
    ) -> None:
        self._known, self._refold, self._read = known, refold, read

    def __getitem__(self, pointer: str) -> _Value:
        found = self._known.get(pointer)
        if found is not None:
            return found
        return self._read(self._refold.tree())[pointer]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read(self._refold.tree()))

    def __len__(self) -> int:
        return len(self._read(self._refold.tree()))


def _positions_of(tree: ParsedTree) -> Mapping[str, Position]:
    return tree.positions


def _key_positions_of(tree: ParsedTree) -> Mapping[str, Position]:
    return tree.key_positions


def _unquoted_of(tree: ParsedTree) -> Mapping[str, str]:
    return tree.unquoted


class _BackendTooDeep(Exception):
    """The YAML parser refused to nest any deeper (its own limit, not ours)."""

    def __init__(self, position: Position) -> None:
        super().__init__(position)
        self.position = position


def _fold(builder: _Builder, text: str, loader_class: Any) -> bool:
    """Feed the events of ``text`` to ``builder``; False when a problem stopped the stream.

    Problems land in ``builder.problems``. Raises ``_BackendTooDeep`` when the parser itself
    gives up on the nesting depth.
    """
    loader = loader_class(text)
    try:
        builder.run(loader.get_event)
    except _Stop:
        return False
    except yaml.MarkedYAMLError as exc:
        if "nesting depth" in (exc.problem or ""):
            mark = exc.problem_mark
            raise _BackendTooDeep(
                (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
            ) from None
        builder.problems.append(_syntax_problem(exc, text, builder.path))
        return False
    except yaml.YAMLError as exc:  # pragma: no cover - _NON_PRINTABLE catches reader errors
        builder.problem((1, 1), codes.ENCODING, f"the text cannot be read as YAML: {exc}")
        return False
    finally:
        loader.dispose()
    return True


def _syntax_problem(exc: yaml.MarkedYAMLError, text: str, path: str) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    lines = text.splitlines()
    for number in (line, line - 1):
        if 0 < number <= len(lines):
            content = lines[number - 1]
            indent = content[: len(content) - len(content.lstrip(" \t"))]
            if "\t" in indent:
                return Problem(
                    path,
                    number,
                    indent.index("\t") + 1,
                    codes.TAB_INDENT,
                    "tabs cannot indent YAML; indent with spaces",
                )
    detail = exc.problem or "invalid YAML"
    if exc.context:
        detail = f"{detail} ({exc.context})"
    return Problem(path, line, column, codes.YAML_SYNTAX, f"YAML syntax error: {detail}")


def _line_column(text: str, index: int) -> Position:
    """1-based line and column of character ``index`` in ``text``."""
    before = text[:index]
    line = before.count("\n") + 1
    return line, index - (before.rfind("\n") + 1) + 1
