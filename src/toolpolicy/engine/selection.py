"""``toolpolicy.load``: select a profile, layered policies and knobs, compile once.

The returned ``ToolPolicy`` is immutable. ``check`` gives the effective decision without
asking anyone (exactly what ``toolpolicy check`` prints); ``gate`` builds the runtime that
asks responders, audits and runs handlers.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable, Mapping, Sequence

from ..compile.policy import CompiledPolicy, CompiledProfile, compile_policy
from ..compile.source import SourceDocument
from ..core.decision import Decision
from ..core.errors import CallRejected, ConfigurationError, PolicyLoadError
from ..core.lean_typing import TYPE_CHECKING, NamedTuple, tuple_new
from ..core.memo import remember
from ..core.vocabulary import ApprovalPolicy, Behavior, Effect, SandboxMode
from ..tools.definitions import builtin_definitions
from ..tools.protected import ProtectedSet
from ..tools.registry import ToolCall, ToolContext, ToolSnapshot
from ..tools.workspace import LexicalBoundary, WorkspaceBoundary
from .builtin import (
    BUILTIN_PROFILE_NAMES,
    adopt_builtin_source,
    builtin_preset_source,
    builtin_profile,
    builtin_profile_source,
    layer_path,
    require_builtin,
)
from .evaluate import DecisionEngine, Evaluation
from .knobs import Knobs, KnobState
from .presets import PresetTable
from .request import PermissionRequest
from .session import SessionEvent, SessionLog

if TYPE_CHECKING:
    from typing import Any

    from ..core.protocols import AuditSink
    from .approval import ApprovalService
    from .gate import Gate
    from .plain_lane import Lane

__all__ = [
    "CompiledSources",
    "PolicySources",
    "ToolPolicy",
    "assemble",
    "compile_sources",
    "gather_sources",
    "load",
]

PathLike = str | os.PathLike[str]
_CHECK = "check"
"""The call id of a request asked for without one."""


class ToolPolicy:
    """A compiled selection: profile, layered rules, preset table, knobs and workspace.

    Immutable: ``with_knobs`` returns a new selection. ``check`` keeps a memo of the
    decisions it made on a call's text (tool name and arguments), and per file tool a lane
    (``engine.plain_lane``: its one decision for every path nothing looks at); the selection
    fixes the rules, the workspace and the knobs, so another selection never sees them.
    """

    __slots__ = (
        "_context",
        "_lanes",
        "_memo",
        "compiled",
        "engine",
        "knob_events",
        "knobs",
        "presets",
        "tools",
        "workspace",
    )

    compiled: CompiledPolicy
    presets: PresetTable
    knob_events: tuple[SessionEvent, ...]
    knobs: KnobState
    workspace: str
    engine: DecisionEngine
    tools: ToolSnapshot
    _memo: dict[object, Decision]
    _lanes: dict[str, Lane]
    _context: ToolContext

    def __init__(
        self,
        compiled: CompiledPolicy,
        presets: PresetTable,
        knob_events: tuple[SessionEvent, ...],
        knobs: KnobState,
        workspace: str,
        engine: DecisionEngine,
        tools: ToolSnapshot,
    ) -> None:
        for name, value in (
            ("compiled", compiled),
            ("presets", presets),
            ("knob_events", knob_events),
            ("knobs", knobs),
            ("workspace", workspace),
            ("engine", engine),
            ("tools", tools),
            ("_memo", {}),
            ("_lanes", {}),
            ("_context", ToolContext(workspace, _CHECK)),  # every request's by default
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("ToolPolicy is immutable")

    def __repr__(self) -> str:
        return (
            f"ToolPolicy(profile={self.profile.name!r}, rules={len(self.compiled.rules)}, "
            f"preset={self.knobs.preset!r}, workspace={self.workspace!r})"
        )

    @property
    def profile(self) -> CompiledProfile:
        """The profile everything is layered on."""
        return self.compiled.profile

    def with_knobs(
        self,
        preset: str | None = None,
        sandbox: SandboxMode | str | None = None,
        approval: ApprovalPolicy | str | None = None,
    ) -> ToolPolicy:
        """This selection with a preset applied, then the knobs set; invalid values raise
        ``ConfigurationError`` (``custom`` can never be selected)."""
        knobs = Knobs(self.presets, SessionLog(self.knob_events))
        if preset is not None:
            knobs.apply_preset(preset)
        if sandbox is not None:
            knobs.set_sandbox(sandbox)
        if approval is not None:
            knobs.set_approval(approval)
        return ToolPolicy(
            self.compiled,
            self.presets,
            knobs.log.events,
            knobs.state,
            self.workspace,
            self.engine,
            self.tools,
        )

    def request(
        self, tool: str, arguments: Mapping[str, object] | str | None = None, call_id: str = _CHECK
    ) -> PermissionRequest:
        """A permission request for a call; ``CallRejected`` when preparation fails."""
        prepared = self.tools.prepare(
            tuple_new(ToolCall, (call_id, tool, {} if arguments is None else arguments))
        )
        if prepared.error is not None:
            raise CallRejected(
                prepared.error.error_code or "invalid_arguments", prepared.error.content
            )
        # The context is a value: one made per selection serves every default call id.
        context = self._context if call_id == _CHECK else ToolContext(self.workspace, call_id)
        return PermissionRequest(prepared, context)

    def evaluate(
        self,
        tool: str,
        arguments: Mapping[str, object] | str | None = None,
        recommendations: Sequence[Decision] = (),
    ) -> Evaluation:
        """Every participant's say, the merge and the effective decision."""
        return self.engine.evaluate(self.request(tool, arguments), self.knobs, recommendations)

    def check(
        self,
        tool: str,
        arguments: Mapping[str, object] | str | None = None,
        recommendations: Sequence[Decision] = (),
    ) -> Decision:
        """The effective decision, asking no one: ask stays ask (``never`` makes it deny).

        A file tool's call whose path nothing looks at is answered by the tool's lane
        (``engine.plain_lane``). A call decided on its text alone is remembered by its
        text: the same tool and arguments (same types, same order) get the same decision
        without preparing them again. A call that fails preparation is never remembered,
        so it raises every time.
        """
        if not recommendations:
            lane = self._lanes.get(tool)
            if lane is None:
                lane = self._plain_lane(tool)
            plain = lane(arguments)
            if plain is not None:
                return plain
        key = None if recommendations else _memo_key(tool, arguments)
        if key is not None:
            found = self._memo.get(key)
            if found is not None:
                return found
        return self._decide(tool, arguments, recommendations, key)

    def _decide(
        self,
        tool: str,
        arguments: Mapping[str, object] | str | None,
        recommendations: Sequence[Decision],
        key: object | None,
    ) -> Decision:
        """``check`` past the memo: decide, and remember a text-only decision."""
        decision, text_only = self._decided(tool, arguments, recommendations)
        if key is not None and text_only:
            remember(self._memo, key, decision, _MEMO_LIMIT)
        return decision

    def _decided(
        self,
        tool: str,
        arguments: Mapping[str, object] | str | None,
        recommendations: Sequence[Decision] = (),
    ) -> tuple[Decision, bool]:
        """Prepare and evaluate a call: its effective decision, and whether it was made on
        the call's text alone (``DecisionEngine.text_only``)."""
        request = self.request(tool, arguments)
        evaluation = self.engine.evaluate(request, self.knobs, recommendations)
        return evaluation.effective, self.engine.text_only(request, evaluation)

    def _plain_lane(self, tool: str) -> Lane:
        """Build and keep ``tool``'s lane (an unknown tool has none, and is not kept)."""
        # Imported here: the hook decides through the engine and never builds a lane.
        from .plain_lane import NO_LANE, plain_lane, rule_keys

        definition = self.tools.get(tool)
        if definition is None:
            return NO_LANE
        relative, absolute = rule_keys(self.engine, tool)
        keys = None if absolute else relative  # absolute rules read the absolute spelling
        lane = self._lanes[tool] = plain_lane(
            definition, keys, self.engine.protected, lambda call: self._text_decision(tool, call)
        )
        return lane

    def _text_decision(self, tool: str, arguments: Mapping[str, object]) -> Decision | None:
        """The effective decision for a call when it was made on the call's text alone."""
        decision, text_only = self._decided(tool, arguments)
        return decision if text_only else None

    def gate(
        self,
        *,
        approval: ApprovalService | None,
        audit: Sequence[AuditSink],
        registry: ToolSnapshot | None = None,
        session_id: str | None = None,
        include_arguments: bool = False,
    ) -> Gate:
        """The runtime gate. A profile with the ``policy`` capability (or any user policy)
        needs an approval service and at least one audit sink, or this fails.

        ``registry`` defaults to the profile's built-in tools with their real handlers.
        ``include_arguments`` records each call's arguments in its audit record, with
        secret-looking values and file contents redacted.
        """
        if self.engine.enforces_policy and (approval is None or not audit):
            missing = "an approval service" if approval is None else "an audit sink"
            raise ConfigurationError(
                f"profile {self.profile.name} enforces a policy and needs {missing}"
            )
        # Imported here: deciding (``check``, the hook) never builds a gate.
        import secrets

        from .approval import ApprovalService
        from .gate import Gate

        require_builtin(self.profile)
        runnable = registry if registry is not None else self._runnable_tools()
        self._refuse_powershell_allows(runnable)
        log = SessionLog(self.knob_events)
        service = approval if approval is not None else ApprovalService(log=log)
        return Gate(
            self.engine,
            Knobs(self.presets, log),
            service,
            audit,
            runnable,
            session_id=session_id or secrets.token_hex(16),
            include_arguments=include_arguments,
        )

    def _refuse_powershell_allows(self, registry: ToolSnapshot) -> None:
        """The engine reads a shell line as bash does, which proves nothing about a line
        PowerShell runs (it quotes and escapes otherwise): a ``shell`` run by PowerShell
        under an allow rule that can cover shell lines is refused (``ConfigurationError``),
        so no allow is ever granted on that reading."""
        from ..tools.shell import ShellRunner

        definition = registry.get("shell")
        handler = definition.handler if definition is not None else None
        if not isinstance(handler, ShellRunner) or handler.shell != "powershell":
            return
        allowing = [
            rule.name
            for rule in (self.compiled.rules if self.engine.enforces_policy else ())
            if rule.decision.behavior is Behavior.ALLOW
            and (rule.tools is None or any(p.matches("shell") for p in rule.tools))
            and (rule.effects is None or Effect.EXECUTE in rule.effects)
        ]
        if allowing:
            raise ConfigurationError(
                f"a PowerShell shell cannot run under allow rules for shell lines "
                f"({', '.join(allowing)}): toolpolicy reads a line as bash does"
            )

    def _runnable_tools(self) -> ToolSnapshot:
        # Imported here: the handlers pull in subprocess and the sandbox, which deciding
        # (``check``, the hook) never needs.
        from ..tools.builtin import builtin_registry

        real = builtin_registry().snapshot()
        return ToolSnapshot(d for n in self.tools.names if (d := real.get(n)) is not None)


