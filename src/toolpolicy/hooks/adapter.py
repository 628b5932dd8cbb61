"""What every agent adapter provides: a catalog of the agent's tools, its event, its answers.

An adapter is data plus two translations. Its **catalog** maps each of the agent's tool names
to a ``CatalogEntry``: the kind of call (which says how toolpolicy decides it), the toolpolicy
tool it is decided as, its effect, and the ``tool_input`` fields that hold paths, a command
line or a search filter. ``parse`` turns the agent's stdin into an ``AgentEvent``; ``render``
turns an ``Answer`` into the agent's stdout (``""`` when toolpolicy has no opinion). The
decision in between (``hooks.decide``) is the same for every agent.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

from ..core.decision import Decision
from ..core.lean_typing import TYPE_CHECKING, NamedTuple, Protocol
from ..core.vocabulary import Behavior, Effect
from .hook_error import HookError

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "AgentAdapter",
    "AgentEvent",
    "Answer",
    "CatalogEntry",
    "EventKind",
    "HookError",
    "Kind",
    "denied_reason",
    "deny_only",
]


class Kind(enum.Enum):
    """How a catalogued tool is decided."""

    SHELL = "shell"
    """A command line, decided as toolpolicy's ``shell``."""
    READ = "read"
    """Reads the files named by its path fields (``read_file``)."""
    WRITE = "write"
    """Creates or replaces the files named by its path fields (``write_file``)."""
    EDIT = "edit"
    """Changes the files named by its path fields (``edit_file``)."""
    SEARCH = "search"
    """Reads every file below a scope that its filters select: decided on that scope, and a
    scope that holds a closed file asks."""
    LIST = "list"
    """Lists the names below a scope that its filters select: decided on that scope, which
    is closed when the scope itself, or everything it selects, is closed."""
    PATCH = "patch"
    """An ``apply_patch`` patch in its command field: one write per file its headers name
    (``hooks.patch``)."""
    BY_NAME = "by-name"
    """No file or command of its own: decided by its name and effect (web, MCP, unknown)."""
    BOOKKEEPING = "bookkeeping"
    """The agent's own bookkeeping (plans, todos, subagents, questions): decided by name, and
    only a rule naming it speaks (no profile default or preset does); whatever it leads to
    arrives as calls of its own."""


class CatalogEntry(NamedTuple):
    """One agent tool: how it is decided and where its paths and command are."""

    kind: Kind
    effect: Effect
    paths: tuple[str, ...] = ()
    """``tool_input`` fields that hold paths (the first present one is the search scope)."""
    command: str | None = None
    """The ``tool_input`` field that holds a command line (or, for ``PATCH``, the patch)."""
    filters: tuple[str, ...] = ()
    """Search filters, in the agent's own words (``glob``, ``type``, ``pattern``)."""
    tool: str | None = None
    """The toolpolicy tool it is decided as; ``None``: by the agent's own tool name."""
    workdir: str | None = None
    """The ``tool_input`` field naming the folder a command runs in: the line's files are
    taken from there."""
    patches: bool = False
    """The command may be an ``apply_patch <<'EOF'`` heredoc that the agent applies itself:
    each file the patch names is decided as a write too."""
    powershell: bool = False
    """The command is a PowerShell line (decided as ``hooks.decide`` says: never allowed by
    bash's reading of it)."""


class EventKind(enum.Enum):
    """The events an adapter understands; anything else is ``OTHER`` (no opinion)."""

    PRE_TOOL_USE = "pre-tool-use"
    PERMISSION_REQUEST = "permission-request"
    POST_TOOL_USE = "post-tool-use"
    SESSION_START = "session-start"
    OTHER = "other"


class AgentEvent(NamedTuple):
    """One hook event, in toolpolicy's words."""

    kind: EventKind
    name: str
    session_id: str
    tool_use_id: str
    cwd: str
    tool_name: str
    tool_input: Mapping[str, Any]
    permission_mode: str


class Answer(NamedTuple):
    """A final decision and whether the agent is told (``speak``) or left to its own flow."""

    decision: Decision
    speak: bool


_NO_REASON = "denied by toolpolicy"


def deny_only(answer: Answer) -> Answer:
    """``answer`` for an agent that honours only a deny: anything else is left unsaid."""
    return answer if answer.decision.behavior is Behavior.DENY else Answer(answer.decision, False)


def denied_reason(answer: Answer) -> str | None:
    """The reason of a deny the agent is told (never empty: an agent may take an empty reason
    for no reason at all), or ``None`` when there is no deny to say."""
    if not answer.speak or answer.decision.behavior is not Behavior.DENY:
        return None
    return answer.decision.reason.strip() or _NO_REASON


class AgentAdapter(Protocol):
    """One agent's dialect."""

    @property
    def name(self) -> str:
        """The agent's name on the command line (``claude-code``)."""
        ...

    @property
    def description(self) -> str:
        """``toolpolicy hook NAME --help``: what is answered, and what cannot be enforced."""
        ...

    @property
    def catalog(self) -> Mapping[str, CatalogEntry]:
        """The agent's tools by name."""
        ...

    def entry(self, tool_name: str) -> CatalogEntry:
        """The catalog entry of ``tool_name``; an uncatalogued tool gets a by-name entry."""
        ...

    def parse(self, raw: bytes) -> AgentEvent:
        """The event on stdin, or ``HookError``."""
        ...

    def workspace(self, event: AgentEvent, given: str | None) -> str:
        """The workspace root for ``event`` (``given`` is ``--workspace``)."""
        ...

    def adjust(self, event: AgentEvent, entry: CatalogEntry, answer: Answer) -> Answer:
        """The agent's own modes applied to an answer (before it is audited)."""
        ...

    def render(self, event: AgentEvent, answer: Answer) -> str:
        """The agent's stdout for ``answer``; ``""`` when the agent is told nothing."""
        ...
