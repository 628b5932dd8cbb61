"""The four formats as functions of the findings, and as real subprocess output."""

from __future__ import annotations

import json
import re
import urllib.parse
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.lint import REGISTRY, Finding, Severity
from toolpolicy.lint.formats import (
    escape_github_data,
    escape_github_property,
    format_github,
    format_json,
    format_sarif,
    format_text,
)

from .conftest import INVALID, run_lint

FINDINGS = [
    Finding("a.yaml", 3, 5, "unknown-tool", Severity.WARNING, "did you mean 'x'?"),
    Finding("a.yaml", 9, 1, "example-failed", Severity.ERROR, "100% wrong,\nreally: yes"),
    Finding("b/c.yaml", 2, 3, "preset-tie", Severity.INFO, "tie", 2, 9),
]

_GITHUB_LINE = re.compile(
    r"^::(error|warning|notice) file=[^,:\r\n]+,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,"
    r"title=[a-z-]+::[^\r\n]*$"
)


def test_text_is_one_line_per_finding_then_a_summary() -> None:
    assert format_text(FINDINGS, 2) == (
        "a.yaml:3:5: warning unknown-tool did you mean 'x'?\n"
        "a.yaml:9:1: error example-failed 100% wrong,\\nreally: yes\n"
        "b/c.yaml:2:3: info preset-tie tie\n"
        "2 files checked: 1 error, 1 warning, 1 info\n"
    )
    assert format_text([], 1) == "1 file checked: 0 errors, 0 warnings, 0 infos\n"


def test_json_has_every_field_and_a_summary() -> None:
    document = json.loads(format_json(FINDINGS, 2))
    assert document["summary"] == {"files": 2, "errors": 1, "warnings": 1, "infos": 1}
    assert document["findings"][2] == {
        "path": "b/c.yaml",
        "line": 2,
        "column": 3,
        "end_line": 2,
        "end_column": 9,
        "severity": "info",
        "code": "preset-tie",
        "message": "tie",
    }
    assert document["findings"][0]["end_line"] == 3
    assert document["findings"][0]["end_column"] == 5


def test_github_lines_are_workflow_commands_with_escapes() -> None:
    lines = format_github(FINDINGS, 2).splitlines()
    assert lines[:3] == [
        "::warning file=a.yaml,line=3,col=5,endLine=3,endColumn=5,title=unknown-tool::"
        "did you mean 'x'?",
        "::error file=a.yaml,line=9,col=1,endLine=9,endColumn=1,title=example-failed::"
        "100%25 wrong,%0Areally: yes",
        "::notice file=b/c.yaml,line=2,col=3,endLine=2,endColumn=9,title=preset-tie::tie",
    ]
    assert lines[3] == "2 files checked: 1 error, 1 warning, 1 info"
    assert all(_GITHUB_LINE.match(line) for line in lines[:3])


def test_github_properties_escape_commas_and_colons() -> None:
    finding = Finding("C:/a,b.yaml", 1, 1, "schema", Severity.ERROR, "m")
    line = format_github([finding], 1).splitlines()[0]
    assert line.startswith("::error file=C%3A/a%2Cb.yaml,line=1,")


def _unescape(text: str) -> str:
    for raw, escaped in ((":", "%3A"), (",", "%2C"), ("\n", "%0A"), ("\r", "%0D"), ("%", "%25")):
        text = text.replace(escaped, raw)
    return text


@settings(max_examples=200)
@given(st.text())
def test_github_escapes_are_reversible_and_leave_no_separator(text: str) -> None:
    data = escape_github_data(text)
    prop = escape_github_property(text)
    assert "\n" not in data and "\r" not in data
    assert not {",", ":", "\n", "\r"} & set(prop)
    assert _unescape(data) == text
    assert _unescape(prop) == text


