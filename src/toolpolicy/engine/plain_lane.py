"""A file tool's plain lane: its one decision for every call whose path nothing looks at.

Under a lexical boundary a file tool's decision is piecewise constant over the path's text.
A path is *plain* when

* its text is already normalized and harmless: relative, ASCII letters, digits and
  ``_+=@%,-.`` only (no glob character, no ``~``, no backslash, no space, no control or
  illegal character), no empty segment, no segment that starts with a dot (so no ``.``,
  ``..``, ``.git`` or other dot folder), no reserved device name (``con``, ``nul.txt``,
  ``LPT1``), no segment over 255 characters;
* no segment is a key of the tool's path rules (``compile.index.PathKeys``) or a segment of
  a protected path (``tools.protected``), compared case-insensitively, and no segment's
  extension is a rule's extension key.

For such a path every participant says what it says about any other plain path: the
boundary finds it inside the workspace and outside the protected set, the index gives no
path rule as a candidate (only rules that do not look at paths, which match every call of
the tool alike), and the sandbox, the profile default and the ``never`` policy read the
knobs alone. So a lane decides one representative plain call with the engine, once, and
answers every plain call with that decision; anything else (another argument shape, a
path it does not recognise) falls through to the full decision. The lane may be
conservative, never liberal: ``tests/engine/test_plain_lane.py`` checks it against the
engine on random paths and policies.

No lane is built where the text is not all that decides: a physical boundary (the hook),
path rules filed under no key, or absolute and home rules (they read ``$HOME``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping

from ..compile.index import PathKeys
from ..core.decision import Decision
from ..core.lean_typing import TYPE_CHECKING, NamedTuple
from ..core.vocabulary import Effect
from ..tools.protected import ProtectedSet
from ..tools.registry import ToolDefinition
from ..tools.workspace import MAX_PATH_BYTES
from .plain_text import plain_text

if TYPE_CHECKING:
    from .evaluate import DecisionEngine

__all__ = [
    "NO_LANE",
    "Lane",
    "PlainShape",
    "is_plain_text",
    "plain_lane",
    "plain_shape",
    "rule_keys",
]

# Reserved device names (see ``tools.workspace``) as the start of a segment: the name, then
# a dot, the segment's end or the path's. Only segments starting with a, c, l, n or p are
# looked at twice.
_RESERVED = r"(?i:con|prn|aux|nul|com[0-9]|lpt[0-9])(?:[./]|\Z)"
_SEGMENT = rf"(?:[BD-KMOQ-Zbd-kmoq-z0-9_+=@%,-]|(?!{_RESERVED})[ACLNPacnlp])[\w.+=@%,-]{{0,254}}+"
_PLAIN_PATH = rf"{_SEGMENT}(?:/{_SEGMENT})*+"
_plain_match: Callable[[str], object] | None = None
"""The compiled ``_PLAIN_PATH``'s ``fullmatch``, compiled with the first lane: compiling
costs a millisecond that the hook, which builds no lane, should not pay at import."""


def _matcher() -> Callable[[str], object]:
    global _plain_match
    if _plain_match is None:
        import re  # with the first lane: the hook's lane builder reads plain text without it

        _plain_match = re.compile(_PLAIN_PATH, re.ASCII).fullmatch
    return _plain_match


def is_plain_text(path: str) -> bool:
    """True when ``path``'s text is plain (first bullet of the module docstring): what
    ``engine.plain_text.plain_text`` says, by a compiled regular expression (a property test
    holds the two together)."""
    return _matcher()(path) is not None


Lane = Callable[[Mapping[str, object] | str | None], Decision | None]
"""A tool's lane: the plain decision for a plain call of the tool, else ``None``."""


def _no_lane(arguments: Mapping[str, object] | str | None) -> None:
    """The lane of a tool that has none: it recognises no call."""
    return None


NO_LANE: Lane = _no_lane


