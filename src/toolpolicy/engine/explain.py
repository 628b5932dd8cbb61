"""``explain``: the steps of one decision, as the seed walks its calls A, B and C."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..compile.commands import CommandLine
from ..compile.rules import CompiledRule
from ..core.decision import Decision
from ..core.vocabulary import Behavior
from .evaluate import BOUNDARY, Evaluation
from .shell_files import file_accesses

__all__ = ["Explanation", "Step", "explain"]


@dataclass(frozen=True, slots=True)
class Step:
    """One line of an explanation."""

    step: str
    detail: str
    decision: Decision | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"step", "detail", "behavior", "source", "reason"}``."""
        out: dict[str, Any] = {"step": self.step, "detail": self.detail}
        if self.decision is not None:
            out.update(self.decision.to_json())
        return out


@dataclass(frozen=True, slots=True)
class Explanation:
    """The steps and the effective decision."""

    tool: str
    steps: tuple[Step, ...]
    decision: Decision

    def to_json(self) -> dict[str, Any]:
        """``{"steps": [...], "decision": {...}}``."""
        return {
            "tool": self.tool,
            "steps": [s.to_json() for s in self.steps],
            "decision": self.decision.to_json(),
        }

    def lines(self) -> list[str]:
        """Numbered text lines."""
        width = max(len(s.step) for s in self.steps)
        return [f"{i:>2}. {s.step:<{width}}  {s.detail}" for i, s in enumerate(self.steps, 1)]


def _says(decision: Decision | None) -> str:
    if decision is None:
        return "no opinion"
    return f"{decision.behavior.label} ({decision.source}) - {decision.reason}"


def _shell_steps(command: CommandLine, rules: Sequence[CompiledRule]) -> list[Step]:
    """The split of a shell line: each command and the allow that covers it (or why none
    can), each deny or ask that hit and where, and the files the line touches."""
    steps: list[Step] = []
    command_rules = [r for r in rules if r.commands is not None]
    allows = [r for r in command_rules if r.behavior is Behavior.ALLOW]
    plain = command.plain
    if plain is None:
        why = command.not_plain.reason if command.not_plain is not None else "unreadable"
        steps.append(Step("shell line", f"not plain: {why}"))
    else:
        steps.append(Step("shell line", f"plain: {len(plain.commands)} command(s)"))
        for number, found in enumerate(plain.commands, 1):
            covering = next(
                (
                    (rule, pattern)
                    for rule in allows
                    for pattern in rule.commands or ()
                    if pattern.covers(found)
                ),
                None,
            )
            shown = " ".join(found.words)
            if covering is None:
                detail = f"{shown} - no allow rule covers it"
            else:
                detail = f"{shown} - allowed by {covering[0].name} ({covering[1].text!r})"
            steps.append(Step(f"command {number}", detail))
        for access in file_accesses(plain):
            if access.redirect:
                steps.append(
                    Step("file access", f"{access.describe()} is a {access.effect.value}, "
                         "decided by the workspace boundary and the path rules")
                )  # fmt: skip
        if plain.arguments:
            named = ", ".join(repr(path) for path in plain.arguments)
            steps.append(
                Step("file arguments", f"{named} may each be a file the line reads: the read "
                     "path rules decide them, and one that leaves the workspace, as written "
                     "or through a symlink, asks")
            )  # fmt: skip
    for rule in command_rules:
        if rule.behavior is Behavior.ALLOW:
            continue
        for pattern in rule.commands or ():
            run = next((r for r in command.runs if pattern.occurs_in(r)), None)
            if run is not None:
                steps.append(
                    Step(
                        f"{rule.behavior.label} hit",
                        f"{rule.name}: {pattern.text!r} occurs in the words "
                        f"{' '.join(run)!r} (a {rule.behavior.label} looks at every word of the "
                        "line, quoted strings too, so a mere mention also hits)",
                    )
                )
                break
    return steps


def explain(
    tool: str,
    evaluation: Evaluation,
    enforces_policy: bool,
    rules: Sequence[CompiledRule] = (),
) -> Explanation:
    """Walk the participants, the merge, the resolution, approval, audit and the handler.

    ``rules`` (the policy's compiled rules) let a shell call show its split: which command
    each rule hit, and why an allow could not apply.
    """
    steps: list[Step] = []
    if not enforces_policy:
        steps.append(
            Step(
                BOUNDARY,
                "not installed: the profile has no policy capability "
                "(the file handler's own path check refuses escapes with path_escape)",
            )
        )
    rules_seen = False
    for candidate in evaluation.candidates:
        if candidate.participant == "rules":
            rules_seen = True
            if candidate.decision is None:
                steps.append(Step("rules", "no rule matched"))
            else:
                steps.append(
                    Step(f"rule {candidate.rule}", _says(candidate.decision), candidate.decision)
                )
            continue
        steps.append(Step(candidate.participant, _says(candidate.decision), candidate.decision))
    if not rules_seen and not enforces_policy:
        steps.append(Step("rules", "not installed: the profile has no policy capability"))
    if evaluation.command is not None:
        steps.extend(_shell_steps(evaluation.command, rules))
    merged = evaluation.merged
    if merged.behavior is Behavior.PASSTHROUGH:
        steps.append(Step("merge", "no candidate: passthrough"))
        steps.append(
            Step(
                "resolve",
                f"passthrough -> profile default: {_says(evaluation.resolved)}",
                evaluation.resolved,
            )
        )
    else:
        steps.append(Step("merge", f"strongest is {_says(merged)}", merged))
    effective = evaluation.effective
    knobs = evaluation.knobs
    resolved = evaluation.resolved
    if resolved.behavior is Behavior.ASK and effective.behavior is Behavior.DENY:
        approval = "not asked: the approval policy is never, so the call is rejected"
    elif resolved.behavior is Behavior.ASK:
        approval = (
            "would be asked (approval policy ask); only allowed-once (or allowed-session, "
            "for this exact call) runs the call, anything else denies it"
        )
    elif resolved.behavior is Behavior.DENY:
        approval = "not asked: the call is denied, no one sees a prompt"
    else:
        approval = "not needed"
    steps.append(Step("approval", approval))
    steps.append(
        Step(
            "audit",
            f"[Permission] {tool}: {effective.behavior.label} ({effective.source}) "
            f"- {effective.reason}",
        )
    )
    if effective.behavior is Behavior.ALLOW:
        handler = f"runs (sandbox {(effective.sandbox or knobs.sandbox).value})"
        result = "the handler's result"
    elif effective.behavior is Behavior.ASK:
        handler = "runs only after an allowed-once or allowed-session answer"
        result = (
            "the handler's result if approved; otherwise "
            "Error [permission_denied]: User denied this tool call"
        )
    else:
        handler = "does not run"
        result = effective.to_tool_result().content
    steps.append(Step("handler", handler))
    steps.append(Step("tool result", result))
    return Explanation(tool=tool, steps=tuple(steps), decision=effective)
