"""The peers: the same logical policy expressed in casbin, cedarpy, tollgate, agentpolicy and
permitd, each read from its installed source.

Every peer is imported lazily, so a missing one is skipped rather than failing the bench.
A peer's ``bind(case)`` returns a zero-argument callable over a request built once; calling
it returns ``"allow"``, ``"ask"`` or ``"deny"``, so the mapping of the engine's answer onto
the three behaviours is part of what is timed. ``expected(case)`` is what the logical policy
gives the case *as far as that engine can express it*: an engine that cannot see paths
answers a boundary escape like any other write (ask), and says so in ``includes``.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import os
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from compare_cases import Case, Workspace, outside_workspace

__all__ = [
    "PEER_NAMES",
    "AgentPolicyPeer",
    "CasbinPeer",
    "CedarPeer",
    "Peer",
    "PermitdPeer",
    "Query",
    "ScaleRule",
    "TollgatePeer",
    "available_peers",
]

Call = Callable[[], str]
ScaleRule = tuple[str, str]
"""A scale rule as (tool, top directory): deny that tool under ``<top>/``."""
Query = tuple[str, str]
"""A scale request as (tool, path)."""

_READS = ("read_file", "glob")
_WRITES = ("write_file", "edit_file")


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def _top(path: str | None) -> str:
    return "" if path is None else path.split("/", 1)[0]


class Peer:
    """Base of the peer adapters: a name, what its timing includes, and ``bind``."""

    name = ""
    distribution = ""
    includes = ""
    sees_paths = True
    scales = False

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws

    @property
    def title(self) -> str:
        """The name with the installed version."""
        return f"{self.name} {_version(self.distribution)}"

    def expected(self, case: Case) -> str:
        """The logical policy's decision as far as this engine can express it."""
        if case.escapes and not self.sees_paths:
            return "ask"
        return case.expected

    def bind(self, case: Case) -> Call:
        """A timed callable deciding ``case`` over a request built once."""
        raise NotImplementedError

    def bind_scale(self, rules: Sequence[ScaleRule], queries: Sequence[Query]) -> list[Call]:
        """Callables deciding each (tool, path) query under ``rules`` plus the base policy."""
        raise NotImplementedError


class CasbinPeer(Peer):
    """casbin: ``enforce_ex`` with ``priority(p.eft) || deny``; the matched row gives ask."""

    name = "casbin"
    distribution = "casbin"
    includes = (
        "Enforcer.enforce_ex on (tool, path); boundary = a registered Python function "
        "(realpath); ask = an allow row tagged ask; first matching row wins"
    )
    scales = True

    _MODEL = textwrap.dedent(
        """
        [request_definition]
        r = tool, path

        [policy_definition]
        p = tool, scope, decision, eft

        [policy_effect]
        e = priority(p.eft) || deny

        [matchers]
        m = r.tool == p.tool && (p.scope == "*" || \
(p.scope == "outside" && outside(r.path)) || \
(p.scope == "inside" && !outside(r.path)) || keyMatch(r.path, p.scope))
        """
    )
    _BASE = (
        ("write_file", "outside", "deny", "deny"),
        ("edit_file", "outside", "deny", "deny"),
        ("write_file", "inside", "ask", "allow"),
        ("edit_file", "inside", "ask", "allow"),
        ("shell", "*", "ask", "allow"),
        ("read_file", "*", "allow", "allow"),
        ("glob", "*", "allow", "allow"),
    )

    def _enforcer(self, rules: Sequence[ScaleRule]) -> Any:
        casbin = importlib.import_module("casbin")
        model = casbin.Model()
        model.load_model_from_text(self._MODEL)
        enforcer = casbin.Enforcer(model)
        root = self.ws.root
        enforcer.add_function("outside", lambda path: outside_workspace(root, str(path)))
        rows = [[tool, f"{top}/*", "deny", "deny"] for tool, top in rules]
        rows.extend(list(row) for row in self._BASE)
        enforcer.add_policies(rows)
        return enforcer

    def _call(self, enforcer: Any, tool: str, path: str) -> Call:
        def decide() -> str:
            allowed, row = enforcer.enforce_ex(tool, path)
            if not allowed:
                return "deny"
            return "ask" if row[2] == "ask" else "allow"

        return decide

    def bind(self, case: Case) -> Call:
        """See ``Peer.bind``."""
        return self._call(self._enforcer(()), case.tool, case.path or "")

    def bind_scale(self, rules: Sequence[ScaleRule], queries: Sequence[Query]) -> list[Call]:
        """See ``Peer.bind_scale``."""
        enforcer = self._enforcer(rules)
        return [self._call(enforcer, tool, path) for tool, path in queries]


