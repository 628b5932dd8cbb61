"""Which regions of a command line are listed one by one, and which stand together.

A region of the command line is the pair of deciders of its lines (one per side). Lines
that join commands, or that add another rule's words to a command, mix the deciders of
their parts: with *n* rules that differ and *m* that do not, there are about *n* times *m* such
pairs, each one a consequence of a part's own difference. They are listed by *class*: the
behaviors that decide each side (``deny``, ``ask``, ``allow``, or ``default`` where no rule
does), one shortest witness for each class.

That loses no verdict: the effective decision of a shell call is the rules' behavior taken
through the knobs (an approval policy ``never`` turns an ask into its deny, an escalation asks
instead of allowing) and the call's other arguments, none of which reads the rule that
decides; so every knob state changes every region of a class alike. A region is listed on
its own where one rule decides both sides, where a rule or the boundary decides one side and
nothing the other (a rule's own change, its new or lost hits), and where a single command
a search spelled for its own sake (a pattern's occurrence, a file's witness, the allow
patterns' own lines) has different rules deciding each side (a rule renamed, one pattern
moved to another rule).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Generic, NamedTuple, TypeVar

from ..compile.rules import CompiledRule
from ..core.decision import Decision

Source = int | Decision
"""What decides: a rule (its declaration order) or the boundary (its decision)."""

C = TypeVar("C", bound=Hashable)

DEFAULT = "default"
"""The class of a side that no rule and no boundary decision decides."""


class Kinds:
    """Both sides' rules by declaration order: the name and behavior of a decider."""

    def __init__(self, rules: tuple[Sequence[CompiledRule], Sequence[CompiledRule]]) -> None:
        self._names = tuple({rule.order: rule.name for rule in side} for side in rules)
        self._kinds = tuple(
            {rule.order: rule.decision.behavior.label for rule in side} for side in rules
        )

    def kind(self, side: int, source: Source | None) -> str:
        """The behavior deciding ``side`` (:data:`DEFAULT`: none)."""
        if source is None:
            return DEFAULT
        if isinstance(source, int):
            return self._kinds[side][source]
        return source.behavior.label

    def name(self, side: int, source: Source | None) -> str | None:
        """The rule deciding ``side`` (``None``: no rule, or the boundary)."""
        return self._names[side][source] if isinstance(source, int) else None

    def names_of(self, side: int, sources: Sequence[Source | None]) -> frozenset[str]:
        """The names of the rules among ``sources``."""
        return frozenset(n for s in sources if (n := self.name(side, s)) is not None)

    def group(self, side: int, source: Source | None) -> Hashable:
        """What tells deciders apart across the sides: a rule by its name, a boundary
        decision by itself (``None``: no decider)."""
        return ("rule", self._names[side][source]) if isinstance(source, int) else source

    def mixed(self, left: Source | None, right: Source | None) -> bool:
        """Whether two different deciders (rules, or a rule and the boundary, or two of the
        boundary's decisions) decide the sides."""
        if left is None or right is None:
            return False
        return self.group(0, left) != self.group(1, right)


class Listed(NamedTuple, Generic[C]):
    """A region as listed: its shortest witness line, its deciders, and ``special`` (what it
    says of itself beyond them: the class it stands for)."""

    line: tuple[C, ...]
    left: Source | None
    right: Source | None
    special: str | None


class _Kept(NamedTuple, Generic[C]):
    line: tuple[C, ...]
    size: tuple[int, int]
    left: Source | None
    right: Source | None


class Collector(Generic[C]):
    """The regions noted, each kept with its shortest line: fewer commands, then fewer
    characters (``size``), then the first ``text`` in order."""

    def __init__(
        self,
        kinds: Kinds,
        size: Callable[[tuple[C, ...]], tuple[int, int]],
        text: Callable[[tuple[C, ...]], str],
    ) -> None:
        self.kinds = kinds
        self.size = size
        self.text = text
        self.found: dict[Hashable, _Kept[C]] = {}
        self.classes: set[Hashable] = set()

    def note(
        self, line: tuple[C, ...], left: Source | None, right: Source | None, *, mixing: bool
    ) -> None:
        """A line decided by ``left`` and ``right``; ``mixing``: it joins commands, or adds
        other rules' words to one, so that it stands with its class where two different
        deciders decide it."""
        key: Hashable = (left, right)
        kinds = self.kinds
        if mixing and kinds.mixed(left, right):
            key = (kinds.kind(0, left), kinds.kind(1, right))
            self.classes.add(key)
        known = self.found.get(key)
        size = self.size(line)
        if (
            known is None
            or size < known.size
            or (size == known.size and self.text(line) < self.text(known.line))
        ):
            self.found[key] = _Kept(line, size, left, right)

    def listed(self) -> list[Listed[C]]:
        """Every region, with fewer commands first."""
        out = []
        for key, (line, _, left, right) in self.found.items():
            special = None
            if key in self.classes:
                assert isinstance(key, tuple)
                special = class_special(key[0], key[1])
            out.append(Listed(line, left, right, special))
        out.sort(key=lambda item: len(item.line))
        return out


def class_special(left: str, right: str) -> str:
    """What a class's region says of itself."""
    return f"stands for every line that mixes deciders: {left} on the left, {right} on the right"
