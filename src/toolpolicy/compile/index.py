"""The rule index: a decision looks only at the rules that can match its call.

Rules are bucketed by tool name (rules with no ``tools`` or with a wildcard name sit in every
bucket they can match). Inside a bucket, every rule shape has a table:

* a path pattern anchored at the root whose first segment is literal (``src/**``): by that
  segment, looked up with the path's first segment;
* any other workspace pattern with a literal segment (``secret``, ``**/private/**``,
  ``*/keys/*.pem``): by that segment — each pattern segment matches one whole path segment,
  so the path must hold it — looked up with every segment of the path;
* a pattern whose segments are globs, one of them ``*`` with a dotted literal suffix
  (``*.pem``, ``**/id_*.pub``): by the suffix's extension, looked up with every segment's;
* a command pattern by its program's basename and its first plain word after the program
  (``git push``: ``git`` then ``push``), looked up with every program the line names and
  every word of the line; a pattern with no plain word after its program by the program;
* an absolute or home pattern with a literal segment (``//etc/shadow``, ``~/.ssh/**``): by
  its last literal segment, looked up with every segment of the file's absolute spellings;
* everything else (patterns of globs alone, ``*`` programs) unkeyed: always a candidate.

A table only narrows: the compiled matchers decide. Tables are plain dicts behind read-only
``Mapping`` types, so that a compiled policy pickles (a ``mappingproxy`` does not). Every
list keeps declaration order, so the first rule of the strongest behavior is the one
reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..core.lean_typing import TYPE_CHECKING, NamedTuple
from .rules import CallFacts, CompiledRule

__all__ = [
    "PathKeys",
    "RuleIndex",
    "RuleView",
    "ToolBucket",
    "command_keys",
    "outside_key",
    "path_key",
]

_GLOB_CHARS = frozenset("*?[\\")
_MAX_PAIR_LOOKUPS = 4096
"""Beyond this many (program, word) lookups for one line, every rule of its programs is
a candidate instead (a superset, never a miss)."""

if TYPE_CHECKING:
    from typing import TypeVar

    from .command_patterns import CommandPattern
    from .commands import CommandLine

    K = TypeVar("K")

FIRST = "first"
SEGMENT = "segment"
EXTENSION = "extension"
OUTSIDE = "outside"


def _any_path_key(pattern: str) -> tuple[str, str] | None:
    """The table and key of any path pattern: ``path_key``'s, else ``(OUTSIDE, key)``."""
    found = path_key(pattern)
    if found is not None:
        return found
    outside = outside_key(pattern)
    return (OUTSIDE, outside) if outside is not None else None


def path_key(pattern: str) -> tuple[str, str] | None:
    """The table a workspace path pattern is filed in, ``(FIRST|SEGMENT|EXTENSION, key)``,
    or ``None`` (an absolute or home pattern, or a pattern of globs with no extension)."""
    if pattern.startswith(("//", "~/")):
        return None
    segments = pattern.strip("/").split("/")
    anchored = pattern.startswith("/") or len(segments) > 1
    if anchored and _GLOB_CHARS.isdisjoint(segments[0]):
        return FIRST, segments[0]
    literal = _last_literal(segments)
    if literal is not None:
        return SEGMENT, literal
    for segment in reversed(segments):
        extension = _star_extension(segment)
        if extension:
            return EXTENSION, extension
    return None


def outside_key(pattern: str) -> str | None:
    """The last literal segment of an absolute (``//``) or home (``~/``) pattern, else ``None``.

    Each literal segment of a pattern matches one whole segment of the path, so a file's
    absolute spelling holds that segment whenever the pattern matches it."""
    if not pattern.startswith(("//", "~/")):
        return None
    return _last_literal(pattern[2:].split("/"))


def _last_literal(segments: list[str]) -> str | None:
    """The last segment that is neither empty nor holds a glob character."""
    for segment in reversed(segments):
        if segment and _GLOB_CHARS.isdisjoint(segment):
            return segment
    return None


def _star_extension(segment: str) -> str | None:
    """``pem`` for ``*.pem`` or ``id_*.pub``-like segments (``*`` the only glob, a dot in
    the literal tail): every segment it matches ends with that extension."""
    if "?" in segment or "[" in segment or "*" not in segment or segment == "**":
        return None
    tail = segment.rsplit("*", 1)[1]
    if "." not in tail:
        return None
    return tail.rsplit(".", 1)[1] or None


