"""What a compiled rule says, in terms every exporter can translate.

A rule's ``match`` fields are resolved against the selection's tools: which built-in tools it
can reach (a rule with ``commands`` reaches only the command tool, one with ``paths`` only the
tools that take a path — any other pairing never matches), which other tool names it spells
out (``mcp__github__*``, ``WebFetch``), and whether it also reaches tools nobody can list: a
rule without ``tools`` whose effects include ``execute`` covers every external tool (they are
decided with the execute effect), and so does a wildcard name such as ``*``.
"""

from __future__ import annotations

from ..compile.rules import CompiledRule
from ..core.lean_typing import NamedTuple
from ..core.vocabulary import ApprovalPolicy, Behavior, Effect
from ..engine.selection import ToolPolicy
from ..tools.registry import ToolDefinition
from .native import Omission, OmissionKind

__all__ = [
    "RuleScope",
    "is_mcp_server_pattern",
    "rule_scopes",
    "selection_omissions",
    "takes_command",
]

_MCP = "mcp__"


class RuleScope(NamedTuple):
    """One rule as the exporters see it.

    ``behavior`` is what the rule decides under the selection's knobs (an ask is a deny under
    the approval policy ``never``). ``builtins`` are the built-in tools it can match;
    ``names`` are the other tool names or ``mcp__server__*`` patterns it spells out (only for
    rules without paths and commands); ``open_ended`` says it also reaches tools no list can
    name.
    """

    rule: CompiledRule
    behavior: Behavior
    builtins: tuple[str, ...]
    names: tuple[str, ...]
    open_ended: bool

    @property
    def subject(self) -> str:
        """``rule NAME (file:line)`` for omission lines."""
        return f"rule {self.rule.label}"

    def unlisted_tools(self, agent: str, *, exported: bool) -> list[Omission]:
        """For an ``open_ended`` rule, the omission of the tools ``agent``'s rules cannot
        list: ``partial`` when some of the rule was ``exported``, else ``dropped``."""
        if not self.open_ended:
            return []
        detail = (
            f"it also reaches tools a {agent} rule cannot list (no 'tools', or a '*' "
            "name other than mcp__SERVER__*)"
        )
        kind = OmissionKind.PARTIAL if exported else OmissionKind.DROPPED
        return [Omission(self.subject, detail, kind)]


def rule_scopes(policy: ToolPolicy) -> tuple[RuleScope, ...]:
    """Every rule of ``policy`` in declaration order."""
    definitions = [d for d in (policy.tools.get(n) for n in policy.tools.names) if d is not None]
    never = policy.knobs.approval is ApprovalPolicy.NEVER
    return tuple(_scope(rule, definitions, never) for rule in policy.compiled.rules)


def _scope(rule: CompiledRule, definitions: list[ToolDefinition], never: bool) -> RuleScope:
    behavior = Behavior.DENY if never and rule.behavior is Behavior.ASK else rule.behavior
    builtins = tuple(d.name for d in definitions if _reaches(rule, d))
    if rule.commands is not None or rule.paths is not None:
        return RuleScope(rule, behavior, builtins, (), open_ended=False)
    builtin_names = {d.name for d in definitions}
    names: list[str] = []
    open_ended = False
    if rule.tools is None:
        open_ended = rule.effects is None or Effect.EXECUTE in rule.effects
    else:
        for pattern in rule.tools:
            if pattern.is_exact:
                if pattern.text not in builtin_names:
                    names.append(pattern.text)
            elif is_mcp_server_pattern(pattern.text):
                names.append(pattern.text)
            else:
                open_ended = True
        if rule.effects is not None and Effect.EXECUTE not in rule.effects:
            names.clear()  # external tools are decided with the execute effect
            open_ended = False
    return RuleScope(rule, behavior, builtins, tuple(names), open_ended)


def _reaches(rule: CompiledRule, definition: ToolDefinition) -> bool:
    if rule.tools is not None and not any(p.matches(definition.name) for p in rule.tools):
        return False
    if rule.effects is not None and definition.effect not in rule.effects:
        return False
    if rule.commands is not None and not takes_command(definition):
        return False
    return rule.paths is None or definition.path_argument is not None


def takes_command(definition: ToolDefinition) -> bool:
    """True for the tool whose calls carry a command line (the shell)."""
    return definition.effect is Effect.EXECUTE and "command" in definition.arguments.names


def is_mcp_server_pattern(text: str) -> bool:
    """``mcp__SERVER__*``: every tool of one MCP server, a pattern each dialect can say."""
    if not text.startswith(_MCP) or not text.endswith("__*"):
        return False
    server = text[len(_MCP) : -3]
    return bool(server) and "*" not in server and "__" not in server


def selection_omissions(policy: ToolPolicy, knobs_hint: str) -> tuple[Omission, ...]:
    """What no rule dialect carries: the boundary, the knobs and the profile's defaults."""
    found: list[Omission] = []
    if policy.engine.enforces_policy:
        found.append(
            Omission(
                "workspace-boundary",
                "writes outside the workspace (absolute paths, '..', symlink escapes) and to "
                "the protected files are denied by toolpolicy only",
                OmissionKind.SELECTION,
            )
        )
    knobs = policy.knobs
    found.append(
        Omission(
            f"preset {knobs.preset} (sandbox {knobs.sandbox}, approval {knobs.approval})",
            knobs_hint,
            OmissionKind.SELECTION,
        )
    )
    never = knobs.approval is ApprovalPolicy.NEVER
    defaults = ", ".join(
        f"{effect} {_default(policy.profile.default_for(effect), never)}" for effect in Effect
    )
    found.append(
        Omission(
            f"profile {policy.profile.name} defaults ({defaults})",
            "a call no rule matches is left to the agent's own defaults",
            OmissionKind.SELECTION,
        )
    )
    return tuple(found)


def _default(behavior: Behavior, never: bool) -> str:
    return "deny" if never and behavior is Behavior.ASK else behavior.label