def test_sarif_has_the_required_structure(tmp_path: Path, monkeypatch: object) -> None:
    # The SARIF 2.1.0 JSON Schema is not available from an installed package, so the
    # structure the schema requires (and GitHub code scanning reads) is checked by hand.
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    monkeypatch.chdir(tmp_path)
    outside = Finding("/elsewhere/x y.yaml", 4, 2, "schema", Severity.ERROR, "m")
    log = json.loads(format_sarif([*FINDINGS, outside], 3))
    assert log["version"] == "2.1.0"
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    [run] = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "toolpolicy"
    rules = driver["rules"]
    ids = [r["id"] for r in rules]
    assert ids == ["example-failed", "preset-tie", "schema", "unknown-tool"]  # those used
    assert set(ids) <= set(REGISTRY)
    for described in rules:
        assert set(described) == {"id", "name", "shortDescription", "help", "defaultConfiguration"}
        assert described["shortDescription"]["text"]
        assert described["defaultConfiguration"]["level"] in ("error", "warning", "note")
    unknown_tool = rules[ids.index("unknown-tool")]
    assert unknown_tool["shortDescription"]["text"] == (
        "A name in ``match.tools`` that no known tool has."
    )
    assert unknown_tool["help"]["text"].startswith("``unknown-tool``: a name in")
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"
    assert run["columnKind"] == "unicodeCodePoints"  # how the loader counts columns
    results = run["results"]
    assert [r["ruleId"] for r in results] == [
        "unknown-tool",
        "example-failed",
        "preset-tie",
        "schema",
    ]
    assert [r["level"] for r in results] == ["warning", "error", "note", "error"]
    for result in results:
        assert ids[result["ruleIndex"]] == result["ruleId"]
        assert result["message"]["text"]
        assert re.fullmatch(r"[0-9a-f]{64}", result["partialFingerprints"]["toolpolicyFinding/v1"])
        [location] = result["locations"]
        region = location["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
    first = results[0]["locations"][0]["physicalLocation"]
    assert first["artifactLocation"] == {"uri": "a.yaml", "uriBaseId": "%SRCROOT%"}
    assert first["region"] == {"startLine": 3, "startColumn": 5, "endLine": 3}
    third = results[2]["locations"][0]["physicalLocation"]
    assert third["region"] == {"startLine": 2, "startColumn": 3, "endLine": 2, "endColumn": 9}
    last = results[3]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert last == {"uri": "file:///elsewhere/x%20y.yaml"}
    assert urllib.parse.unquote(last["uri"]) == "file:///elsewhere/x y.yaml"


def test_sarif_states_each_rules_help_once_however_many_results_it_has() -> None:
    many = [
        Finding("a.yaml", line, 1, code, Severity.ERROR, f"m{line}")
        for line in range(1, 40)
        for code in ("schema", "duplicate-key", "example-failed")
    ]
    text = format_sarif(many, 1)
    log = json.loads(text)
    assert "rules" not in log["runs"][0]  # rules live in tool.driver, not on the run
    driver_rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in driver_rules] == ["duplicate-key", "example-failed", "schema"]
    for rule in driver_rules:
        assert text.count(json.dumps(rule["help"]["text"], ensure_ascii=False)) == 1
    assert len(log["runs"][0]["results"]) == 117
    assert "help" not in text.split('"results"', 1)[1]  # results carry only their ruleIndex


def test_a_three_finding_sarif_log_stays_short() -> None:
    assert len(format_sarif(FINDINGS, 2).splitlines()) < 200


def test_sarif_fingerprints_do_not_move_with_the_line() -> None:
    moved = Finding("a.yaml", 30, 5, "unknown-tool", Severity.WARNING, "did you mean 'x'?")
    before = json.loads(format_sarif(FINDINGS[:1], 1))["runs"][0]["results"][0]
    after = json.loads(format_sarif([moved], 1))["runs"][0]["results"][0]
    assert before["partialFingerprints"] == after["partialFingerprints"]


def test_each_format_from_the_command_line() -> None:
    target = str(INVALID / "unknown-tool.yaml")
    text = run_lint(target, "--format", "text")
    assert text.code == 0  # warnings only
    assert text.stdout.splitlines()[0].startswith(
        f"{target}:10:21: warning unknown-tool rule 'no-secret-writes' names unknown tool"
    )
    as_json = run_lint(target, "--format", "json", "--strict")
    assert as_json.code == 1
    assert json.loads(as_json.stdout)["summary"] == {
        "files": 1,
        "errors": 0,
        "warnings": 2,
        "infos": 0,
    }
    github = run_lint(target, "--format", "github")
    assert github.code == 0
    assert all(_GITHUB_LINE.match(line) for line in github.stdout.splitlines()[:2])
    sarif = run_lint(target, "--format", "sarif", cwd=INVALID)
    log = json.loads(sarif.stdout)
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in log["runs"][0]["results"]
    }
    assert uris == {"unknown-tool.yaml"}


def test_auto_is_github_under_github_actions_and_text_elsewhere() -> None:
    target = str(INVALID / "preset-tie.yaml")
    under_actions = run_lint(target, env={"GITHUB_ACTIONS": "true"})
    elsewhere = run_lint(target)
    assert under_actions.stdout.startswith("::notice file=")
    assert elsewhere.stdout.startswith(f"{target}:12:3: info preset-tie ")
    assert under_actions.code == elsewhere.code == 0
