"""Export to a Gemini CLI policy TOML file, read back the way Gemini CLI reads it.

``commandPrefix`` becomes a pattern over the arguments' JSON as in google-gemini/gemini-cli
``packages/core/src/policy/utils.ts`` (``buildArgsPatterns``): the JSON text of
``"command":"PREFIX`` followed by whitespace, a quote or an escaped quote; the matching rule
with the highest priority decides.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from toolpolicy.interop import export_policy

from .conftest import load

_SHELL = "run_shell_command"


def gemini_decision(rules: list[dict[str, Any]], tool: str, args: dict[str, str]) -> str | None:
    """The decision of the highest-priority rule matching a call, as Gemini CLI finds it."""
    stable = json.dumps(args, separators=(",", ":"), sort_keys=True)
    best: tuple[int, str] | None = None
    for rule in rules:
        names = rule["toolName"] if isinstance(rule["toolName"], list) else [rule["toolName"]]
        if "mcpName" in rule:
            names = [f"mcp_{rule['mcpName']}_{n}" for n in names]
        if tool not in names and not any(
            n.endswith("*") and tool.startswith(n[:-1]) for n in names
        ):
            continue
        prefixes = rule.get("commandPrefix")
        if prefixes is not None:
            prefixes = prefixes if isinstance(prefixes, list) else [prefixes]
            patterns = [
                re.escape('"command":' + json.dumps(p)[:-1]) + r'(?:[\s"]|\\")' for p in prefixes
            ]
            if not any(re.search(p, stable) for p in patterns):
                continue
        if best is None or rule["priority"] > best[0]:
            best = (rule["priority"], rule["decision"])
    return None if best is None else best[1]


def _rules(team: Path) -> list[dict[str, Any]]:
    rules: list[dict[str, Any]] = tomllib.loads(export_policy(load(team), "gemini-policy").text)[
        "rule"
    ]
    return rules


def test_the_team_policy_becomes_rule_tables(team: Path) -> None:
    assert _rules(team) == [
        {"toolName": ["write_file", "replace"], "decision": "ask_user", "priority": 200},
        {
            "toolName": _SHELL,
            "commandPrefix": ["git push", "npm publish"],
            "decision": "ask_user",
            "priority": 200,
        },
        {
            "toolName": _SHELL,
            "commandPrefix": ["pytest", "git status"],
            "decision": "allow",
            "priority": 100,
        },
        {"toolName": "WebFetch", "decision": "allow", "priority": 100},
        {"mcpName": "search", "toolName": "*", "decision": "allow", "priority": 100},
        {"mcpName": "github", "toolName": "get_issue", "decision": "allow", "priority": 100},
    ]


def test_gemini_decides_the_exported_commands_as_toolpolicy_does(team: Path) -> None:
    rules = _rules(team)
    assert gemini_decision(rules, _SHELL, {"command": "git push origin main"}) == "ask_user"
    assert gemini_decision(rules, _SHELL, {"command": "git status"}) == "allow"
    assert gemini_decision(rules, _SHELL, {"command": "pytest -q"}) == "allow"
    assert gemini_decision(rules, _SHELL, {"command": "pytestx"}) is None
    assert gemini_decision(rules, _SHELL, {"command": "git pushy"}) is None
    assert gemini_decision(rules, "mcp_search_query", {}) == "allow"


def test_deny_outranks_ask_outranks_allow(tmp_path: Path) -> None:
    from .conftest import policy_with_rules, write_policy

    path = write_policy(
        tmp_path,
        policy_with_rules(
            "  - name: git-ok\n    behavior: allow\n    reason: Fine\n"
            "    match: {commands: [git]}\n"
            '  - name: no-force\n    behavior: deny\n    reason: "No force"\n'
            "    match: {commands: ['git push --force']}\n"
            "  - name: push-asks\n    behavior: ask\n    reason: Ask\n"
            "    match: {commands: ['git push']}\n"
        ),
    )
    rules = tomllib.loads(export_policy(load(path), "gemini-policy").text)["rule"]
    assert gemini_decision(rules, _SHELL, {"command": "git push --force x"}) == "deny"
    assert gemini_decision(rules, _SHELL, {"command": "git push x"}) == "ask_user"
    assert gemini_decision(rules, _SHELL, {"command": "git log"}) == "allow"
    deny = next(r for r in rules if r["decision"] == "deny")
    assert deny["denyMessage"] == "No force"


def test_path_rules_are_reported_not_guessed(team: Path) -> None:
    exported = export_policy(load(team), "gemini-policy")
    assert "paths" not in exported.text and ".env" not in exported.text
    assert exported.dropped[0].line == (
        f"not exported: rule no-secrets ({team}:6): Gemini CLI matches arguments only by a "
        "regular expression over their JSON; toolpolicy does not translate path globs into one"
    )
