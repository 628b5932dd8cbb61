"""``OpenGuard``: the policy's path rules, applied again to the path a file tool opened.

The engine decides on the path a call *says*; the file tools enforce at the open (see
``tools.opened``): they resolve the path beneath the workspace, then ask this guard about
the real workspace-relative path before they read or write it. Only rules that look at paths
count — every other rule matched the call whatever its path, and was part of the decision.
Absolute and ``~/`` patterns see the opened file's real absolute path.
Under a profile without the ``policy`` capability there are no rules to apply; the protected
set is kept by the tools themselves in every profile.
"""

from __future__ import annotations

import os

from ..compile.policy import CompiledPolicy
from ..compile.rules import CallFacts
from ..core.decision import Decision
from ..core.vocabulary import Behavior, Effect
from .participants import rule_candidates

__all__ = ["OpenGuard"]


class OpenGuard:
    """A ``PathGuard`` over one compiled policy."""

    __slots__ = ("_enforces", "_policy", "_root")

    def __init__(self, policy: CompiledPolicy, workspace: str, *, enforces: bool) -> None:
        self._policy = policy
        self._root = workspace
        self._enforces = enforces

    def check_open(self, tool: str, effect: Effect, opened: str) -> Decision | None:
        """The strongest deny or ask the path rules give ``tool`` on ``opened``, else None."""
        if not self._enforces:
            return None
        view = self._policy.rule_index.rules_for(tool)
        if not view.has_path_rules:
            return None
        absolute: tuple[str, ...] = ()
        if view.has_outside_paths:  # absolute and ~/ patterns see the file's real path
            absolute = (os.path.join(self._root, opened) if opened else self._root,)
        facts = CallFacts(
            tool=tool,
            effect=effect,
            path=opened,
            target=opened,
            absolute=absolute,
            home=os.path.expanduser("~") if absolute else "",
        )
        rules = [r for r in view.candidates(facts) if r.paths is not None]
        strongest: Decision | None = None
        for _rule, decision in rule_candidates(rules, facts):
            if decision.behavior in (Behavior.DENY, Behavior.ASK) and (
                strongest is None or decision.behavior > strongest.behavior
            ):
                strongest = decision
        return strongest
