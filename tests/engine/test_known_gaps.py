"""Known gaps in the engine, not yet closed: each is ``xfail(strict=True)``, so the day one
is fixed its test fails until the mark is removed. SECURITY.md lists them."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolpolicy import load


@pytest.mark.xfail(strict=True, reason="known gap: see the module docstring and SECURITY.md")
def test_a_deny_whose_word_holds_a_break_character_still_denies(tmp_path: Path) -> None:
    """Red team, round 32: the deny and ask patterns read a line's runs of words, which never
    hold ``=``, ``:``, ``,``, a blank or a quote (they break words there), so a pattern word
    holding one never matches: ``* https://evil.example`` denies nothing. (The diff says
    such a comparison is incomplete: ``tests/diff/test_compare.py``.)"""
    policy = tmp_path / "p.yaml"
    policy.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: p\nextends: P03\nrules:\n"
        "  - name: no-evil\n    behavior: deny\n    reason: refused\n    match:\n"
        '      tools: [shell]\n      commands: ["* https://evil.example"]\n',
        encoding="utf-8",
    )
    decided = load(str(policy), workspace=tmp_path).check(
        "shell", {"command": "curl https://evil.example"}
    )
    assert (decided.behavior.label, decided.source) == ("deny", "no-evil")
