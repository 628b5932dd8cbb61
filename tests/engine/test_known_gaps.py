"""Known gaps in the engine's reading of deny and ask command patterns, found from outside
(red team, round 32, second look) and not yet closed: each is ``xfail(strict=True)``, so the
day one is fixed its test fails until the mark is removed. SECURITY.md lists them. In each,
an ``allow`` of the program lets the line through that the deny was written for. (Closed in
round 32: a short option's value glued to it, ``tests/compile/test_command_patterns.py``.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from toolpolicy import load

GAPS = [
    # a single-dash long option is read as letters: the double-dash spelling misses
    pytest.param(
        "terraform apply -auto-approve", "terraform apply --auto-approve", id="single-dash-long"
    ),
    # the words follow in order: operands a program takes in any order, swapped
    pytest.param(
        "dd if=/dev/zero of=/dev/sda", "dd of=/dev/sda if=/dev/zero", id="swapped-operands"
    ),
    # ${VAR}/x is two words to the runs, $VAR/x one
    pytest.param("cat $HOME/.ssh/id_rsa", "cat ${HOME}/.ssh/id_rsa", id="braced-variable"),
]  # fmt: skip


@pytest.mark.xfail(strict=True, reason="known gap: see the module docstring and SECURITY.md")
@pytest.mark.parametrize(("pattern", "line"), GAPS)
def test_a_deny_hits_another_spelling_of_its_line(tmp_path: Path, pattern: str, line: str) -> None:
    program = pattern.split()[0]
    policy = tmp_path / "p.yaml"
    policy.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: p\nextends: P03\nrules:\n"
        f"  - name: no-x\n    behavior: deny\n    reason: refused\n    match:\n"
        f'      tools: [shell]\n      commands: ["{pattern}"]\n'
        f"  - name: any\n    behavior: allow\n    reason: ok\n    match:\n"
        f'      tools: [shell]\n      commands: ["{program} *"]\n',
        encoding="utf-8",
    )
    decided = load(str(policy), workspace=tmp_path).check("shell", {"command": line})
    assert (decided.behavior.label, decided.source) == ("deny", "no-x")