class CedarPeer(Peer):
    """cedarpy: ``is_authorized`` over a pre-parsed ``PolicySet`` and ``Entities``."""

    name = "cedarpy"
    distribution = "cedarpy"
    includes = (
        "is_authorized (context dict -> JSON -> Rust -> JSON -> AuthzResult); boundary = "
        "realpath in the adapter (writes only), then `like` on the resolved path; "
        "ask = a permit whose @id starts with ask"
    )
    scales = True

    def _policies(self, rules: Sequence[ScaleRule]) -> Any:
        cedarpy = importlib.import_module("cedarpy")
        root = self.ws.root.replace("\\", "\\\\").replace('"', '\\"').replace("*", "\\*")
        text = [
            f'@id("deny-outside") forbid(principal, action in [Action::"write_file", '
            f'Action::"edit_file"], resource) unless {{ context.real like "{root}/*" }};',
            '@id("ask-write") permit(principal, action in [Action::"write_file", '
            'Action::"edit_file"], resource);',
            '@id("ask-shell") permit(principal, action == Action::"shell", resource);',
            '@id("allow-read") permit(principal, action in [Action::"read_file", '
            'Action::"glob"], resource);',
        ]
        text.extend(
            f'@id("deny-{index}") forbid(principal, action == Action::"{tool}", resource) '
            f'when {{ context.path like "{top}/*" }};'
            for index, (tool, top) in enumerate(rules)
        )
        return (
            cedarpy,
            cedarpy.PolicySet.from_str("\n".join(text)),
            cedarpy.Entities.from_json_str("[]"),
        )

    def _call(self, loaded: Any, tool: str, path: str | None) -> Call:
        cedarpy, policies, entities = loaded
        root = self.ws.root
        allow = cedarpy.Decision.Allow
        authorize = cedarpy.is_authorized
        base = {
            "principal": 'Agent::"agent"',
            "action": f"Action::{json.dumps(tool)}",
            "resource": 'Call::"call"',
        }

        writes = tool in _WRITES and path is not None

        def decide() -> str:
            real = root
            if writes and path is not None:
                real = "/" if os.path.isabs(path) else os.path.realpath(os.path.join(root, path))
            request = dict(base, context={"path": path or "", "real": real})
            result = authorize(request, policies, entities)
            if result.decision != allow:
                return "deny"
            ids = result.diagnostics.id_annotations_by_reason.values()
            return "ask" if any(name.startswith("ask") for name in ids) else "allow"

        return decide

    def bind(self, case: Case) -> Call:
        """See ``Peer.bind``."""
        return self._call(self._policies(()), case.tool, case.path)

    def bind_scale(self, rules: Sequence[ScaleRule], queries: Sequence[Query]) -> list[Call]:
        """See ``Peer.bind_scale``."""
        loaded = self._policies(rules)
        return [self._call(loaded, tool, path) for tool, path in queries]