_MEMO_LIMIT = 4096


def _memo_key(tool: str, arguments: Mapping[str, object] | str | None) -> object | None:
    """The text of a call as a memo key, or ``None`` when it has no cheap exact one.

    A JSON string is its own key. A dict gives its items, each ``bool`` or ``int`` value
    with its type beside it (``True == 1``, yet only one of them is a valid flag); any other
    value type (a ``str`` subclass, a list, a float) has no key, and the call is prepared
    and validated as usual.
    """
    if arguments.__class__ is dict:
        items = arguments.items()
        for value in arguments.values():
            if value.__class__ is not str:
                return _typed_key(tool, items)
        return (tool, *items)
    if arguments.__class__ is str:
        return (tool, arguments)
    return None


def _typed_key(tool: str, items: Iterable[tuple[str, object]]) -> object | None:
    key: list[object] = [tool]
    for name, value in items:
        kind = value.__class__
        if kind is str:
            key.append((name, value))
        elif kind is bool or kind is int:
            key.append((name, (kind, value)))
        else:
            return None
    return tuple(key)


class PolicySources(NamedTuple):
    """Every validated document of a selection, as plain data: what the cache stores."""

    profile: SourceDocument
    layers: tuple[SourceDocument, ...]
    presets: SourceDocument

    @property
    def documents(self) -> tuple[SourceDocument, ...]:
        """Profile, layers and preset table."""
        return (self.profile, *self.layers, self.presets)

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable form."""
        return {
            "profile": self.profile.to_json(),
            "layers": [d.to_json() for d in self.layers],
            "presets": self.presets.to_json(),
        }

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> PolicySources:
        """The inverse of ``to_json``; raises ``ValueError``/``KeyError`` when malformed."""
        layers = value["layers"]
        if not isinstance(layers, list):
            raise ValueError("malformed layers")
        return cls(
            profile=SourceDocument.from_json(value["profile"]),
            layers=tuple(SourceDocument.from_json(d) for d in layers),
            presets=SourceDocument.from_json(value["presets"]),
        )


def load(
    profile: str | CompiledProfile = "P03",
    preset: str | None = None,
    sandbox: SandboxMode | str | None = None,
    approval: ApprovalPolicy | str | None = None,
    policies: Sequence[PathLike] = (),
    presets: PathLike | None = None,
    workspace: PathLike = ".",
) -> ToolPolicy:
    """Load and compile a selection; raises ``PolicyLoadError`` or ``ConfigurationError``.

    ``profile`` is a built-in name (``P01``..``P03``), a built-in profile object, or the path
    of a ``Policy`` file (whose ``extends`` chain names the profile; P03 when it has none).
    ``policies`` are layered on top in order: their rules add up and deny still wins. A
    built-in layer is named instead of a path (``"read-only-commands"``).
    """
    with gc_paused():
        sources = gather_sources(profile, policies, presets)
        return assemble(
            sources, preset=preset, sandbox=sandbox, approval=approval, workspace=workspace
        )


class gc_paused:
    """No cyclic garbage collection while a selection is built: loading allocates hundreds
    of thousands of objects that all live on, and each collection would scan them again.
    (A class, not ``contextlib.contextmanager``: the hook does not import ``contextlib``.)"""

    __slots__ = ("_enabled",)

    def __enter__(self) -> None:
        self._enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self._enabled:
            gc.enable()


def gather_sources(
    profile: str | CompiledProfile = "P03",
    policies: Sequence[PathLike] = (),
    presets: PathLike | None = None,
) -> PolicySources:
    """Read and validate every document of a selection (this is where the loaders run).

    The policies of a large selection (:data:`BESIDE_BYTES`) are read in two halves at
    once: the second by a forked copy of this process, where one can be made
    (:class:`~toolpolicy.core.forked.Beside`). The documents, their order and any error
    are those of reading them one after another."""
    base, layers = _select_profile(profile)
    paths = [layer_path(path) for path in policies]
    half = _half(paths)
    if half is None:
        layers += _layers(paths, base)
    else:
        from ..core.forked import Beside  # a large selection only: not on the hook's way

        with Beside(lambda: _layers(paths[half:], base)) as rest:
            layers += _layers(paths[:half], base)
            layers += rest.result()
    return PolicySources(
        profile=builtin_profile_source(base.name),
        layers=tuple(layers),
        presets=_preset_source(presets),
    )


class CompiledSources(NamedTuple):
    """Sources compiled, before a workspace and knobs are chosen: what the hook's cache stores.

    ``profile`` is the built-in profile's document (the process adopts its singleton from
    it); ``documents`` are the paths of every document in use, from which each workspace's
    protected set is computed.
    """

    profile: SourceDocument
    compiled: CompiledPolicy
    presets: PresetTable
    documents: tuple[str, ...]
    layered: bool


def compile_sources(sources: PolicySources) -> CompiledSources:
    """Compile validated sources: rules, examples and the preset table (no workspace yet)."""
    base = adopt_builtin_source(sources.profile)
    try:
        with gc_paused():
            compiled = compile_policy(base, [sources.profile, *sources.layers])
    except PolicyLoadError as exc:
        from ..language import placed_in_files

        sha256 = {d.path: d.sha256 for d in sources.documents}
        raise PolicyLoadError(placed_in_files(exc.problems, sha256)) from None
    return CompiledSources(
        profile=sources.profile,
        compiled=compiled,
        presets=PresetTable.from_data(sources.presets.data, sources.presets.path),
        documents=tuple(d.path for d in sources.documents),
        layered=bool(sources.layers),
    )


def assemble(
    sources: PolicySources | CompiledSources,
    *,
    preset: str | None = None,
    sandbox: SandboxMode | str | None = None,
    approval: ApprovalPolicy | str | None = None,
    workspace: PathLike = ".",
    enforce_boundary: bool = False,
    resolve_links: bool = False,
) -> ToolPolicy:
    """Compile validated sources (unless given compiled) and set the knobs; no YAML,
    pydantic or jsonschema here.

    ``enforce_boundary`` installs the workspace boundary and the rules whatever the profile,
    resolves paths physically (symlinks followed) before deciding and reads every shell line
    for its files: the hook needs it, because there the agent's own tools run the call, not
    our handlers with their own path checks, nor our sandbox. Otherwise the engine decides
    on the path's text (``LexicalBoundary``) and the file tools enforce at the open;
    ``resolve_links`` resolves physically all the same (the ``diff`` probes a symlink
    escape on both sides).

    The protected set (``ProtectedSet``) is computed here, once per selection, from every
    document in use (profile, layers, preset table) that lies inside the workspace; the
    boundary participant, the file tools and the shell sandbox all keep it.
    """
    found = sources if isinstance(sources, CompiledSources) else compile_sources(sources)
    base = adopt_builtin_source(found.profile)
    # A compiled policy from the cache carries a copy of the profile: use the singleton.
    compiled = found.compiled._replace(profile=base)
    knobs = Knobs(found.presets)
    root = os.fspath(workspace)
    if not os.path.isdir(root):
        raise ConfigurationError(f"workspace is not a directory: {root}")
    physical = enforce_boundary or resolve_links
    boundary = WorkspaceBoundary(root) if physical else LexicalBoundary(root)
    enforces = enforce_boundary or base.capabilities.has("policy") or found.layered
    tools = ToolSnapshot(d for d in builtin_definitions() if d.name in base.tools)
    return ToolPolicy(
        compiled=compiled,
        presets=found.presets,
        knob_events=knobs.log.events,
        knobs=knobs.state,
        workspace=boundary.root,
        engine=DecisionEngine(
            compiled,
            boundary,
            enforces=enforces,
            protected=ProtectedSet.for_workspace(boundary.root, found.documents),
            every_line=enforce_boundary,
        ),
        tools=tools,
    ).with_knobs(preset, sandbox, approval)


def _select_profile(profile: str | CompiledProfile) -> tuple[CompiledProfile, list[SourceDocument]]:
    if isinstance(profile, CompiledProfile):
        return require_builtin(profile), []
    if profile.upper() in BUILTIN_PROFILE_NAMES:
        return builtin_profile(profile), []
    if not os.path.exists(profile):
        known = ", ".join(BUILTIN_PROFILE_NAMES)
        raise ConfigurationError(
            f"unknown profile: {profile} (built-in: {known}, or a policy file)"
        )
    return _chain(profile, None)


BESIDE_BYTES = 1 << 20
"""From this many bytes of policy files on (about 12,000 rules), a selection's policies are
read in two halves at once (measured on 100,000 rules in 20 files: 3.5 s one after another;
a half 1.8 s, and 0.2 s to send the documents of a half across)."""


def _half(paths: Sequence[PathLike]) -> int | None:
    """Where :data:`BESIDE_BYTES` or more of policy files split in two halves by size (the
    first paths up to there, the rest after); ``None`` for a smaller selection (a single
    file: none is looked at)."""
    if len(paths) < 2:
        return None
    sizes = []
    for path in paths:
        try:
            sizes.append(os.stat(path).st_size)
        except OSError:
            sizes.append(0)  # reading it reports the problem
    total = sum(sizes)
    if total < BESIDE_BYTES:
        return None
    seen = 0
    for index, size in enumerate(sizes):
        seen += size
        if 2 * seen >= total:
            return max(1, min(index + 1, len(paths) - 1))
    return len(paths) - 1  # pragma: no cover - the sizes add up to the total


def _layers(paths: Sequence[PathLike], base: CompiledProfile) -> list[SourceDocument]:
    """The documents of every policy at ``paths``, in order (see :func:`_policy_layers`)."""
    return [document for path in paths for document in _policy_layers(path, base)]


def _policy_layers(path: PathLike, base: CompiledProfile) -> list[SourceDocument]:
    found, layers = _chain(path, base)
    if found is not base:
        raise ConfigurationError(
            f"{os.fspath(path)} extends {found.name}, but the selected profile is {base.name}"
        )
    return layers


def _chain(
    path: PathLike, default: CompiledProfile | None
) -> tuple[CompiledProfile, list[SourceDocument]]:
    from ..language import load_policy_chain
    from .sources import to_source

    chain = list(load_policy_chain(path))
    base = default if default is not None else builtin_profile("P03")
    if chain and chain[0].kind == "Profile":
        head = chain.pop(0)
        name = str(getattr(head.model, "name", ""))
        # Only the shipped file is a profile; a look-alike (a copy with other rules under a
        # built-in name) is refused rather than silently replaced by the built-in.
        if name.upper() not in BUILTIN_PROFILE_NAMES or (
            head.sha256 != builtin_profile_source(name).sha256
        ):
            raise ConfigurationError(
                f"{head.path}: profiles are built in; write a Policy that extends one"
            )
        base = builtin_profile(name)
    for document in chain:
        if document.kind != "Policy":
            raise ConfigurationError(
                f"{document.path}: expected a Policy document, got {document.kind}"
            )
    return base, [to_source(d) for d in chain]


def _preset_source(presets: PathLike | None) -> SourceDocument:
    if presets is None:
        return builtin_preset_source()
    from ..language import load_document
    from .sources import to_source

    loaded = load_document(presets)
    if loaded.kind != "PresetTable":
        raise ConfigurationError(
            f"{loaded.path}: expected a PresetTable document, got {loaded.kind}"
        )
    source = to_source(loaded)
    PresetTable.from_data(source.data, source.path)  # refuse a bad table now, at load
    return source
