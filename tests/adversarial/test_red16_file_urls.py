"""red16: a ``file:`` URL names its file in URL syntax, which the path reader takes as text.

Last round (red15 #5) made ``compile/plain_subset.py`` ``_carried`` yield the path of a
``file:`` URL, so ``curl file:///WS/secret.txt`` meets the deny on ``secret.txt``. The path
is taken as the URL's raw text, but curl reads it as a URL: it percent-decodes it
(``secret%2etxt``), ends it at ``?`` or ``#`` (``secret.txt?x``), and expands its own globs
before that (``secre[s-t].txt``, ``{secret,x}.txt``, quoted so bash leaves them alone). Each
of these lines is allowed under an allow for ``curl`` (in-process and by the hook), and real
curl prints the secret.

What each should get: the deny the plain URL gets, or at least no allow. DESIGN: "A deny or
ask is conservative. It hits wherever the denied thing could be."
"""

from __future__ import annotations

import shutil

import pytest

from toolpolicy import Behavior, load

from .project import Project

POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
rules:
  - name: tools-are-fine
    behavior: allow
    reason: These tools are fine
    match: {commands: [curl]}
  - name: no-secret
    behavior: deny
    reason: The secret stays secret
    match: {tools: [read_file], paths: [secret.txt]}
"""

_SPELLINGS = [
    "secret%2etxt",
    "secre%74.txt",
    "secret.txt?x",
    "secret.txt#x",
    "secre[s-t].txt",
    "{secret,x}.txt",
]

pytestmark = pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    project = Project(tmp_path_factory.mktemp("urls"), POLICY)
    (project.ws / "secret.txt").write_text("SECRET-IN\n")
    return project


def _line(project: Project, spelling: str) -> str:
    return f"curl -s 'file://{project.ws}/{spelling}'"


def test_the_premise_the_plain_url_is_denied(project: Project) -> None:
    loaded = load("P03", policies=[project.policy], workspace=project.ws)
    line = _line(project, "secret.txt")
    assert loaded.check("shell", {"command": line}).reason == "The secret stays secret"
    assert project.hook("Bash", {"command": line}) == ("deny", "The secret stays secret")


@pytest.mark.parametrize("spelling", _SPELLINGS)
def test_a_file_url_spelling_of_a_denied_file_is_not_allowed(
    project: Project, spelling: str
) -> None:
    line = _line(project, spelling)
    assert project.bash(line).stdout == "SECRET-IN\n"  # real curl reads secret.txt
    loaded = load("P03", policies=[project.policy], workspace=project.ws)
    assert loaded.check("shell", {"command": line}).behavior >= Behavior.ASK
    assert project.hook("Bash", {"command": line})[0] != "allow"