def command_keys(pattern: CommandPattern) -> str | tuple[str, str] | None:
    """The key of a command pattern: ``(program, word)`` for its first plain word after the
    program, else the program; ``None`` for a ``*`` program."""
    if pattern.key == "*":
        return None
    for choice in pattern.alternatives[1:]:
        if choice[0].startswith("-") and len(choice[0]) > 1 and choice[0] != "--":
            continue  # options are a set, anywhere: no key
        if choice == ("*",) or len(choice) > 1:
            break
        return pattern.key, choice[0]
    return pattern.key


def _segment_extensions(segments: list[str]) -> list[str]:
    return [s.rsplit(".", 1)[1] for s in segments if "." in s]


class PathKeys(NamedTuple):
    """Every key under which a tool's path rules are filed: a workspace-relative path none
    of whose segments is one of ``names`` and none of whose segments' extensions is one of
    ``extensions`` has no path rule among its candidates."""

    names: frozenset[str]
    extensions: frozenset[str]


class ToolBucket(NamedTuple):
    """The rules of one tool, ready to be looked up by the call's path and command.

    ``plain`` rules name neither paths nor commands and apply to every call of the tool.
    Path rules sit in ``by_first``, ``by_segment``, ``by_extension`` or ``by_outside`` (see
    the module docstring), command rules in ``by_word`` (keys: a program, or a (program, word) pair
    whose programs are ``pair_programs``); the rest in the ``*_unkeyed`` lists.
    """

    plain: tuple[CompiledRule, ...]
    by_first: Mapping[str, tuple[CompiledRule, ...]]
    by_segment: Mapping[str, tuple[CompiledRule, ...]]
    by_extension: Mapping[str, tuple[CompiledRule, ...]]
    by_outside: Mapping[str, tuple[CompiledRule, ...]]
    path_unkeyed: tuple[CompiledRule, ...]
    by_word: Mapping[object, tuple[CompiledRule, ...]]
    pair_programs: frozenset[str]
    command_unkeyed: tuple[CompiledRule, ...]
    has_outside_paths: bool
    """True when some rule names an absolute (``//``) or home (``~/``) path."""
    has_path_rules: bool
    """True when some rule of this tool looks at paths."""
    has_command_rules: bool
    """True when some rule of this tool looks at commands."""
    empty: bool
    """True when no rule can match a call of this tool."""

    @classmethod
    def build(cls, rules: Iterable[CompiledRule]) -> ToolBucket:
        """Bucket ``rules`` (kept in declaration order everywhere)."""
        ordered = sorted(rules, key=lambda r: r.order)
        plain: list[CompiledRule] = []
        tables: dict[str, dict[str, list[CompiledRule]]] = {
            FIRST: {},
            SEGMENT: {},
            EXTENSION: {},
            OUTSIDE: {},
        }
        path_unkeyed: list[CompiledRule] = []
        by_word: dict[object, list[CompiledRule]] = {}
        command_unkeyed: list[CompiledRule] = []
        for rule in ordered:
            if rule.paths is not None:
                filed = [k for p in rule.paths if (k := _any_path_key(p.text)) is not None]
                if len(filed) < len(rule.paths):
                    path_unkeyed.append(rule)
                    continue
                for kind, key in dict.fromkeys(filed):
                    tables[kind].setdefault(key, []).append(rule)
            elif rule.commands is not None:
                words = dict.fromkeys([command_keys(p) for p in rule.commands])
                if None in words:
                    command_unkeyed.append(rule)
                    continue
                for word in words:
                    by_word.setdefault(word, []).append(rule)
            else:
                plain.append(rule)
        path_rules = any(tables.values()) or bool(path_unkeyed)
        command_rules = bool(by_word or command_unkeyed)
        return cls(
            plain=tuple(plain),
            by_first=_frozen(tables[FIRST]),
            by_segment=_frozen(tables[SEGMENT]),
            by_extension=_frozen(tables[EXTENSION]),
            by_outside=_frozen(tables[OUTSIDE]),
            path_unkeyed=tuple(path_unkeyed),
            by_word=_frozen(by_word),
            pair_programs=frozenset(k[0] for k in by_word if isinstance(k, tuple)),
            command_unkeyed=tuple(command_unkeyed),
            has_outside_paths=bool(tables[OUTSIDE])
            or any(p.outside for r in path_unkeyed for p in r.paths or ()),
            has_path_rules=path_rules,
            has_command_rules=command_rules,
            empty=not (plain or path_rules or command_rules),
        )

    def relative_keys(self) -> PathKeys | None:
        """The keys of this tool's workspace path rules (``None``: some path rule is filed
        under no key); the absolute and home rules are :attr:`by_outside`'s keys, which a
        file's absolute spelling must hold as a segment for one to match."""
        if self.path_unkeyed:
            return None
        return PathKeys(frozenset((*self.by_first, *self.by_segment)), frozenset(self.by_extension))

    def candidates(self, facts: CallFacts) -> tuple[CompiledRule, ...]:
        """The rules that can match ``facts``, in declaration order."""
        groups: list[tuple[CompiledRule, ...]] = [self.plain]
        path = facts.path
        if facts.absolute:
            if self.path_unkeyed:
                groups.append(self.path_unkeyed)
            by_outside = self.by_outside
            if by_outside:
                for spelling in facts.absolute:
                    groups.extend(by_outside[s] for s in spelling.split("/") if s in by_outside)
        if path is not None and self.has_path_rules:
            self._path_groups(path, groups)
            groups.append(self.path_unkeyed)
            target = facts.target
            if target is not None and target != path:
                self._path_groups(target, groups)
        command = facts.command
        if command is not None and (self.by_word or self.command_unkeyed):
            self._command_groups(command, groups)
            groups.append(self.command_unkeyed)
        found = [g for g in groups if g]
        if len(found) <= 1:
            return found[0] if found else ()
        merged = {r.order: r for group in found for r in group}
        return tuple(merged[k] for k in sorted(merged))

    def _path_groups(self, path: str, groups: list[tuple[CompiledRule, ...]]) -> None:
        segments = path.split("/")
        if self.by_first:
            groups.append(self.by_first.get(segments[0], ()))
        if self.by_segment:
            by_segment = self.by_segment
            groups.extend(by_segment[s] for s in segments if s in by_segment)
        if self.by_extension:
            by_extension = self.by_extension
            groups.extend(
                by_extension[e] for e in _segment_extensions(segments) if e in by_extension
            )

    def _command_groups(self, command: CommandLine, groups: list[tuple[CompiledRule, ...]]) -> None:
        by_word = self.by_word
        programs, words = command.index_programs, command.index_words
        groups.extend(by_word[p] for p in programs if p in by_word)
        paired = self.pair_programs.intersection(programs)
        if not paired:
            return
        from .command_patterns import is_glob  # a shell line's, off a read's warm path

        if len(paired) * len(words) > _MAX_PAIR_LOOKUPS or any(map(is_glob, words)):
            # a glob may stand for any rule's word (``holds``)
            groups.extend(r for k, r in by_word.items() if isinstance(k, tuple) and k[0] in paired)
            return
        for program in paired:
            for word in words:
                found = by_word.get((program, word))
                if found is not None:
                    groups.append(found)


