"""One file as the checks see it: its text, the loader's verdict and the compiled selection.

``prepare`` runs the loader once per file (``check_bytes_partial``, then compiling the
selection the file makes); every check reads the result instead of loading again. A file the
loader refuses carries its problems and, when they each lie in one rule, the document of the
rules that did validate (without examples), so the rule checks still run on those: one run
reports everything. When not even that is left, there is no document and the checks that
need one skip the file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..core.errors import ConfigurationError, PolicyLoadError, Problem
from ..engine.builtin import BUILTIN_PROFILE_NAMES, builtin_profile
from ..engine.selection import ToolPolicy
from ..language import LoadedDocument, PolicyDoc, ProfileDoc, check_bytes_partial
from ..language.salvage import without_rules
from ..tools.definitions import BUILTIN_TOOL_NAMES
from .compiled import is_builtin_profile, policy_of

if TYPE_CHECKING:
    from .rules import RuleSite

__all__ = ["CONFIGURATION", "INVALID_PATTERN", "PROFILE_NOT_BUILTIN", "LintFile", "prepare"]

CONFIGURATION = "configuration"
INVALID_PATTERN = "invalid-pattern"
PROFILE_NOT_BUILTIN = "profile-not-builtin"
_RULE_POINTER = re.compile(r"^/rules/(\d+)/")


@dataclass(slots=True)
class LintFile:
    """A file under lint. ``document`` is None when the loader refused the file, unless
    some rules validated: then it holds those (see ``language.salvage``).

    ``policy`` is the compiled selection for a Policy (or a shipped Profile); None for a
    preset table or when compiling failed. ``problems`` are every loader problem, in any
    file of the ``extends`` chain.
    """

    path: str
    lines: tuple[str, ...]
    document: LoadedDocument | None
    problems: tuple[Problem, ...]
    policy: ToolPolicy | None
    known_tools: tuple[str, ...]
    agents: tuple[str, ...] | None = None
    """The agents whose tool names count as known (``lint --agent``); None: every agent."""
    rule_sites: tuple[RuleSite, ...] | None = field(default=None, repr=False)
    """Filled once by ``toolpolicy.lint.rules.rule_sites``, shared by the rule checks."""
    _presets: dict[str, ToolPolicy | str] = field(default_factory=dict, repr=False)

    def under_preset(self, preset: str | None) -> ToolPolicy | str:
        """The selection under ``preset`` (None: the default), or why it cannot be built."""
        if self.policy is None:
            return "the file does not compile"
        if preset is None:
            return self.policy
        found = self._presets.get(preset)
        if found is None:
            try:
                found = self.policy.with_knobs(preset=preset)
            except ConfigurationError as exc:
                found = str(exc)
            self._presets[preset] = found
        return found


def prepare(
    data: bytes, path: str, workspace: str, agents: tuple[str, ...] | None = None
) -> LintFile:
    """Check ``data`` (the bytes of the file at ``path``) and compile what it selects;
    ``agents`` limits the agent tool names that count as known (None: every agent)."""
    lines = tuple(data.decode("utf-8", errors="replace").splitlines())
    document, problems = check_bytes_partial(data, path)
    salvaged = bool(problems)
    policy: ToolPolicy | None = None
    if document is not None:
        problems += _refused_profile(document)
        if salvaged or not problems:
            document, policy, found = _compiled(document, workspace, salvaged=salvaged)
            problems += found
    return LintFile(
        path=path,
        lines=lines,
        document=document,
        problems=tuple(problems),
        policy=policy,
        known_tools=_known_tools(document, policy),
        agents=agents,
    )


def _compiled(
    document: LoadedDocument, workspace: str, *, salvaged: bool
) -> tuple[LoadedDocument | None, ToolPolicy | None, list[Problem]]:
    """The document the rule checks see, its selection, and the problems compiling found.

    Rules whose patterns do not compile are reported, then left out of the selection (with
    the examples, whose verdicts they would change) so the other rules are still compiled
    and checked; the document keeps them for the checks that read the rules as written. A
    part of a file whose selection cannot be built on a parent file is not judged at all:
    the tools its rules may name are unknown.
    """
    try:
        return document, policy_of(document, workspace, salvaged=salvaged), []
    except ConfigurationError as exc:
        problems = [Problem(document.path, 1, 1, CONFIGURATION, str(exc))]
    except PolicyLoadError as exc:
        problems = document.placed(exc.problems)
    broken = _rules_with_bad_patterns(problems, document)
    if broken is not None and isinstance(document.model, PolicyDoc):
        model, positions = without_rules(document.model, document.positions, broken)
        rest = replace(document, model=model, positions=MappingProxyType(positions))
        try:
            return document, policy_of(rest, workspace, salvaged=True), problems
        except (ConfigurationError, PolicyLoadError):
            salvaged = True
    if salvaged and not _extends_builtin(document):
        return None, None, problems
    return document, None, problems


def _rules_with_bad_patterns(
    problems: Sequence[Problem], document: LoadedDocument
) -> frozenset[int] | None:
    """The own rules that ``invalid-pattern`` problems name; None if any problem is other."""
    found: set[int] = set()
    for problem in problems:
        match = _RULE_POINTER.match(problem.pointer)
        if problem.code != INVALID_PATTERN or problem.path != document.path or match is None:
            return None
        found.add(int(match.group(1)))
    return frozenset(found)


def _extends_builtin(document: LoadedDocument) -> bool:
    model = document.model
    return not isinstance(model, PolicyDoc) or (model.extends or "P03") in BUILTIN_PROFILE_NAMES


def _refused_profile(document: LoadedDocument) -> list[Problem]:
    if not isinstance(document.model, ProfileDoc) or is_builtin_profile(document):
        return []
    line, column = document.position("/kind")
    message = (
        "a Profile is only accepted when it is a shipped one (P01, P02, P03); "
        "write a Policy that extends one instead"
    )
    return [Problem(document.path, line, column, PROFILE_NOT_BUILTIN, message, "/kind")]


def _known_tools(document: LoadedDocument | None, policy: ToolPolicy | None) -> tuple[str, ...]:
    names = list(BUILTIN_TOOL_NAMES)
    if policy is not None:
        profile_tools: tuple[str, ...] = policy.profile.tools
    elif document is not None and isinstance(document.model, ProfileDoc):
        profile_tools = document.model.tools
    else:
        model = None if document is None else document.model
        extends = model.extends if isinstance(model, PolicyDoc) else None
        try:
            profile_tools = builtin_profile(extends or "P03").tools
        except ConfigurationError:
            profile_tools = ()
    names += [name for name in profile_tools if name not in names]
    return tuple(names)
