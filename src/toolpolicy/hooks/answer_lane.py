"""The hook's answer lane: an agent's Read, Write or Edit of one plain path (and the record
that a call ran), answered without the engine.

A hook process starts for every tool call, and most calls read or change a file the policy
says nothing particular about. For those the engine's answer is the same whatever the path (the
argument of ``engine.plain_lane``: the boundary finds such a path inside the workspace and
outside the protected set, no path rule can meet it), so after answering one through the
engine (``hooks.answer``) the hook writes that answer down — what the agent reads, and the
audit line with its per-call fields left open — as a *lane* in the policy cache
(``hooks.lane_build``). The next such event is answered from the lane: it parses the event,
reads one small file, checks the path, appends the audit line, and loads none of the engine.

A lane answers an event only when all of this holds, else the engine answers it:

* the agent is one whose event the lane reads exactly as its adapter does (Claude Code,
  Gemini CLI), and the flags do not record arguments (``--audit-arguments``);
* the event is JSON that the adapter accepts (at most 8 MiB), and everything the answer
  depends on but the path and the call's ids — the flags (and whether a file of each
  profile or policy name exists), the hook's folder, ``$HOME`` and
  the agents' project-folder variables, the event's name, ``cwd``, tool, permission mode and
  every ``tool_input`` field but its text values — is what the lane was built for (its key);
* the lane's file is intact and private (``engine.cache_files``), every policy file it was
  built from has the same sha256 and the same real path, and every file and folder of the
  package and of its shipped data the same modification time (and size) as when the engine
  answered;
* the path (absolute, or relative to the folder the adapter reads it from) is below the
  lane's workspace (whose path is real), its rest plain text
  (``engine.plain_text``) within the length the tool allows, with no segment that is a key of
  the tool's path rules or a protected name, and no extension a rule keys on; no segment of
  the whole path is the key of an absolute or home rule (its last literal segment, which a
  path it matches must hold);
* no component of the path is a symbolic link (each is ``lstat``-ed, as the physical
  boundary does; a missing one ends the walk, as there), the workspace is a folder and so
  is the folder relative paths are read from.

A ``PostToolUse`` event decides nothing: the engine only appends that the call ran. Its lane
(``Lane.field`` empty) answers every such event with its key, and the path conditions do not
apply.
"""

from __future__ import annotations

import marshal
import os
import stat
import sys

from .._version import __version__
from ..core.json_text import encoder, loads, string_literal
from ..core.lean_typing import TYPE_CHECKING, NamedTuple
from ..engine.audit import arguments_sha256, utc_now
from ..engine.cache_files import (
    PACKAGE,
    cache_dir,
    code_stamp,
    entry_path,
    files_hold,
    read_entry,
    stamp_holds,
)
from ..engine.plain_text import plain_text
from .audit_file import append_line
from .hook_error import MAX_EVENT_BYTES

if TYPE_CHECKING:
    from typing import Any

    from .hook_args import HookArgs

__all__ = [
    "LANE_AGENTS",
    "SLOTS",
    "Inputs",
    "Lane",
    "answer",
    "lane_file",
    "lane_inputs",
    "lane_key",
    "lane_path",
]

LANE_AGENTS = frozenset({"claude-code", "gemini"})
"""The agents whose events the lane reads as their adapter does: ``event_json.tool_event``
with its defaults, the workspace and the folder of relative paths from ``--workspace``, the
event's ``cwd`` and the project-folder variable (``$CLAUDE_PROJECT_DIR``,
``$GEMINI_PROJECT_DIR``), each of which is in the lane's key."""
SLOTS = ("ts", "session_id", "call_id", "arguments_sha256")
"""The audit record's fields that change from call to call: left open in a lane's line."""
_FORMAT = 2  # 2: the stamp holds the libraries that read a policy
_ENVIRONMENT = ("HOME", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR")
_KEY_JSON = encoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))


class Lane(NamedTuple):
    """What a lane answers with; names in lower case."""

    field: str
    """The ``tool_input`` field that holds the path; ``""`` for an event that decides nothing
    (``PostToolUse``: the audit learns that a call ran, whatever its path)."""
    workspace: str
    cwd: str
    """The folder a relative path is read from (the event's, or the agent's project folder)."""
    limit: int
    """The longest plain path below the workspace."""
    names: frozenset[str]
    """Segment names a plain path must not hold below the workspace."""
    extensions: frozenset[str]
    outside: frozenset[str]
    """Segment names the absolute path must not hold (the keys of absolute and home rules)."""
    text: str
    """What the agent reads."""
    pieces: tuple[str, ...]
    """The audit line's text between its open fields."""
    slots: tuple[str, ...]
    """Those fields, in :data:`SLOTS`' words, as they come."""


def lane_key(args: HookArgs, event: dict[str, Any]) -> bytes | None:
    """The canonical bytes of what ``event``'s answer depends on but its path and ids;
    ``None`` when no lane may answer it (another agent, recorded arguments, or an event the
    adapter would refuse)."""
    if args.agent not in LANE_AGENTS or args.audit_arguments:
        return None
    name, cwd, tool = event.get("hook_event_name"), event.get("cwd"), event.get("tool_name")
    tool_input = event.get("tool_input")
    if not (
        isinstance(cwd, str) and _text(name) and _text(tool) and _text(event.get("session_id"))
    ):
        return None
    if not isinstance(tool_input, dict) or not os.path.isabs(cwd):
        return None
    try:
        here = os.getcwd()
    except OSError:  # the hook's folder is gone: no key (the engine may need no folder)
        return None
    mode = event.get("permission_mode")
    fields = {k: "" if isinstance(v, str) else v for k, v in tool_input.items()}
    key = [
        _FORMAT,
        __version__,
        PACKAGE,
        sys.hexversion,
        [args.agent, args.preset, args.sandbox, args.approval, args.workspace],
        # A name resolves to a file of that name when one exists, else to a built-in (the
        # profile, a layer such as ``read-only-commands``): whether each exists is key too.
        [[given, os.path.exists(given)] for given in (args.profile, *args.policies)],
        [args.presets, args.explicit_allow],
        here,
        [os.environ.get(variable) for variable in _ENVIRONMENT],
        [name, cwd, tool, mode if isinstance(mode, str) else "default", fields],
    ]
    return _KEY_JSON(key).encode()