def _frozen(table: Mapping[K, list[CompiledRule]]) -> Mapping[K, tuple[CompiledRule, ...]]:
    return {k: tuple(v) for k, v in table.items()}


class RuleView(NamedTuple):
    """The rules a call of one tool can match: the tool's own and those for every tool.

    Build it with :meth:`of`: the flags are the two buckets' together, worked out once (a
    decision reads them several times)."""

    own: ToolBucket
    shared: ToolBucket
    has_path_rules: bool
    """True when some rule looks at paths."""
    has_outside_paths: bool
    """True when some rule names an absolute (``//``) or home (``~/``) path."""
    has_command_rules: bool
    """True when some rule looks at commands."""
    empty: bool
    """True when no rule can match a call of this tool."""

    @classmethod
    def of(cls, own: ToolBucket, shared: ToolBucket) -> RuleView:
        """The view of ``own`` and ``shared``."""
        return cls(
            own,
            shared,
            own.has_path_rules or shared.has_path_rules,
            own.has_outside_paths or shared.has_outside_paths,
            own.has_command_rules or shared.has_command_rules,
            own.empty and shared.empty,
        )

    def relative_keys(self) -> PathKeys | None:
        """See ``ToolBucket.relative_keys``: the tool's own rules' and the shared rules'."""
        own, shared = self.own.relative_keys(), self.shared.relative_keys()
        if own is None or shared is None:
            return None
        return PathKeys(own.names | shared.names, own.extensions | shared.extensions)

    def absolute_keys(self) -> frozenset[str]:
        """The keys of the absolute and home path rules (see ``ToolBucket.relative_keys``)."""
        return frozenset((*self.own.by_outside, *self.shared.by_outside))

    def path_rules(self) -> tuple[CompiledRule, ...]:
        """Every rule of the view that looks at paths, in declaration order."""
        found: dict[int, CompiledRule] = {}
        for bucket in (self.own, self.shared):
            tables = (bucket.by_first, bucket.by_segment, bucket.by_extension, bucket.by_outside)
            for table in tables:
                for rules in table.values():
                    found.update((rule.order, rule) for rule in rules)
            found.update((rule.order, rule) for rule in bucket.path_unkeyed)
        return tuple(found[order] for order in sorted(found))

    def candidates(self, facts: CallFacts) -> tuple[CompiledRule, ...]:
        """The rules that can match ``facts``, in declaration order."""
        own = self.own.candidates(facts)
        shared = self.shared.candidates(facts)
        if not shared or not own:
            return own or shared
        merged = {r.order: r for r in (*own, *shared)}
        return tuple(merged[k] for k in sorted(merged))


