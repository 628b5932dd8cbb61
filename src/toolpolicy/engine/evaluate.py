"""The decision before any human answers: participants, merge, defaults, the never policy.

``DecisionEngine.evaluate`` is the hot path. It touches only the rules indexed for the
call's tool (and path segment), imports nothing but core, compile output and the standard
library, and keeps every candidate for ``explain`` and the audit record. Under a lexical
boundary an evaluation made on the call's text alone is remembered by that text.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from ..compile.index import RuleView
from ..compile.policy import CompiledPolicy
from ..compile.rules import CallFacts, CompiledRule
from ..core.decision import Decision
from ..core.errors import WorkspacePathError
from ..core.lean_typing import TYPE_CHECKING, NamedTuple
from ..core.memo import remember
from ..core.vocabulary import ApprovalPolicy, Behavior, Effect, SandboxMode
from ..tools.protected import FIXED_PROTECTED, ProtectedSet
from ..tools.workspace import LexicalBoundary, WorkspaceBoundary, normalized_path
from .knobs import KnobState
from .participants import (
    boundary_candidate,
    escalation_candidate,
    protected_below,
    protected_write,
    rule_candidates,
    sandbox_candidate,
)
from .request import PermissionRequest

if TYPE_CHECKING:
    from ..compile.commands import CommandLine
    from ..core.protocols import PathBoundary
    from .shell_files import FileAccess, ShellSupport

__all__ = [
    "FOLDER_SOURCE",
    "READ_OUTSIDE",
    "WIDE_GLOB",
    "Candidate",
    "DecisionEngine",
    "Evaluation",
    "default_decision",
]

_PASSTHROUGH = Decision(
    Behavior.PASSTHROUGH, "No permission participant made a decision", "default"
)
_DEFAULTS = {
    (Effect.EXECUTE, Behavior.ASK): Decision(
        Behavior.ASK, "Shell execution requires approval", "shell-default"
    ),
    (Effect.EXECUTE, Behavior.ALLOW): Decision(
        Behavior.ALLOW, "No permission rule blocked the request", "default"
    ),
    (Effect.EXECUTE, Behavior.DENY): Decision(
        Behavior.DENY, "Execution is denied by the profile default", "shell-default"
    ),
}
for _effect in (Effect.READ, Effect.WRITE):
    _DEFAULTS[(_effect, Behavior.ALLOW)] = Decision(
        Behavior.ALLOW, "No permission rule blocked the request", "default"
    )
    _DEFAULTS[(_effect, Behavior.ASK)] = Decision(
        Behavior.ASK, f"The profile default asks before every {_effect.value}", "default"
    )
    _DEFAULTS[(_effect, Behavior.DENY)] = Decision(
        Behavior.DENY, f"The profile default denies every {_effect.value}", "default"
    )

BOUNDARY = "workspace-boundary"
SANDBOX = "sandbox"
ESCALATION = "sandbox-escalation"
RULES = "rules"
RECOMMENDATIONS = "recommendations"
_STATIC_LIMIT = 4096


READ_OUTSIDE = Decision(
    Behavior.ASK, "Reading outside the workspace requires approval", "workspace-boundary"
)
WIDE_GLOB = Decision(
    Behavior.ASK, "A glob names more files than the path rules can check", "workspace-boundary"
)
TOO_MANY_WORDS = Decision(
    Behavior.DENY,
    "A brace expansion makes more words than the protected set can be checked against",
    "workspace-boundary",
)
FOLDER_SOURCE = "search-scope"
"""The source of an ask for a folder a line may read whole (as for an agent's search)."""
_TOOL_EXECUTION = Decision(Behavior.ASK, "Tool execution requires approval", "shell-default")


def default_decision(tool: str, effect: Effect, behavior: Behavior) -> Decision:
    """The decision a profile default gives when every participant passed.

    The execute default keeps the seed's wording for the shell; another executing tool (an
    agent's MCP tool, say) is told it is a tool, not a shell, that needs approval.
    """
    if effect is Effect.EXECUTE and behavior is Behavior.ASK and tool != "shell":
        return _TOOL_EXECUTION
    return _DEFAULTS[(effect, behavior)]


_SHAPING_CHARS = frozenset("*?[{'\"\\$`")
"""Characters from which bash makes words other than the text's own: globs and braces
(``cp x .gi?/config``), quotes, escapes and expansions (``r\\m -rf .``)."""


class Candidate(NamedTuple):
    """One participant's say: a decision, or ``None`` for no opinion; ``rule`` for rules."""

    participant: str
    decision: Decision | None
    rule: str | None = None


# The participants that had no opinion, made once: most calls have two or three.
_NO_BOUNDARY = Candidate(BOUNDARY, None)
_NO_SANDBOX = Candidate(SANDBOX, None)
_NO_RULE = Candidate(RULES, None)

_AccessCandidates = tuple[tuple[Candidate, str | None], ...]
"""A shell file access's candidates, each with its rule's label."""


class _RulesSaid(NamedTuple):
    """The rules' and the named files' candidates for a call, the labels of the rules that
    matched, the paths they were matched on and the shell line as they read it."""

    candidates: tuple[Candidate, ...]
    matched: tuple[str, ...]
    paths: tuple[str, ...]
    command: CommandLine | None


class Evaluation(NamedTuple):
    """Everything about one decision before any human answers.

    ``merged`` is the strongest candidate (or passthrough); ``resolved`` applies the profile
    default to a passthrough; ``final`` applies the ``never`` approval policy. ``sandbox`` is
    the mode the call would run under (a requested escalation's, if it is approved).
    ``effective`` is ``final`` carrying that mode: what ``toolpolicy check`` prints (made
    once, with the evaluation: a remembered evaluation gives it to every call).
    ``paths`` are the workspace-relative paths the path rules were matched on (as written
    and resolved): an ask there was the human's to answer, an ask on any other path the
    tool finds at the open is not (see ``tools.opened``).
    ``command`` is the shell line as the rules read it (``None`` when no rule looks at it).
    """

    candidates: tuple[Candidate, ...]
    merged: Decision
    resolved: Decision
    final: Decision
    knobs: KnobState
    escalation: SandboxMode | None
    matched_rules: tuple[str, ...]
    effective: Decision
    paths: tuple[str, ...] = ()
    command: CommandLine | None = None

    @property
    def sandbox(self) -> SandboxMode:
        """The mode an allowed call runs under."""
        return self.effective.sandbox or self.knobs.sandbox


class DecisionEngine:
    """A compiled policy bound to a workspace boundary."""

    __slots__ = (
        "_accesses",
        "_boundary",
        "_by_text",
        "_disk",
        "_enforces",
        "_every_line",
        "_lexical",
        "_policy",
        "_protected",
        "_said",
        "_shell",
        "_static",
    )

    def __init__(
        self,
        policy: CompiledPolicy,
        boundary: PathBoundary,
        *,
        enforces: bool,
        protected: ProtectedSet = FIXED_PROTECTED,
        every_line: bool = False,
    ) -> None:
        self._policy = policy
        # Read every shell line for its files (the hook: ``_reads_line``).
        self._every_line = every_line
        self._boundary = boundary
        # The boundary a shell line's files are decided with: bash opens them, no check at
        # the open follows, so they are resolved on disk (``_disk_boundary``).
        self._disk: PathBoundary | None = (
            None if isinstance(boundary, LexicalBoundary) else boundary
        )
        self._enforces = enforces
        self._protected = protected
        self._lexical = isinstance(boundary, LexicalBoundary)
        # Evaluations that cannot depend on the arguments (no write, no escalation, no rule
        # that looks at paths or commands), by (tool, effect, knobs): a read is one lookup.
        self._static: dict[tuple[str, Effect, KnobState], Evaluation] = {}
        # Under a lexical boundary, evaluations by everything of a call that a participant
        # reads (tool, effect, path, command, escalation) and the knobs, when ``text_only``.
        self._by_text: dict[tuple[object, ...], Evaluation] = {}
        # After ``remember_arguments``: each shell file access's candidates, by the access;
        # and what the rules said about a call, by its tool, path, boundary target, command
        # and workspace.
        self._accesses: dict[FileAccess, _AccessCandidates] | None = None
        self._said: dict[tuple[object, ...], _RulesSaid] | None = None
        # The shell-line reader and file functions, bound on the first shell call.
        self._shell: ShellSupport | None = None

    @property
    def policy(self) -> CompiledPolicy:
        """The compiled policy."""
        return self._policy

    @property
    def workspace(self) -> str:
        """The real path of the workspace this engine decides for."""
        return self._boundary.root

    @property
    def protected(self) -> ProtectedSet:
        """What no write may touch, under every profile."""
        return self._protected

    @property
    def enforces_policy(self) -> bool:
        """True when the boundary and rule participants are installed."""
        return self._enforces

    def remember_arguments(self) -> None:
        """From now on, decide what the rules say about a call's arguments once per tool,
        path and command, and each file a shell line names once: for a caller that keeps
        the workspace and the home folder still while it decides many calls with the same
        arguments or naming the same files (the diff, in its own workspace, deciding each
        line plain and with each escalation). Every other caller decides them afresh: the
        disk may change between two calls."""
        if self._accesses is None:
            self._accesses = {}
            self._said = {}

    def evaluate(
        self,
        request: PermissionRequest,
        knobs: KnobState,
        recommendations: Sequence[Decision] = (),
    ) -> Evaluation:
        """Decide ``request`` under ``knobs`` without asking anyone."""
        definition = request.definition
        effect = definition.effect
        view = self._policy.rule_index.rules_for(definition.name) if self._enforces else None
        static = (
            not recommendations
            and effect is not Effect.WRITE
            and "sandbox_permissions" not in request.arguments
        )
        if static and effect is Effect.EXECUTE and view is not None:
            # A line the rules or the boundary read (``_reads_line``: a ``>``, the protected
            # set named, a glob) is decided on its words: never one answer for every line.
            static = not self._reads_line(request.arguments.get("command"), view)
        key = (definition.name, effect, knobs)
        if static:
            cached = self._static.get(key)
            if cached is not None:
                return cached
        text_key: tuple[object, ...] | None = None
        if self._lexical and not recommendations:
            arguments = request.arguments
            text_key = (
                definition.name,
                effect,
                request.path,
                arguments.get("command"),
                arguments.get("sandbox_permissions"),
                arguments.get("justification"),
                knobs,
            )
            cached = self._by_text.get(text_key)
            if cached is not None:
                return cached
        found = self._evaluate(request, knobs, recommendations, view)
        if static and (view is None or not (view.has_path_rules or view.has_command_rules)):
            remember(self._static, key, found, _STATIC_LIMIT)
        elif text_key is not None and self.text_only(request, found):
            remember(self._by_text, text_key, found, _STATIC_LIMIT)
        return found

    def text_only(self, request: PermissionRequest, evaluation: Evaluation) -> bool:
        """True when ``evaluation`` depended on nothing but the call's text and the knobs
        (so it may be remembered by them): no file system (a physical boundary, a glob the
        shell would expand) and no environment (``~``, the home folder of absolute rules)."""
        if not self._lexical:
            return False
        path = request.path
        if path is not None and path.startswith("/"):
            return False
        tool = request.definition.name
        if path is not None and self._enforces:
            outside = self._policy.rule_index.rules_for(tool).has_outside_paths
            if outside:
                return False
        command = evaluation.command
        if command is None:
            return True
        if command.written or command.maybe_written or command.written_below:
            return False  # its written files were decided on disk
        plain = command.plain
        # A line that names files had them decided on disk: a read is resolved through its
        # symlinks, a glob is expanded, ``~`` and home rules read $HOME.
        return plain is None or not (plain.arguments or plain.redirects)

    def _evaluate(
        self,
        request: PermissionRequest,
        knobs: KnobState,
        recommendations: Sequence[Decision],
        view: RuleView | None,
    ) -> Evaluation:
        definition = request.definition
        effect = definition.effect
        candidates: list[Candidate] = []
        matched: list[str] = []
        strongest = _PASSTHROUGH
        target: str | None = None
        # Every profile keeps the protected set; the confinement to the workspace comes
        # with the policy capability (P01/P02 rely on the handler's own path check).
        found, target = boundary_candidate(
            request, self._boundary, self._protected, confine=self._enforces
        )
        if self._enforces or found is not None:
            candidates.append(_NO_BOUNDARY if found is None else Candidate(BOUNDARY, found))
        if found is not None:
            strongest = found
        escalation: SandboxMode | None = None
        asked: Decision | None = None
        if "sandbox_permissions" in request.arguments:
            asked, escalation = escalation_candidate(request, knobs.sandbox)
        sandboxed = sandbox_candidate(request, knobs.sandbox, escalation is not None)
        candidates.append(_NO_SANDBOX if sandboxed is None else Candidate(SANDBOX, sandboxed))
        if sandboxed is not None and sandboxed.behavior > strongest.behavior:
            strongest = sandboxed
        if asked is not None:
            candidates.append(Candidate(ESCALATION, asked))
            if asked.behavior > strongest.behavior:
                strongest = asked
        paths: tuple[str, ...] = ()
        command: CommandLine | None = None
        if view is not None:
            said = self._rules_said(request, view, target)
            candidates.extend(said.candidates)
            matched.extend(said.matched)
            paths, command = said.paths, said.command
            for candidate in said.candidates:
                if candidate.decision is not None and (
                    candidate.decision.behavior > strongest.behavior
                ):
                    strongest = candidate.decision
        for recommendation in recommendations:
            candidates.append(Candidate(RECOMMENDATIONS, recommendation))
            if recommendation.behavior > strongest.behavior:
                strongest = recommendation
        resolved = strongest
        if strongest.behavior is Behavior.PASSTHROUGH:
            resolved = default_decision(
                definition.name, effect, self._policy.profile.defaults[effect]
            )
        final = resolved
        if resolved.behavior is Behavior.ASK and knobs.approval is ApprovalPolicy.NEVER:
            final = resolved.never_approved()
        sandbox = knobs.sandbox
        if escalation is not None and final.behavior is not Behavior.DENY:
            sandbox = escalation
        # ``final`` was validated when it was made; only the mode changes.
        effective = Decision._make((final.behavior, final.reason, final.source, sandbox))
        return Evaluation(
            tuple(candidates),
            strongest,
            resolved,
            final,
            knobs,
            escalation,
            tuple(matched),
            effective,
            paths,
            command,
        )

    def _rules_said(
        self, request: PermissionRequest, view: RuleView, target: str | None
    ) -> _RulesSaid:
        """What the rules say about ``request`` (``target``: where the boundary resolved
        its path), and the files its plain shell line names; remembered by the call's
        arguments after ``remember_arguments``."""
        key: tuple[object, ...] | None = None
        if self._said is not None:
            key = (
                request.definition.name,
                request.path,
                target,
                request.arguments.get("command"),
                request.context.workspace,
                request.context.cwd,
            )
            known = self._said.get(key)
            if known is not None:
                return known
        candidates: list[Candidate] = []
        matched: list[str] = []
        command = self._command(request, view)
        hits, paths = self._rule_hits(request, view, target, command)
        if not hits:
            candidates.append(_NO_RULE)
        for rule, decision in hits:
            candidates.append(Candidate(RULES, decision, rule.name))
            matched.append(rule.label)
        if command is not None and (
            command.plain is not None or command.written or command.maybe_written
        ):
            for candidate, label in self._file_candidates(command, request):
                candidates.append(candidate)
                if label is not None:
                    matched.append(label)
        said = _RulesSaid(tuple(candidates), tuple(matched), paths, command)
        if self._said is not None and key is not None:
            self._said[key] = said
        return said

    def _rule_hits(
        self,
        request: PermissionRequest,
        bucket: RuleView,
        resolved: str | None,
        command: CommandLine | None,
    ) -> tuple[list[tuple[CompiledRule, Decision]], tuple[str, ...]]:
        """The matching rules, and the paths they were matched on; ``command`` is the
        shell line as ``_command`` read it for ``bucket`` (``None`` for a file access)."""
        if bucket.empty:
            return [], ()
        facts = self._facts(request, bucket, resolved, command)
        path, target = facts.path, facts.target
        if path is None:
            paths: tuple[str, ...] = () if target is None else (target,)
        else:
            paths = (path,) if target is None or target == path else (path, target)
        return rule_candidates(bucket.candidates(facts), facts), paths

    def _facts(
        self,
        request: PermissionRequest,
        bucket: RuleView,
        resolved: str | None,
        command: CommandLine | None,
    ) -> CallFacts:
        """Only what the bucket's rules can look at: paths and commands cost, names do not.

        ``resolved`` is the target the boundary already resolved for a write, if any.
        """
        path: str | None = None
        target: str | None = None
        absolute: tuple[str, ...] = ()
        raw_path = request.path
        if bucket.has_path_rules and raw_path is not None:
            path, target, absolute = self._path_facts(raw_path, resolved, bucket.has_outside_paths)
        definition = request.definition
        home = os.path.expanduser("~") if absolute else ""
        return CallFacts(definition.name, definition.effect, path, target, command, absolute, home)

    def _path_facts(
        self, raw_path: str, resolved: str | None, outside_rules: bool
    ) -> tuple[str | None, str | None, tuple[str, ...]]:
        """``(path, target, absolute)`` for ``CallFacts``.

        A relative path gets the same normalization the file tools use: a rule sees the path
        the handler would open, whatever separators or dots the model wrote. An absolute path
        is resolved as the boundary resolves paths (its text in-process, where the handler
        enforces at the open; the disk for the hook); where it lands inside the workspace,
        workspace rules see it too. ``resolved``, when given, is where the path was already
        resolved to (workspace-relative): the boundary's target for a write, the disk's for
        a file a shell line reads.
        """
        boundary = self._boundary
        root = boundary.root
        if raw_path.startswith("/"):
            lexical = "/" + os.path.normpath(raw_path).lstrip("/")
            if resolved is None:
                real = boundary.absolute_target(raw_path)
            else:
                real = os.path.join(root, resolved) if resolved else root
            target = _inside(root, real)
            path = _inside(root, lexical)
            return (path if path is not None else target), target, _spellings(lexical, real)
        try:
            path = normalized_path(raw_path)
        except WorkspacePathError:
            return None, None, ()
        if resolved is not None:
            target = resolved  # where the boundary (or a shell file's disk walk) resolved it
        elif self._lexical:
            target = path  # the text is all a lexical boundary reads
        else:
            try:
                target = boundary.target_relative(raw_path)
            except Exception:
                target = None
        if not outside_rules:
            return path, target, ()
        lexical = os.path.join(root, path) if path else root
        if target is not None:
            real = os.path.join(root, target) if target else root
        else:
            real = boundary.absolute_target(os.path.join(root, raw_path))
        return path, target, _spellings(lexical, real)

    def _command(self, request: PermissionRequest, bucket: RuleView) -> CommandLine | None:
        """The shell line as the rules read it, when some rule looks at commands or at the
        files a plain line names (:func:`~toolpolicy.engine.shell_files.files_ruled`), or
        when it may write a file (a ``>``) or names the protected set (``cp x .git/config``),
        maybe through a glob or a brace expansion (``cp x .gi?/config``): the boundary and
        the protected set decide every written file, with or without rules."""
        if request.definition.effect is not Effect.EXECUTE:
            return None
        text = request.arguments.get("command")
        if not isinstance(text, str) or not self._reads_line(text, bucket):
            return None
        return (self._shell or self._bind_shell()).split(text)

    def _reads_line(self, text: object, bucket: RuleView) -> bool:
        """Whether the shell line ``text`` is read (``_command``), so that its decision
        depends on its words: the one test both for reading it and for answering it from
        the memo of decisions that cannot depend on the arguments (``evaluate``).

        With ``every_line`` (the hook, whose agent runs the line with no sandbox of ours)
        every line is read: a link planted earlier can lead any word into the protected set
        (``tee g/config < x`` with ``g -> .git``). Otherwise (``check``, the gate, whose
        ``toolpolicy run`` sandbox keeps the protected set read-only whatever a human
        approves, and the diff, which reports ``check``'s decisions), without rules that
        look at it, a line is read when it may write a file (a ``>``), names the protected
        set, holds a glob or brace character or names a program that writes below its
        folders: tests on the text, which spells the words bash makes only when nothing in
        it is quoted, escaped or expanded. So a line with a quote, a backslash, a ``$`` or
        a backquote is read too (``r\\m -rf .``: ``_SHAPING_CHARS``)."""
        if not isinstance(text, str):
            return False
        shell = self._shell or self._bind_shell()
        return (
            self._every_line
            or shell.files_ruled
            or bucket.has_command_rules
            or ">" in text
            or not _SHAPING_CHARS.isdisjoint(text)
            or self._protected.named_in(text)
            or any(name in text for name in shell.below_hints)
        )

    def _bind_shell(self) -> ShellSupport:
        from .shell_files import shell_support  # shell calls only

        self._shell = shell_support(self._policy.rule_index)
        return self._shell

    def _file_candidates(
        self, command: CommandLine, shell: PermissionRequest
    ) -> list[tuple[Candidate, str | None]]:
        """The files a line touches, decided as the file accesses they are: the boundary
        (writes), reads outside the workspace (ask), and the deny and ask path rules of
        ``write_file``/``read_file``. Each with its rule's label. A plain line's
        redirections and path arguments, then the files the literal redirections of the
        line write beyond those (``CommandLine.written``), then what its programs may write
        through their arguments (``CommandLine.maybe_written``: the protected set and the
        write rules decide those; one outside the workspace is left to its read)."""
        found: list[tuple[Candidate, str | None]] = []
        if command.too_many_words:
            found.append((Candidate(BOUNDARY, TOO_MANY_WORDS), None))
        plain = command.plain
        if plain is not None and not (
            plain.redirects or plain.arguments or command.written or command.written_below
        ):
            return found
        support = self._shell or self._bind_shell()
        context = shell.context
        folder = os.path.join(context.workspace, context.cwd)
        # Its own files first (each argument also as the write its program may make), then
        # the scanned targets, then, in a line that is not plain, every word as a possible
        # write: the first candidate of the strongest behavior decides.
        accesses = [*support.accesses(plain, folder)] if plain is not None else []
        accesses += support.written(command.written, folder)
        accesses += support.named(command.maybe_written, folder)
        accesses += support.below(command.written_below, folder)
        # Globs expand in the folder the line runs in; a memo serves the workspace root only.
        memo = None if context.cwd else self._accesses
        targets: dict[str, str | None] = {}  # each path resolved once: its read, its write
        for access in accesses:
            if memo is None:
                found.extend(self._access_candidates(access, shell, support, targets))
                continue
            # a file read is decided alike as a redirection's target and as an argument
            read = access.redirect and access.effect is Effect.READ
            key = access._replace(redirect=False) if read else access
            known = memo.get(key)
            if known is None:
                known = self._access_candidates(access, shell, support, targets)
                memo[key] = known
            found.extend(known)
        return found

    def _access_candidates(
        self,
        access: FileAccess,
        shell: PermissionRequest,
        support: ShellSupport,
        targets: dict[str, str | None],
    ) -> _AccessCandidates:
        """One file access of a plain line, decided; each candidate with its rule's label."""
        if access.unchecked:
            return ((Candidate(BOUNDARY, WIDE_GLOB), None),)
        index = self._policy.rule_index
        file = support.request(access, shell.context)
        found: list[tuple[Candidate, str | None]] = []
        resolved: str | None = None
        if access.effect is Effect.WRITE and not access.redirect:
            resolved = self._target(file, support, targets)
            if resolved is None and access.below and access.whole:
                # a folder outside that holds the workspace holds everything in it
                resolved = "" if self._holds_workspace(file.path or "", support) else None
            return self._argument_write(file, resolved, access.below, access.whole)
        if access.effect is Effect.WRITE:
            denied, resolved = boundary_candidate(file, self._disk_boundary(), self._protected)
            if denied is not None:
                return ((Candidate(BOUNDARY, denied), None),)
            view = index.rules_for("write_file")
        else:
            resolved = self._target(file, support, targets)
            if resolved is None:
                found.append((Candidate(BOUNDARY, READ_OUTSIDE), None))
            view = index.rules_for("read_file")
        if view.has_path_rules:
            for rule, decision in self._rule_hits(file, view, resolved, None)[0]:
                if rule.paths is not None and decision.behavior >= Behavior.ASK:
                    found.append((Candidate(RULES, decision, rule.name), rule.label))
            if (
                access.effect is Effect.READ
                and not access.listed
                and resolved is not None
                and not found
            ):
                found.extend(self._folder_candidates(file, resolved, view, support))
        return tuple(found)

    def _target(
        self, file: PermissionRequest, support: ShellSupport, targets: dict[str, str | None]
    ) -> str | None:
        """``_read_target`` of ``file``'s path, walked once per line (``targets``) for the
        read of an argument and the write its program may make."""
        path = file.path or ""
        if path not in targets:
            targets[path] = self._read_target(path, support.real_path)
        return targets[path]

    def _argument_write(
        self, file: PermissionRequest, resolved: str | None, below: bool, whole: bool
    ) -> _AccessCandidates:
        """A file a program may write through an argument: the protected set decides it as
        written and as ``resolved``, the file it resolves to on disk now (the walk its read
        makes), and so do the write path rules; one outside the workspace is left to its
        read (which asks: the argument may be only a source). A folder its program may write
        anything below (``below``) is refused when it holds an entry of the protected set,
        the workspace itself (or a folder outside that holds it, ``rm -rf ..``) only when
        ``whole``; a destination that is not ``whole`` and is a folder now
        is copied or moved into, not replaced (``cp -r tpl .claude`` makes
        ``.claude/tpl``), and counts as the write of its name alone."""
        if resolved is None:
            return ()
        if below and not whole and os.path.isdir(os.path.join(self._boundary.root, resolved)):
            below = False
        path = file.path or ""
        try:
            written: str | None = normalized_path(path)
        except WorkspacePathError:
            written = None  # absolute or leaving as written: the resolved file tells
        for candidate in dict.fromkeys((written, resolved)):
            if candidate is None or (candidate == "" and not (below and whole)):
                continue
            protected = protected_below if below else protected_write
            denied = protected(self._protected, candidate)
            if denied is not None:
                return ((Candidate(BOUNDARY, denied), None),)
        view = self._policy.rule_index.rules_for("write_file")
        if not view.has_path_rules:
            return ()
        return tuple(
            (Candidate(RULES, decision, rule.name), rule.label)
            for rule, decision in self._rule_hits(file, view, resolved, None)[0]
            if rule.paths is not None and decision.behavior >= Behavior.ASK
        )

    def _holds_workspace(self, path: str, support: ShellSupport) -> bool:
        """Whether the folder a line names as ``path`` is, on disk now, a folder above the
        workspace."""
        root = self._boundary.root
        try:
            folder = support.real_path(self._on_disk(path), root).rstrip("/")
        except (OSError, ValueError):
            return False
        return root.startswith(f"{folder}/")

    def _folder_candidates(
        self,
        file: PermissionRequest,
        resolved: str,
        view: RuleView,
        support: ShellSupport,
    ) -> list[tuple[Candidate, str | None]]:
        """A folder a line reads (``grep -r x src``) may be read whole: when a read path
        rule closes (denies or asks for) a file below it, the line asks, naming one; a folder
        too large to walk asks too. Which programs read a folder's files and which only list
        it is the program's to say, so every folder argument is taken as read whole, and a
        link below it as followed (``grep -R``, ``tar -h``): one that leads out of the
        workspace asks, one to a file meets the rules as that file, one to a folder is
        walked too."""
        from .folder_walk import MAX_FOLDER_ENTRIES, FolderTooLarge

        shown = file.path
        try:
            found = self._closed_below(file, resolved, view, support, set())
        except FolderTooLarge:
            reason = (
                f"The line reads {shown}, which holds more than {MAX_FOLDER_ENTRIES} entries "
                "to check against the path rules"
            )
            return [(Candidate(BOUNDARY, Decision(Behavior.ASK, reason, FOLDER_SOURCE)), None)]
        if found is None:
            return []
        below, why, rule = found
        asked = Decision(
            Behavior.ASK, f"The line reads {shown}, which holds {below}{why}", FOLDER_SOURCE
        )
        if rule is None:
            return [(Candidate(BOUNDARY, asked), None)]
        return [(Candidate(RULES, asked, rule.name), rule.label)]

    def _closed_below(
        self,
        file: PermissionRequest,
        resolved: str,
        view: RuleView,
        support: ShellSupport,
        walked: set[str],
    ) -> tuple[str, str, CompiledRule | None] | None:
        """The first file below the folder ``resolved`` (workspace-relative, real) that a
        read rule closes or that a link below leads out of the workspace to: ``(the file
        as shown, why, the rule)``; ``None``: none."""
        root = self._boundary.root
        folder = os.path.join(root, resolved) if resolved else root
        if resolved in walked or not os.path.isdir(folder):
            return None
        walked.add(resolved)
        from .folder_walk import files_below, git_closer
        from .shell_files import FileAccess

        context = file.context._replace(cwd="")
        linked: list[tuple[str, str]] = []  # folders links lead to, walked after the rest
        closer = git_closer(view.path_rules, resolved, folder)
        for below, link in files_below(folder, closer):
            path = f"{resolved}/{below}" if resolved else below
            target: str | None = path
            if link:
                target = self._read_target(path, support.real_path)
                if target is None:
                    return below, ", a link out of the workspace", None
                linked.append((below, target))
            inner = support.request(FileAccess(Effect.READ, path, False), context)
            for rule, decision in self._rule_hits(inner, view, target, None)[0]:
                if rule.paths is not None and decision.behavior >= Behavior.ASK:
                    return below, f", closed by rule {rule.name}: {decision.reason}", rule
        for below, target in linked:
            inside = self._closed_below(file, target, view, support, walked)
            if inside is not None:
                return f"{below}/{inside[0]}", inside[1], inside[2]
        return None

    def _read_target(self, path: str, real_path: Callable[[str, str], str]) -> str | None:
        """The workspace-relative real path of a file a line reads, ``None`` when it is
        outside the workspace: as written (absolute, ``~``, ``..``) or through a symlink on
        disk now. Bash, not a file tool, opens the file, so no check at the open follows
        this decision: the path is resolved here (``real_path``: ``os.path.realpath``, see
        ``tools.real_path``), and the path rules see the file it resolves to as well as the
        path as written."""
        root = self._boundary.root
        full = self._on_disk(path)
        if os.path.normpath(full).startswith(_PROCESS_PATHS):
            return None  # bash's own /proc/self (its folder, its descriptors), not ours
        try:
            return _inside(root, real_path(full, root))
        except (OSError, ValueError):
            return None

    def _on_disk(self, path: str) -> str:
        """The absolute spelling of a path a shell line names: ``os.path.join(root, path)``,
        but for the root ``/``, whose ``//x`` has the same real path."""
        return path if path.startswith("/") else f"{self._boundary.root}/{path}"

    def _disk_boundary(self) -> PathBoundary:
        """The boundary that resolves a shell line's written files through their symlinks
        (the engine's own under a physical boundary; one on the same root otherwise)."""
        if self._disk is None:
            self._disk = WorkspaceBoundary(self._boundary.root)
        return self._disk


_PROCESS_PATHS = ("/proc/", "/dev/fd/", "//proc/", "//dev/fd/")
"""Paths that name the state of the process opening them: resolved here they would name
ours, so a file a line reads there counts as outside the workspace."""


def _inside(root: str, path: str) -> str | None:
    """``path`` relative to ``root`` as a POSIX string (``""`` for the root), else ``None``."""
    if path == root:
        return ""
    prefix = root if root.endswith("/") else root + "/"
    return path[len(prefix) :] if path.startswith(prefix) else None


def _spellings(lexical: str, real: str) -> tuple[str, ...]:
    return (lexical,) if lexical == real else (lexical, real)
