"""The project's lint settings: an ``exclude`` list of globs, from one of two files.

``toolpolicy lint`` with no PATH looks for them from the current folder upwards (stopping at
the top of the git work tree): the first folder holding a ``.toolpolicy.yaml`` or a
``pyproject.toml`` with a ``[tool.toolpolicy]`` table wins, ``.toolpolicy.yaml`` first::

    # .toolpolicy.yaml                     # pyproject.toml
    exclude:                               [tool.toolpolicy]
      - tests/**                           exclude = ["tests/**", "*.sample.yaml"]
      - "*.sample.yaml"

Patterns are gitignore-style globs relative to the folder of the file that sets them (the
same globs as rule ``paths``: no slash matches at any depth, ``dir/`` is a folder and
everything in it). Both tables are closed: an unknown key or a bad pattern is a usage error
naming the file, never a silently ignored setting.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass

from ..compile.globs import GlobError, GlobPattern, compile_glob
from ..core.errors import ConfigurationError
from ..language.yamltree import MAX_FILE_BYTES, parse_yaml

__all__ = ["SETTINGS_FILE", "Settings", "find_settings"]

SETTINGS_FILE = ".toolpolicy.yaml"
_PYPROJECT = "pyproject.toml"
_KEYS = frozenset({"exclude"})


@dataclass(frozen=True, slots=True)
class Settings:
    """Where the settings came from (None: no file) and the compiled ``exclude`` globs.

    ``root`` is the folder the patterns are relative to.
    """

    root: str
    source: str | None
    exclude: tuple[GlobPattern, ...] = ()

    def excluded_by(self, path: str) -> str | None:
        """The first ``exclude`` pattern that matches ``path`` (a folder ends with ``/``)."""
        relative = os.path.relpath(os.path.abspath(path), os.path.abspath(self.root))
        if relative == os.curdir or relative.split(os.sep, 1)[0] == os.pardir:
            return None
        posix = relative.replace(os.sep, "/") + ("/" if path.endswith("/") else "")
        return next((p.text for p in self.exclude if p.matches(posix)), None)


def find_settings(start: str, stop: str | None) -> Settings:
    """The settings that apply in ``start``: searched upwards, up to ``stop`` if given.

    Raises ``ConfigurationError`` for a settings file that cannot be read or is wrong.
    """
    folder = os.path.abspath(start)
    last = os.path.abspath(stop) if stop is not None else None
    while True:
        found = _read_folder(folder)
        if found is not None:
            return found
        parent = os.path.dirname(folder)
        if folder == last or parent == folder:
            return Settings(root=start, source=None)
        folder = parent


def _read_folder(folder: str) -> Settings | None:
    relative = os.path.relpath(folder)
    folder = folder if relative.split(os.sep, 1)[0] == os.pardir else relative
    dotfile = os.path.normpath(os.path.join(folder, SETTINGS_FILE))
    if os.path.isfile(dotfile):
        return _from_yaml(dotfile, folder)
    pyproject = os.path.normpath(os.path.join(folder, _PYPROJECT))
    if os.path.isfile(pyproject):
        return _from_pyproject(pyproject, folder)
    return None


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ConfigurationError(f"{path}: cannot read it: {exc.strerror or exc}") from None


def _from_yaml(path: str, folder: str) -> Settings:
    data = _read(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigurationError(f"{path}: not UTF-8 text") from None
    tree, problems = parse_yaml(text, path)
    if problems or tree is None:
        raise ConfigurationError(str(problems[0]) if problems else f"{path}: cannot read it")
    value = {} if tree.value is None else tree.value
    if not isinstance(value, dict):
        raise ConfigurationError(f"{path}:1:1: expected a mapping with an exclude list")
    for key in value:
        if key not in _KEYS:
            line, column = tree.key_positions.get(f"/{key}", (1, 1))
            raise ConfigurationError(
                f"{path}:{line}:{column}: unknown key {key!r} (known: exclude)"
            )
    line, column = tree.position("/exclude")
    where = f"{path}:{line}:{column}"
    return Settings(folder, path, _patterns(value.get("exclude", []), where))


def _from_pyproject(path: str, folder: str) -> Settings | None:
    try:
        document = tomllib.loads(_read(path).decode("utf-8", errors="replace"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigurationError(f"{path}: not valid TOML: {exc}") from None
    tool = document.get("tool")
    table = tool.get("toolpolicy") if isinstance(tool, dict) else None
    if table is None:
        return None
    where = f"{path} [tool.toolpolicy]"
    if not isinstance(table, dict):
        raise ConfigurationError(f"{where}: expected a table")
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise ConfigurationError(f"{where}: unknown key {unknown[0]!r} (known: exclude)")
    return Settings(folder, where, _patterns(table.get("exclude", []), f"{where} exclude"))


def _patterns(value: object, where: str) -> tuple[GlobPattern, ...]:
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise ConfigurationError(f"{where}: exclude must be a list of glob strings")
    compiled: list[GlobPattern] = []
    for text in value:
        try:
            compiled.append(compile_glob(text, gitignore=True))
        except GlobError as exc:
            raise ConfigurationError(f"{where}: {exc}") from None
    return tuple(compiled)
