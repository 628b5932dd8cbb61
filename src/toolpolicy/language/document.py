"""One policy document, checked from its bytes: read, parse, validate, build the model.

A document with any problem is never partly used: ``check_bytes`` returns every problem and
no document, ``load_document`` raises one ``PolicyLoadError`` listing them.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from pydantic import ValidationError

from ..core.errors import PolicyLoadError, Problem
from . import codes
from .models import PolicyDoc, PresetTableDoc, ProfileDoc, validate_document
from .salvage import salvage
from .schema import schema_problems
from .semantics import boundary_problems, semantic_problems
from .yamltree import MAX_FILE_BYTES, ParsedTree, escape_pointer, parse_yaml

__all__ = [
    "MAX_PROBLEMS",
    "LoadedDocument",
    "check_bytes",
    "check_bytes_partial",
    "load_document",
    "placed_in_files",
]

MAX_PROBLEMS = 500
"""At most this many problems are reported for one file; a last one says the rest were cut."""


@dataclass(frozen=True, slots=True)
class LoadedDocument:
    """A document that passed every check, with where each of its nodes came from."""

    path: str
    kind: str
    model: ProfileDoc | PolicyDoc | PresetTableDoc
    sha256: str
    positions: Mapping[str, tuple[int, int]] = field(
        default_factory=lambda: MappingProxyType({}), repr=False, compare=False
    )

    def position(self, pointer: str) -> tuple[int, int]:
        """1-based (line, column) of the node at JSON ``pointer``, or of its nearest ancestor."""
        while True:
            found = self.positions.get(pointer)
            if found is not None:
                return found
            if not pointer:
                return (1, 1)
            pointer = pointer.rsplit("/", 1)[0]

    def placed(self, problems: Sequence[Problem]) -> list[Problem]:
        """The problems, those of this document moved to the node their pointer names."""
        placed: list[Problem] = []
        for problem in problems:
            if problem.path == self.path and problem.pointer:
                line, column = self.position(problem.pointer)
                problem = problem._replace(line=line, column=column)
            placed.append(problem)
        return placed


def placed_in_files(problems: Sequence[Problem], sha256: Mapping[str, str]) -> list[Problem]:
    """The problems moved to the node their pointer names, each file read again (compiled
    sources keep the lines of rules only, so a pattern that does not compile is placed here,
    on the error path); a file whose content is no longer ``sha256[path]`` keeps its
    problems where they were."""
    placed = list(problems)
    for path in dict.fromkeys(p.path for p in problems if p.pointer):
        try:
            document = load_document(path)
        except (PolicyLoadError, OSError):
            continue
        if document.sha256 == sha256.get(path):
            placed = document.placed(placed)
    return placed


def check_bytes(data: bytes, path: str) -> tuple[LoadedDocument | None, list[Problem]]:
    """Check one document given as raw bytes; never raises for bad input.

    Returns the document and no problems, or no document and every problem found (sorted by
    position). ``path`` is only used to label problems and the document.
    """
    document, problems, _ = _check(data, path)
    return document, problems


def check_bytes_partial(data: bytes, path: str) -> tuple[LoadedDocument | None, list[Problem]]:
    """Like ``check_bytes``, but a refused Policy whose problems each lie in one rule (or an
    example, or an unknown top-level key) also comes back as the document of the rules that
    validated, at their original positions, without examples (``salvage.salvage``).

    For linting only: with problems, the document is a part of the file, never the file.
    """
    document, problems, tree = _check(data, path)
    if document is not None or tree is None:
        return document, problems
    salvaged = salvage(tree, problems)
    if salvaged is None:
        return None, problems
    model, positions = salvaged
    digest = hashlib.sha256(data).hexdigest()
    return LoadedDocument(path, model.kind, model, digest, MappingProxyType(positions)), problems


def _check(
    data: bytes, path: str
) -> tuple[LoadedDocument | None, list[Problem], ParsedTree | None]:
    text, problems = _decode(data, path)
    if text is None:
        return None, problems, None
    tree, problems = parse_yaml(text, path)
    if tree is None:
        return None, _bounded(problems, path), None
    if tree.value is None:
        problems.append(
            Problem(
                path,
                1,
                1,
                codes.EMPTY,
                "the document is empty; expected a mapping with apiVersion and kind",
            )
        )
        return None, problems, None
    boundary, skip = boundary_problems(tree, path)
    problems += boundary
    problems += semantic_problems(tree, path)
    # The models and the schema accept exactly the same documents (tests/language/
    # test_drift.py). The models decide quickly; the slower schema runs only to explain a
    # refusal, node by node, with positions and readable messages.
    try:
        model = validate_document(tree.value)
    except ValidationError as exc:
        explained = schema_problems(tree, path, [*skip, *tree.refused])
        if not explained and not problems:  # refused, yet the schema saw nothing: fail closed
            explained = _model_problems(exc, tree, path)
        return None, _bounded(problems + explained, path), tree
    if problems:
        return None, _bounded(problems, path), tree
    digest = hashlib.sha256(data).hexdigest()
    return LoadedDocument(path, model.kind, model, digest, tree.positions), [], tree


def load_document(path: str | os.PathLike[str]) -> LoadedDocument:
    """Read and check the document at ``path``; raises ``PolicyLoadError`` on any problem.

    A missing, unreadable or non-regular file is a problem too (code ``read-error``).
    """
    display = os.fspath(path)
    data = read_bounded(display)
    document, problems = check_bytes(data, display)
    if document is None:
        raise PolicyLoadError(problems)
    return document


def read_bounded(path: str) -> bytes:
    """At most one byte more than the size limit of the regular file at ``path``."""
    try:
        # O_NONBLOCK: opening a FIFO must not hang; it is refused below as not a regular file.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise _read_error(path, exc.strerror or str(exc)) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise _read_error(path, "not a regular file")
    with os.fdopen(fd, "rb") as handle:
        try:
            return handle.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise _read_error(path, exc.strerror or str(exc)) from None


def _read_error(path: str, reason: str) -> PolicyLoadError:
    return PolicyLoadError(
        [Problem(path, 1, 1, codes.READ_ERROR, f"cannot read the file: {reason}")]
    )


def _decode(data: bytes, path: str) -> tuple[str | None, list[Problem]]:
    if len(data) > MAX_FILE_BYTES:
        message = f"the file is larger than the {MAX_FILE_BYTES} byte (1 MiB) limit"
        return None, [Problem(path, 1, 1, codes.TOO_LARGE, message)]
    nul = data.find(b"\x00")
    if nul >= 0:
        line, column = _byte_position(data, nul)
        message = "binary content (a NUL byte); policy files are UTF-8 text"
        return None, [Problem(path, line, column, codes.ENCODING, message)]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _byte_position(data, exc.start)
        message = f"not valid UTF-8 (byte 0x{data[exc.start]:02x}); policy files are UTF-8 text"
        return None, [Problem(path, line, column, codes.ENCODING, message)]
    return text.removeprefix("\ufeff"), []


def _byte_position(data: bytes, offset: int) -> tuple[int, int]:
    line_start = data.rfind(b"\n", 0, offset) + 1
    column = len(data[line_start:offset].decode("utf-8", errors="replace")) + 1
    return data.count(b"\n", 0, offset) + 1, column


def _bounded(problems: list[Problem], path: str) -> list[Problem]:
    problems = sorted(problems)
    if len(problems) <= MAX_PROBLEMS:
        return problems
    last = problems[MAX_PROBLEMS - 1]
    cut = Problem(
        path,
        last.line,
        last.column,
        codes.TOO_LARGE,
        f"more than {MAX_PROBLEMS} problems; fix these and check again",
    )
    return [*problems[:MAX_PROBLEMS], cut]


def _model_problems(exc: ValidationError, tree: ParsedTree, path: str) -> list[Problem]:
    problems: list[Problem] = []
    for error in exc.errors():
        parts = list(error["loc"])
        if parts and isinstance(tree.value, dict) and parts[0] == tree.value.get("kind"):
            parts = parts[1:]
        pointer = "".join(f"/{escape_pointer(str(p))}" for p in parts)
        line, column = tree.position(pointer)
        problems.append(Problem(path, line, column, codes.SCHEMA, error["msg"], pointer))
    return _bounded(problems, path)