class TollgatePeer(Peer):
    """tollgate: ``YamlPolicyEvaluator.evaluate``, first matching rule wins, else DENY."""

    name = "tollgate"
    distribution = "tollgate"
    includes = (
        "YamlPolicyEvaluator.evaluate on a prebuilt ToolRequest; has ASK; boundary = "
        "realpath in the adapter (writes only) into a metadata flag "
        "(tollgate matches literals only)"
    )
    scales = True

    def _evaluator(self, rules: Sequence[ScaleRule]) -> Any:
        tollgate = importlib.import_module("tollgate")
        lines = ['version: "bench"', "rules:"]
        lines.extend(
            f"  - {{tool: {tool}, when: {{top: {top}}}, decision: DENY, reason: r{index}}}"
            for index, (tool, top) in enumerate(rules)
        )
        for tool in _WRITES:
            lines.append(f"  - {{tool: {tool}, when: {{outside: true}}, decision: DENY}}")
            lines.append(f"  - {{tool: {tool}, decision: ASK}}")
        lines.append("  - {tool: shell, decision: ASK}")
        lines.extend(f"  - {{tool: {tool}, decision: ALLOW}}" for tool in _READS)
        path = os.path.join(self.ws.scratch, f"tollgate-{len(rules)}.yaml")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        return tollgate, tollgate.YamlPolicyEvaluator(path)

    def _call(self, loaded: Any, tool: str, arguments: dict[str, object]) -> Call:
        tollgate, evaluator = loaded
        effects = {"read_file": "READ", "glob": "READ", "shell": "WRITE"}
        effects.update(dict.fromkeys(_WRITES, "WRITE"))
        effect = getattr(tollgate.Effect, effects.get(tool, "UNKNOWN"))
        agent = tollgate.AgentContext("agent", "1", "bench")
        intent = tollgate.Intent("call", "bench")
        root = self.ws.root
        raw = arguments.get("path")
        path = raw if isinstance(raw, str) else None
        names = {"ALLOW": "allow", "ASK": "ask", "DENY": "deny"}
        writes = tool in _WRITES

        def decide() -> str:
            metadata: dict[str, object] = {"top": _top(path)}
            if writes and path is not None:
                metadata["outside"] = outside_workspace(root, path)
            request = tollgate.ToolRequest(tool, "call", "file", effect, arguments, metadata, "1")
            return names[evaluator.evaluate(agent, intent, request).decision.value]

        return decide

    def bind(self, case: Case) -> Call:
        """See ``Peer.bind``."""
        return self._call(self._evaluator(()), case.tool, dict(case.arguments))

    def bind_scale(self, rules: Sequence[ScaleRule], queries: Sequence[Query]) -> list[Call]:
        """See ``Peer.bind_scale``."""
        loaded = self._evaluator(rules)
        return [self._call(loaded, tool, {"path": path}) for tool, path in queries]


class AgentPolicyPeer(Peer):
    """agentpolicy: ``PolicySession.evaluate`` on a prebuilt ``Action`` (tool names only)."""

    name = "agentpolicy"
    distribution = "agentpolicy"
    includes = (
        "PolicySession.evaluate on a prebuilt Action; ask = REQUIRE_APPROVAL; "
        "no paths: cannot express the boundary (an escaping write asks)"
    )
    sees_paths = False

    def bind(self, case: Case) -> Call:
        """See ``Peer.bind``."""
        agentpolicy = importlib.import_module("agentpolicy")
        types = importlib.import_module("agentpolicy.types")
        policy = agentpolicy.AgentPolicy.from_dict(
            {
                "tools": {"allow": [*_READS, *_WRITES, "shell"]},
                "approval": {"require_for": [{"tool": t} for t in (*_WRITES, "shell")]},
            }
        )
        session = policy.session("bench")
        action = types.Action(action_type=types.ActionType.TOOL, tool_name=case.tool)
        names = {"allow": "allow", "deny": "deny", "require_approval": "ask"}

        def decide() -> str:
            return names[session.evaluate(action).decision_type.value]

        return decide


class PermitdPeer(Peer):
    """permitd: ``Gate.call`` with tiers (GREEN runs, RED proposes a permit = ask)."""

    name = "permitd"
    distribution = "permitd"
    includes = (
        "Gate.call (no decision-only API): GREEN runs a no-op tool, RED proposes a permit "
        "(= ask) after the egress guard; no audit file; tiers by tool name only, "
        "cannot express the boundary (an escaping write asks)"
    )
    sees_paths = False

    def bind(self, case: Case) -> Call:
        """See ``Peer.bind``."""
        permitd = importlib.import_module("permitd")
        gate = permitd.Gate()

        def noop(**_: object) -> None:
            return None

        for tool in _READS:
            gate.register(tool, noop, tier=permitd.GREEN)
        for tool in (*_WRITES, "shell"):
            gate.register(tool, noop, tier=permitd.RED)
        arguments = dict(case.arguments)
        tool = case.tool

        def decide() -> str:
            result = gate.call(tool, arguments)
            if result.ok:
                return "allow"
            return "ask" if result.reason == "approval_required" else "deny"

        return decide


PEER_NAMES = ("casbin", "cedarpy", "tollgate", "agentpolicy", "permitd")
_PEERS: tuple[type[Peer], ...] = (
    CasbinPeer,
    CedarPeer,
    TollgatePeer,
    AgentPolicyPeer,
    PermitdPeer,
)


def available_peers(ws: Workspace) -> tuple[list[Peer], list[str]]:
    """The installed peers, and the names of those that are not installed."""
    found: list[Peer] = []
    missing: list[str] = []
    for peer in _PEERS:
        try:
            importlib.import_module(peer.name)
        except ImportError:
            missing.append(peer.name)
            continue
        found.append(peer(ws))
    return found, missing