class RuleIndex(NamedTuple):
    """Rules bucketed by tool name.

    Rules without ``tools`` form one shared bucket instead of being copied into every tool's;
    rules with a wildcard name (``mcp__github__*``) are found through the literal prefix
    before their first ``*``, so building the index stays linear in the number of rules.
    """

    views: Mapping[str, RuleView]
    shared: ToolBucket
    wildcards: Mapping[str, tuple[CompiledRule, ...]]

    @classmethod
    def build(cls, rules: tuple[CompiledRule, ...], tool_names: Iterable[str]) -> RuleIndex:
        """Index ``rules`` for ``tool_names`` and every name the rules spell out."""
        exact: dict[str, list[CompiledRule]] = {name: [] for name in tool_names}
        wildcards: dict[str, list[CompiledRule]] = {}
        for rule in rules:
            for pattern in rule.tools or ():
                if pattern.is_exact:
                    exact.setdefault(pattern.text, []).append(rule)
                else:
                    prefix = pattern.text.split("*", 1)[0]
                    wildcards.setdefault(prefix, []).append(rule)
        shared = ToolBucket.build(r for r in rules if r.tools is None)
        frozen = {k: tuple(v) for k, v in wildcards.items()}
        views = {
            name: RuleView.of(ToolBucket.build(_unique(own, _wildcard_rules(frozen, name))), shared)
            for name, own in exact.items()
        }
        return cls(views=views, shared=shared, wildcards=frozen)

    def rules_for(self, tool: str) -> RuleView:
        """The rules of ``tool``; a name never seen at compile time is looked up now."""
        found = self.views.get(tool)
        if found is not None:
            return found
        return RuleView.of(ToolBucket.build(_wildcard_rules(self.wildcards, tool)), self.shared)


def _wildcard_rules(
    wildcards: Mapping[str, tuple[CompiledRule, ...]], name: str
) -> list[CompiledRule]:
    """The wildcard-named rules that match ``name``."""
    if not wildcards:
        return []
    found: list[CompiledRule] = []
    for end in range(len(name) + 1):
        for rule in wildcards.get(name[:end], ()):
            if any(p.matches(name) for p in rule.tools or ()):
                found.append(rule)
    return found


def _unique(*groups: Iterable[CompiledRule]) -> list[CompiledRule]:
    """The rules of ``groups`` once each, in declaration order."""
    merged = {r.order: r for group in groups for r in group}
    return [merged[k] for k in sorted(merged)]
