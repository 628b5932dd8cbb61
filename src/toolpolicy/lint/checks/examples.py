"""``example-failed``: every ``examples`` entry is decided by the engine and must come out
as the file says.

Each example's call is decided under its ``preset`` (the table's default when none) in an
empty temporary workspace, exactly as ``toolpolicy check`` would decide it, asking no one.
A different behavior, a different ``source``, an unknown preset, or a call the tool
registry rejects (unknown tool, bad arguments) is an error at the example's line, showing
what was expected and what the engine decided.

FAIL::

    rules:
      - name: no-env
        behavior: deny
        reason: Secrets stay private
        match: {paths: [".env"]}
    examples:
      - call: {tool: read_file, arguments: {path: .env}}
        expect: allow                    # the engine denies it (no-env)

PASS::

    examples:
      - call: {tool: read_file, arguments: {path: .env}}
        expect: {behavior: deny, source: no-env}
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from ...compile.policy import CompiledExample
from ...core.decision import Decision
from ...core.errors import CallRejected
from ..context import LintFile
from ..finding import Hit, Severity
from ..rules import same_file

__all__ = ["CODE", "SEVERITY", "check"]

CODE = "example-failed"
SEVERITY = Severity.ERROR


def check(target: LintFile) -> Iterator[Hit]:
    """One error per example of this file whose decision differs from its expectation."""
    if target.policy is None or target.document is None:
        return
    own = [e for e in target.policy.compiled.examples if same_file(e.path, target.path)]
    for index, example in enumerate(own):
        line, column = target.document.position(f"/examples/{index}")
        message = _verdict(target, example)
        if message is not None:
            yield Hit(line, column, f"example {_call(example)}: {message}")


def _verdict(target: LintFile, example: CompiledExample) -> str | None:
    policy = target.under_preset(example.preset)
    if isinstance(policy, str):
        return f"cannot use preset {example.preset!r}: {policy}"
    try:
        decision = policy.evaluate(example.tool, example.arguments).effective
    except CallRejected as exc:
        return f"expected {_expected(example)}, but the call is rejected ({exc.code}): {exc}"
    same_source = example.source is None or example.source == decision.source
    if decision.behavior is example.behavior and same_source:
        return None
    return f"expected {_expected(example)}, got {_actual(decision)}"


def _expected(example: CompiledExample) -> str:
    behavior = example.behavior.label
    return behavior if example.source is None else f"{behavior} from {example.source}"


def _actual(decision: Decision) -> str:
    return f"{decision.behavior.label} from {decision.source} ({decision.reason})"


def _call(example: CompiledExample) -> str:
    arguments = json.dumps(dict(example.arguments), ensure_ascii=False, sort_keys=True)
    if len(arguments) > 200:
        arguments = arguments[:197] + "..."
    return f"{example.tool} {arguments}"
