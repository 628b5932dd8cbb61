"""An agent's settings file read and replaced whole: JSON objects, and text written atomically.

A file is replaced through a temporary file in the same folder (``os.replace``), keeping the
old file's permissions, so an agent never reads half a settings file.
"""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any

__all__ = ["read_json", "read_text", "write_json", "write_text"]


def read_text(path: str) -> str:
    """The file's text; ``""`` when it does not exist."""
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except FileNotFoundError:
        return ""


def read_json(path: str) -> dict[str, Any]:
    """The JSON object in ``path``; ``{}`` when it is missing or blank; ``ValueError`` with
    ``line L:C`` when it is not a JSON object."""
    text = read_text(path)
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"line {exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise ValueError("the settings are not a JSON object")
    return data


def write_json(path: str, settings: dict[str, Any]) -> None:
    """``settings`` as indented JSON."""
    write_text(path, json.dumps(settings, indent=2, ensure_ascii=False) + "\n")


def write_text(path: str, text: str) -> None:
    """Replace ``path`` with ``text`` atomically (its folder is created)."""
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".settings.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        if os.path.exists(path):
            os.chmod(temporary, os.stat(path).st_mode & 0o777)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