def lane_path(key: bytes) -> str:
    """The file of the lane for ``key`` in the cache folder."""
    return entry_path(cache_dir(), key, "lane")


Inputs = tuple[list[tuple[str, str, str]], list[tuple[str, int, int]]]
"""What an answer was built from besides its key: each policy file with its sha256 and its
real path (the protected set holds a policy file's folder as it really is), and the stamp of
the package's code and data (``engine.cache_files.code_stamp``)."""


def lane_inputs(files: list[tuple[str, str]]) -> Inputs:
    """The inputs of an answer about to be built from the policy ``files`` (path, sha256):
    taken before the engine answers, and again before its lane is written (a lane is written
    only when the two agree)."""
    return [(path, sha, os.path.realpath(path)) for path, sha in files], code_stamp()


def lane_file(key: bytes, inputs: Inputs, lane: Lane) -> bytes:
    """The body of a lane's file: its key, what it was built from, what it answers."""
    sources, stamp = inputs
    return marshal.dumps((key, sources, stamp, tuple(lane)))


def answer(args: HookArgs, raw: bytes) -> str | None:
    """The agent's answer to ``raw`` from a lane, its audit line appended; ``None`` when no
    lane answers it (see the module docstring). Nothing but the audit's append raises: the
    lane either answers as the engine would, or leaves the event to the engine."""
    try:
        found = _answering(args, raw)
    except Exception:  # whatever the lane cannot read, the engine reads (and reports)
        return None
    if found is None:
        return None
    event, lane = found
    call_id = event.get("tool_use_id")
    values = {
        "ts": utc_now(),
        "session_id": event["session_id"],
        "call_id": call_id if isinstance(call_id, str) else "",
        "arguments_sha256": arguments_sha256(event["tool_input"]),
    }
    parts = [lane.pieces[0]]
    for slot, piece in zip(lane.slots, lane.pieces[1:], strict=True):
        parts += (string_literal(values[slot]), piece)
    append_line(args.audit, "".join(parts))
    return lane.text


def _answering(args: HookArgs, raw: bytes) -> tuple[dict[str, Any], Lane] | None:
    """The event in ``raw`` and the lane that answers it, if one does."""
    if len(raw) > MAX_EVENT_BYTES:
        return None
    event = loads(raw.decode("utf-8"))
    if not isinstance(event, dict):
        return None
    key = lane_key(args, event)
    lane = None if key is None else _lane(key)
    if lane is None:
        return None
    if lane.field:
        path = event["tool_input"].get(lane.field)
        if not isinstance(path, str) or not answers_path(lane, path):
            return None
    return (event, lane) if os.path.isdir(lane.cwd) else None


def answers_path(lane: Lane, path: str) -> bool:
    """Whether ``lane`` answers for ``path`` (absolute, or relative to the lane's ``cwd``;
    the last two conditions of the module docstring, but for that folder's)."""
    if not path.startswith("/"):
        path = f"{lane.cwd}/{path}"
    workspace = lane.workspace
    if not path.startswith(workspace + "/"):
        return False
    if lane.outside and not lane.outside.isdisjoint(path.lower().split("/")):
        return False
    rest = path[len(workspace) + 1 :]
    if len(rest) > lane.limit or not plain_text(rest):
        return False
    segments = rest.lower().split("/")
    if not lane.names.isdisjoint(segments):
        return False
    extensions = lane.extensions
    if extensions and any(s.rpartition(".")[2] in extensions for s in segments):
        return False
    return _no_links(path, workspace.count("/"))


def _no_links(path: str, workspace_depth: int) -> bool:
    """No component of ``path`` is a symbolic link, and its first ``workspace_depth``
    components (the workspace) are folders; a missing component below the workspace ends
    the walk (the rest is read as written, as the physical boundary reads it)."""
    current = ""
    for depth, name in enumerate(path.split("/")[1:], start=1):
        current = f"{current}/{name}"
        try:
            mode = os.lstat(current).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return depth > workspace_depth
        except OSError:
            return False
        if stat.S_ISLNK(mode) or (depth <= workspace_depth and not stat.S_ISDIR(mode)):
            return False
    return True


def _lane(key: bytes) -> Lane | None:
    """The lane for ``key``, when its file is intact and nothing it was built from changed."""
    body = read_entry(lane_path(key))
    if body is None:
        return None
    try:
        found_key, files, code, lane = marshal.loads(body)
        if found_key != key or not stamp_holds(code):
            return None
        if not files_hold((path, sha) for path, sha, _ in files):
            return None
        if any(os.path.realpath(path) != real for path, _, real in files):
            return None
        return Lane(*lane)
    except Exception:  # a body of another shape: the engine answers, and rewrites it
        return None


def _text(value: object) -> bool:
    """A non-empty string (what the adapter requires of the event's names and ids)."""
    return isinstance(value, str) and bool(value)