def _lane(
    decision: Decision,
    argument: str,
    limit: int,
    others: tuple[tuple[str, int], ...],
    names: frozenset[str],
    extensions: frozenset[str],
) -> Lane:
    """A lane recognising a ``dict`` of exactly ``argument`` (the path, at most ``limit``
    characters) and ``others`` (each a ``str`` within its limit) whose path is plain."""
    size = 1 + len(others)
    keyed = bool(names or extensions)
    match = _matcher()

    # A closure, and ``__class__`` rather than ``type()`` or ``isinstance``: this is the
    # hot path, and a subclass (of dict or str) is never plain.
    def lane(arguments: Mapping[str, object] | str | None) -> Decision | None:
        if arguments.__class__ is not dict or len(arguments) != size:
            return None
        path = arguments.get(argument)
        if path.__class__ is not str or len(path) > limit or match(path) is None:
            return None
        if others:
            for name, most in others:
                value = arguments.get(name)
                if value.__class__ is not str or len(value) > most:
                    return None
        if keyed:
            segments = path.lower().split("/")
            if not names.isdisjoint(segments):
                return None
            if extensions and any(s.rpartition(".")[2] in extensions for s in segments):
                return None
        return decision

    return lane


class PlainShape(NamedTuple):
    """What makes a call of a file tool plain: its path ``argument`` (at most ``limit``
    characters), its ``others`` required arguments (each a ``str`` within its limit), and the
    lowered segment ``names`` and ``extensions`` a plain path must not hold."""

    argument: str
    limit: int
    others: tuple[tuple[str, int], ...]
    names: frozenset[str]
    extensions: frozenset[str]

    def representative(self, n: int = 0) -> str:
        """The ``n``-th plain path that holds no name: ``p0``, ``p1``, ..."""
        found = (p for i in itertools.count() if (p := f"p{i}") not in self.names)
        return next(itertools.islice(found, n, None))


def rule_keys(engine: DecisionEngine, tool: str) -> tuple[PathKeys | None, frozenset[str]]:
    """The keys of ``tool``'s workspace path rules under ``engine`` (``None``: some path rule
    is filed under no key), and those of its absolute and home rules, which a file's
    absolute spelling must hold as a segment for one to match; none at all where the engine
    enforces no policy."""
    if not engine.enforces_policy:
        return PathKeys(frozenset(), frozenset()), frozenset()
    view = engine.policy.rule_index.rules_for(tool)
    return view.relative_keys(), view.absolute_keys()


def plain_shape(
    definition: ToolDefinition, keys: PathKeys | None, protected: ProtectedSet
) -> PlainShape | None:
    """The shape of ``definition``'s plain calls given its path rules' ``keys`` (``None``:
    some path rule has no key) and the selection's protected set; ``None``: the tool has no
    plain calls (no path argument, an execute effect, a required argument that is not free
    text, or a path rule without a key)."""
    argument = definition.path_argument
    if argument is None or definition.effect is Effect.EXECUTE or keys is None:
        return None
    required = [f for f in definition.arguments.fields if f.required]
    if any(f.kind is not str or f.choices for f in required):
        return None
    limits = {f.name: _UNLIMITED if f.max_length is None else f.max_length for f in required}
    limit = min(limits.pop(argument, _UNLIMITED), MAX_PATH_BYTES)
    names = _plain_forms(itertools.chain(keys.names, _protected_names(protected)))
    extensions = frozenset(e.lower() for e in keys.extensions)
    return PlainShape(argument, limit, tuple(limits.items()), names, extensions)


def plain_lane(
    definition: ToolDefinition,
    keys: PathKeys | None,
    protected: ProtectedSet,
    decide: Callable[[dict[str, object]], Decision | None],
) -> Lane:
    """The lane of ``definition`` (see :func:`plain_shape`); ``decide`` gives the full
    decision of a call when it was made on the call's text alone, else ``None`` (then there
    is no lane)."""
    shape = plain_shape(definition, keys, protected)
    if shape is None:
        return NO_LANE
    call: dict[str, object] = dict.fromkeys((name for name, _ in shape.others), "")
    call[shape.argument] = shape.representative()
    decision = decide(call)
    if decision is None:
        return NO_LANE
    lane = _lane(decision, *shape)
    return lane if lane(call) is decision else NO_LANE


_UNLIMITED = 1 << 62


def _protected_names(protected: ProtectedSet) -> Iterable[str]:
    """The first segment of every protected entry: a path an entry covers holds it (as its
    first segment, or anywhere for an entry that covers its folder anywhere), and the lane
    looks for names among all of a path's segments."""
    return (entry.path.split("/", 1)[0] for entry in protected.entries)


def _plain_forms(names: Iterable[str]) -> frozenset[str]:
    """The lowered and case-folded forms of ``names`` that a plain segment, lowered, can
    equal: a plain segment is ASCII, so its lowered form is its case-folded one."""
    forms = {f for n in names for f in (n.lower(), n.casefold())}
    return frozenset(f for f in forms if plain_text(f))
