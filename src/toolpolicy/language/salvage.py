"""The rules that validated, from a Policy that did not: so one lint run reports everything.

A refused document is never used to decide anything. But a linter that stops at the first
broken rule makes people fix a file one round at a time, so ``salvage`` rebuilds the
document without what the problems point into — each rule with a problem, unknown top-level
keys, and every example (an example's verdict depends on the rules that were dropped) — and
checks what is left exactly as ``check_bytes`` would. Positions stay those of the original
file: the salvaged document's rule ``k`` answers with the place of the rule it came from.

Nothing is salvaged from a problem the rules cannot be separated from (a YAML key that is
not a string, a missing ``name``, a ``rules`` that is not a list, a document that is not a
Policy): then the caller has no document, as before.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set
from types import MappingProxyType

from pydantic import ValidationError

from ..core.errors import Problem
from .models import PolicyDoc, validate_document
from .semantics import boundary_problems, semantic_problems
from .yamltree import ParsedTree, escape_pointer

__all__ = ["salvage", "without_rules"]

_RULE = re.compile(r"^/rules/(\d+)(?:/|$)")
_EXAMPLES = re.compile(r"^/examples(?:/|$)")
_TOP_LEVEL_KEY = re.compile(r"^/([^/]+)$")
_POLICY_KEYS = frozenset(
    field.alias or name for name, field in PolicyDoc.model_fields.items()
)  # apiVersion, kind, name, extends, description, rules, examples


def salvage(
    tree: ParsedTree, problems: Sequence[Problem]
) -> tuple[PolicyDoc, dict[str, tuple[int, int]]] | None:
    """The model of ``tree`` without what ``problems`` point into, and its positions.

    None when the document is not a Policy, when a problem is not about one rule, an
    example or an unknown top-level key, or when what is left still fails a check.
    """
    root = tree.value
    if not isinstance(root, dict) or root.get("kind") != "Policy":
        return None
    rules = root.get("rules", [])
    if not isinstance(rules, list):
        return None
    dropped_rules: set[int] = set()
    dropped_keys: set[str] = {"examples"}  # as JSON pointer tokens
    for problem in problems:
        found = _RULE.match(problem.pointer)
        if found is not None:
            dropped_rules.add(int(found.group(1)))
            continue
        if _EXAMPLES.match(problem.pointer):
            continue
        key = _TOP_LEVEL_KEY.match(problem.pointer)
        if key is None or key.group(1) in _POLICY_KEYS:
            return None
        dropped_keys.add(key.group(1))
    kept = [i for i in range(len(rules)) if i not in dropped_rules]
    value = {k: v for k, v in root.items() if escape_pointer(k) not in dropped_keys}
    if "rules" in root:
        value["rules"] = [rules[i] for i in kept]
    left = ParsedTree(value, _renumbered(tree.positions, kept, dropped_keys), tree.key_positions)
    if boundary_problems(left, "")[0] or semantic_problems(left, ""):
        return None
    try:
        model = validate_document(value)
    except ValidationError:
        return None
    assert isinstance(model, PolicyDoc)  # the kind was checked above
    return model, dict(left.positions)


def without_rules(
    model: PolicyDoc, positions: Mapping[str, tuple[int, int]], dropped: Set[int]
) -> tuple[PolicyDoc, dict[str, tuple[int, int]]]:
    """``model`` without the rules numbered ``dropped`` and without examples, with the
    positions renumbered to match (for rules whose patterns do not compile)."""
    kept = [i for i in range(len(model.rules)) if i not in dropped]
    left = model.model_copy(update={"rules": tuple(model.rules[i] for i in kept), "examples": ()})
    return left, dict(_renumbered(positions, kept, {"examples"}))


def _renumbered(
    old_positions: Mapping[str, tuple[int, int]], kept: list[int], dropped_keys: set[str]
) -> MappingProxyType[str, tuple[int, int]]:
    """The positions with rule ``kept[k]`` renamed rule ``k`` and dropped parts left out."""
    new_index = {old: new for new, old in enumerate(kept)}
    positions: dict[str, tuple[int, int]] = {}
    for pointer, position in old_positions.items():
        found = _RULE.match(pointer)
        if found is not None:
            old = int(found.group(1))
            if old not in new_index:
                continue
            start, end = found.span(1)
            pointer = f"{pointer[:start]}{new_index[old]}{pointer[end:]}"
        elif pointer[1:].split("/", 1)[0] in dropped_keys:
            continue
        positions[pointer] = position
    return MappingProxyType(positions)
