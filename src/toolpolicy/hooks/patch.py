"""The files an ``apply_patch`` patch writes, read from its headers.

Codex's patch format (``*** Begin Patch`` … ``*** End Patch``) names each file on a header
line: ``*** Add File: P`` (created: ``write_file``), ``*** Update File: P`` (changed:
``edit_file``), ``*** Delete File: P`` (removed: ``write_file``) and ``*** Move to: P`` (the
new name of an updated file: ``write_file``). Headers are read wherever they stand, blanks
around them ignored, so a patch the agent would accept never names a file the hook did not
see.

A shell command may carry the patch as a heredoc (``apply_patch <<'EOF'`` … ``EOF``, also
after ``cd DIR &&``), which Codex applies itself instead of running a shell: its files are
writes relative to the event's ``cwd`` and to every ``cd`` folder the command names.
"""

from __future__ import annotations

import re

__all__ = ["PatchError", "patch_cd_folders", "patch_targets", "runs_apply_patch"]

# Codex trims each line (Unicode whitespace) before matching a header; so does this.
_HEADER = re.compile(
    r"^\s*\*\*\* (Add File|Update File|Delete File|Move to):[^\S\n]*(.*?)\s*$",
    re.MULTILINE,
)
_TOOLS = {
    "Add File": "write_file",
    "Update File": "edit_file",
    "Delete File": "write_file",
    "Move to": "write_file",
}
_INVOKED = re.compile(r"(?:^|[\s;&|(])(?:apply_patch|applypatch)\b")
_CD = re.compile(r"(?:^|[;&|(]\s*)cd\s+((?:'[^']*'|\"[^\"]*\"|[^\s;&|])+)")


class PatchError(ValueError):
    """A patch that names no file, or a header without a path."""


def patch_targets(text: str) -> list[tuple[str, str]]:
    """``(toolpolicy tool, path as written)`` for every header of the patch ``text``."""
    found: list[tuple[str, str]] = []
    for header in _HEADER.finditer(text):
        path = header.group(2)
        if not path:
            raise PatchError(f"the patch header '*** {header.group(1)}:' names no file")
        found.append((_TOOLS[header.group(1)], path))
    if not found and "*** Begin Patch" in text:
        raise PatchError("the patch names no file")
    return found


def runs_apply_patch(command: str) -> bool:
    """Whether a shell command invokes ``apply_patch`` (Codex then applies it itself)."""
    return _INVOKED.search(command) is not None


def patch_cd_folders(command: str) -> list[str]:
    """Every folder a ``cd`` in ``command`` names, unquoted (the patch may be relative to
    any of them)."""
    import shlex  # only for a line that applies a patch

    folders: list[str] = []
    for found in _CD.finditer(command):
        try:
            words = shlex.split(found.group(1))
        except ValueError:
            words = [found.group(1)]
        folders += words[:1]
    return folders
