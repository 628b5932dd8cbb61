"""One file as the checks see it: its text, the loader's verdict and the compiled selection.

``prepare`` runs the loader once per file (``check_bytes``, then compiling the selection the
file makes); every check reads the result instead of loading again. A file the loader
refuses carries its problems and no document; the checks that need a document skip it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.errors import ConfigurationError, PolicyLoadError, Problem
from ..engine.builtin import builtin_profile
from ..engine.selection import ToolPolicy
from ..language import LoadedDocument, PolicyDoc, ProfileDoc, check_bytes
from ..tools.definitions import BUILTIN_TOOL_NAMES
from .compiled import is_builtin_profile, policy_of

if TYPE_CHECKING:
    from .rules import RuleSite

__all__ = ["CONFIGURATION", "PROFILE_NOT_BUILTIN", "LintFile", "prepare"]

CONFIGURATION = "configuration"
PROFILE_NOT_BUILTIN = "profile-not-builtin"


@dataclass(slots=True)
class LintFile:
    """A file under lint. ``document`` is None when the loader refused the file.

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


def prepare(data: bytes, path: str, workspace: str) -> LintFile:
    """Check ``data`` (the bytes of the file at ``path``) and compile what it selects."""
    lines = tuple(data.decode("utf-8", errors="replace").splitlines())
    document, problems = check_bytes(data, path)
    policy: ToolPolicy | None = None
    if document is not None:
        try:
            problems = _refused_profile(document)
            if not problems:
                policy = policy_of(document, workspace)
        except PolicyLoadError as exc:
            problems = list(exc.problems)
        except ConfigurationError as exc:
            problems = [Problem(path, 1, 1, CONFIGURATION, str(exc))]
    return LintFile(
        path=path,
        lines=lines,
        document=document,
        problems=tuple(problems),
        policy=policy,
        known_tools=_known_tools(document, policy),
    )


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
