"""red16: curl's form fields carry a file after ``<`` and end its name at ``;``, past a deny.

Last round (red15 #5) made ``compile/plain_subset.py`` ``_carried`` read the path after
``=``, ``@``, ``,`` and ``:`` inside a word, so ``curl -F f=@secret.txt URL`` meets the deny
on reading ``secret.txt``. curl's ``-F`` has more of its own syntax (curl(1), ``-F``):
``name=<file`` sends the file's content as the field's value, ``name=@file;type=...`` ends
the file name at ``;``, and the name may be double-quoted (``name=@"file"``). Each of these
is allowed under an allow for ``curl``, in-process and by the hook, and curl sends the secret
to the server: an exfiltration the sandbox does not stop under the hook.

What each should get: the deny ``curl -F f=@secret.txt URL`` gets. DESIGN: "A deny or ask
is conservative. It hits wherever the denied thing could be." Fix by kind: in a carried
tail, also start a path after ``<`` and end one at ``;`` (and drop quotes), or, simpler and
conservative, yield every piece of the word split at each non-path character.
"""

from __future__ import annotations

import shutil
import socket
import threading

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

pytestmark = pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")

_FIELDS = ["f=<secret.txt", "f=@secret.txt;type=text/plain", 'f=@"secret.txt"']


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    project = Project(tmp_path_factory.mktemp("forms"), POLICY)
    (project.ws / "secret.txt").write_text("SECRET-IN\n")
    return project


def _received(project: Project, field: str) -> bytes:
    """What a local HTTP server receives from real curl sending ``-F FIELD``."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(10)
    got: list[bytes] = []

    def serve() -> None:
        connection, _ = server.accept()
        connection.settimeout(2)
        with connection:
            try:
                while chunk := connection.recv(65536):
                    got.append(chunk)
                    if b"SECRET-IN" in b"".join(got):
                        break
            except TimeoutError:
                pass
            connection.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")

    thread = threading.Thread(target=serve)
    thread.start()
    port = server.getsockname()[1]
    quoted = field.replace("'", "'\\''")
    project.bash(f"curl -s -m 5 -F '{quoted}' http://127.0.0.1:{port}/")
    thread.join(15)
    server.close()
    return b"".join(got)


def _line(field: str) -> str:
    quoted = field.replace("'", "'\\''")
    return f"curl -s -F '{quoted}' http://127.0.0.1:9/"


def test_the_premise_an_at_field_is_denied(project: Project) -> None:
    loaded = load("P03", policies=[project.policy], workspace=project.ws)
    line = _line("f=@secret.txt")
    assert loaded.check("shell", {"command": line}).reason == "The secret stays secret"
    assert project.hook("Bash", {"command": line}) == ("deny", "The secret stays secret")


@pytest.mark.parametrize("field", _FIELDS)
def test_a_form_field_that_sends_a_denied_file_is_not_allowed(project: Project, field: str) -> None:
    assert b"SECRET-IN" in _received(project, field)  # real curl sends the secret
    loaded = load("P03", policies=[project.policy], workspace=project.ws)
    line = _line(field)
    assert loaded.check("shell", {"command": line}).behavior >= Behavior.ASK
    assert project.hook("Bash", {"command": line})[0] != "allow"
