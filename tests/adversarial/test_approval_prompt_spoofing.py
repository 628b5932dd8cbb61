"""The approval prompt shows untrusted arguments: nothing in them may rewrite what a human sees.

JSON escapes C0 controls (ESC, CR, ...) already. Bidi controls (U+202E reverses the rest of
the line in many terminals) and C1 controls (U+009B is CSI on terminals that honour C1)
pass through ``json.dumps(ensure_ascii=False)`` raw.
"""

from __future__ import annotations

import io
import json

import pytest

from toolpolicy.core.protocols import ApprovalRequest
from toolpolicy.core.vocabulary import ApprovalOutcome
from toolpolicy.engine.terminal_approval import TerminalApproval


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _prompt(command: str) -> tuple[ApprovalOutcome, str]:
    shown = io.StringIO()
    request = ApprovalRequest(
        id="approval-1",
        call_id="c",
        session_id="s",
        tool="shell",
        reason="Shell execution requires approval",
        source="shell-default",
        # As Gate.decide builds it.
        arguments_json=json.dumps({"command": command}, ensure_ascii=False),
    )
    outcome = TerminalApproval(_Tty("n\n"), shown).respond(request)
    return outcome, shown.getvalue()


def test_escape_sequences_never_reach_the_terminal_raw() -> None:
    outcome, shown = _prompt("rm -rf ~ \x1b[2K\r echo safe")
    assert outcome is ApprovalOutcome.REJECTED
    assert "\x1b" not in shown and "\r" not in shown


@pytest.mark.parametrize(
    "character",
    [
        "\u202e",
        "\u2066",
        "\x9b",
    ],
)
def test_bidi_and_c1_controls_never_reach_the_terminal_raw(character: str) -> None:
    outcome, shown = _prompt(f"echo safe {character}fr- mr")
    assert outcome is ApprovalOutcome.REJECTED
    assert character not in shown
