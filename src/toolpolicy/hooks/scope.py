"""Searches and listings (Grep, Glob, LS) decided on the scope they read.

A search names a folder (its scope, the event's ``cwd`` when none is given) and filters
(``glob``, ``type``, ``pattern``; a list of patterns selects what any of them selects). It
is decided as a read of the scope, then, when some read rule looks at paths, on the files
below it that the filters select (a bounded walk):

* every selected file closed (deny or ask) — e.g. ``Grep {"glob": ".env"}`` — closes the
  search with the strongest of those decisions;
* a search (Grep, which reads contents) whose scope only holds a closed file asks, with a
  reason that names the rule; a listing (Glob, LS: names only) is then decided as its scope;
* a scope too large to walk asks for a search and is decided as its scope for a listing.

Filters select generously (an unknown ``type`` or an unparsable pattern selects everything),
so a closed file is never overlooked because a filter was misread.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from typing import Any

from ..compile.globs import GlobError, GlobPattern, compile_glob
from ..core.decision import Decision
from ..core.vocabulary import Behavior
from ..engine.evaluate import FOLDER_SOURCE
from ..engine.folder_walk import MAX_FOLDER_ENTRIES, FolderTooLarge, files_below, git_closer
from ..engine.selection import ToolPolicy
from .adapter import AgentEvent, CatalogEntry, Kind
from .decide import UNRESOLVABLE_READ, Verdict, evaluate_call, verdict
from .paths import agent_path

__all__ = ["decide_scope"]

_MAX_ALTERNATIVES = 64
_BRACES = re.compile(r"\{([^{}]*)\}")
# ripgrep's most common file types; any other type selects every file.
_TYPES: Mapping[str, tuple[str, ...]] = {
    "c": ("*.c", "*.h"),
    "cpp": ("*.cpp", "*.cc", "*.cxx", "*.hpp", "*.hh", "*.hxx", "*.h"),
    "css": ("*.css",),
    "go": ("*.go",),
    "html": ("*.html", "*.htm"),
    "java": ("*.java",),
    "js": ("*.js", "*.jsx", "*.mjs", "*.cjs"),
    "json": ("*.json",),
    "md": ("*.md", "*.markdown"),
    "py": ("*.py", "*.pyi"),
    "rust": ("*.rs",),
    "sh": ("*.sh", "*.bash", "*.zsh"),
    "toml": ("*.toml",),
    "ts": ("*.ts", "*.tsx", "*.mts", "*.cts"),
    "yaml": ("*.yaml", "*.yml"),
}


def decide_scope(event: AgentEvent, entry: CatalogEntry, policy: ToolPolicy) -> Verdict:
    """The verdict on a search or listing's scope (see the module docstring)."""
    given = event.tool_input
    raw = next((given[k] for k in entry.paths if isinstance(given.get(k), str)), "") or event.cwd
    scope = agent_path(raw, event.cwd, policy.workspace)
    if scope is None:
        return verdict(UNRESOLVABLE_READ)
    own = verdict(evaluate_call(event, policy, "read_file", {"path": scope}))
    engine = policy.engine
    if own.decision.behavior >= Behavior.ASK or not engine.enforces_policy:
        return own
    view = engine.policy.rule_index.rules_for("read_file")
    if not view.has_path_rules:
        return own
    folder = scope if os.path.isabs(scope) else os.path.join(policy.workspace, scope)
    if not os.path.isdir(folder):
        return own
    selects = _selector(given, entry)
    searches = entry.kind is Kind.SEARCH
    closed: list[tuple[str, Verdict]] = []
    selected = 0
    try:
        # ``scope`` is workspace-relative inside the workspace ("." its root), else absolute
        inside = None if os.path.isabs(scope) else "" if scope == "." else scope.rstrip("/")
        for below, _ in files_below(folder, git_closer(view.path_rules, inside, folder)):
            if not selects(below):
                continue
            selected += 1
            # the walk follows no symlinked folder: ``scope/below`` is the path as opened
            path = below if scope == "." else f"{scope.rstrip('/')}/{below}"
            found = verdict(evaluate_call(event, policy, "read_file", {"path": path}))
            if found.decision.behavior >= Behavior.ASK:
                closed.append((below, found))
    except FolderTooLarge:
        if not searches:
            return own
        reason = (
            f"{event.tool_name} searches {raw}, which holds more than {MAX_FOLDER_ENTRIES} "
            "entries to check against the path rules"
        )
        return Verdict(Decision(Behavior.ASK, reason, FOLDER_SOURCE), True, ())
    if not closed:
        return own
    below, strongest = max(closed, key=lambda c: c[1].decision.behavior)
    if len(closed) == selected:
        return strongest
    if not searches:
        return own
    rule = strongest.decision
    reason = (
        f"{event.tool_name} searches {raw}, which holds {below}, "
        f"closed by rule {rule.source}: {rule.reason}"
    )
    return Verdict(Decision(Behavior.ASK, reason, FOLDER_SOURCE), True, strongest.matched)


def _selector(given: Mapping[str, Any], entry: CatalogEntry) -> Callable[[str], bool]:
    """Whether a path relative to the scope is selected by every filter of the call."""
    tests: list[tuple[GlobPattern, ...]] = []
    for key in entry.filters:
        value = given.get(key)
        values = value if isinstance(value, list) else [value]
        words = [v for v in values if isinstance(v, str) and v]
        if not words:
            continue
        if key == "type":
            texts = _TYPES.get(words[0])
        else:
            texts = tuple(a for word in words for a in _alternatives(word))
        if texts is None:
            continue  # an unknown type selects everything
        try:
            tests.append(tuple(compile_glob(t, gitignore=True) for t in texts))
        except GlobError:
            continue  # a pattern we cannot read selects everything
    return lambda path: all(any(p.matches(path) for p in test) for test in tests)


def _alternatives(text: str) -> list[str]:
    """``{a,b}`` alternatives expanded (bounded)."""
    found = _BRACES.search(text)
    if found is None:
        return [text]
    out: list[str] = []
    for choice in found.group(1).split(","):
        out += _alternatives(text[: found.start()] + choice + text[found.end() :])
        if len(out) >= _MAX_ALTERNATIVES:
            break
    return out[:_MAX_ALTERNATIVES]
