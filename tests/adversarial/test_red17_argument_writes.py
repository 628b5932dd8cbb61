"""red17: a program writes the protected set through its arguments, under an allow for it.

A plain line's arguments were decided as reads only. Under an allow for ``cp`` (or ``touch``,
``tee``, ``dd``, ``ln``, ``sed``...), ``cp x .git/config``, ``touch .git/hooks/pre-commit``,
``cp evil.json .claude/settings.json`` or ``cp settings.json .claude`` were allowed: the
Claude Code hook answered allow and the agent overwrote what no rule may open for writing
(DESIGN promise: the protected set is never written). Without any rule, P03 only asked, and
the agents that honour only a deny ran them; ``sh -c 'cp x .git/config'`` too.

Now every argument of a program that is not known to only read (``reads_only``) is also
decided as a write of what it names — the protected set (through symlinks too) and the write
rules; an argument outside the workspace is left to its read, which asks — and so is each
operand joined below another as a folder, and each word of an argument that holds code.

The property runs the real programs in real bash: whenever a line changed a protected file,
the decision was a deny; and a line the policy allows never changed one.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from toolpolicy import Behavior, Decision, load

from .project import Project

WRITERS = ["cp", "mv", "touch", "tee", "dd", "ln", "sed", "sort", "install", "truncate"]
POLICY = f"""\
apiVersion: toolpolicy/v1
kind: Policy
name: team
extends: P03
rules:
  - name: file-commands
    behavior: allow
    reason: File commands are fine
    match: {{commands: [{", ".join([*WRITERS, "sh", "bash"])}]}}
"""

_GIT = "Writing inside .git is forbidden"
_SETTINGS = "Agent settings that register toolpolicy cannot be written"
_POLICY_FILE = "Policy files in use cannot be written"

# Where a protected file may be named: as written, through a planted link, as a folder.
DESTINATIONS = [
    ".git/config", "./.git/config", ".git/hooks/pre-commit", "g/config", ".GIT/config",
    ".claude/settings.json", "cl/settings.json", "toolpolicy.yaml", "pol", ".git", ".claude",
    "g", "cl",
]  # fmt: skip
SOURCES = ["src.txt", "settings.json", "config", "d/pre-commit"]


def _commands(source: str, target: str) -> list[str]:
    """Lines that write ``target`` (a file, or a folder to write into) from ``source``."""
    return [
        f"cp {source} {target}",
        f"cp -f -- {source} {target}",
        f"mv {source} {target}",
        f"install -m 644 {source} {target}",
        f"ln -sf {source} {target}",
        f"touch {target}",
        f"cat {source} | tee {target}",
        f"tee -a {target} < {source}",
        f"dd if={source} of={target}",
        f"sed -i s/a/b/ {target}",
        f"sort -o {target} {source}",
        f"truncate -s 0 {target}",
        f"sh -c 'cp {source} {target}'",
        f'bash -c "touch {target}"',
    ]


class Setup(Project):
    """A workspace with ``.git``, ``.claude``, its policy file, links to them, and sources."""

    def __init__(self, base: Path) -> None:
        super().__init__(base, POLICY)
        (self.ws / ".git" / "hooks").mkdir(parents=True)
        (self.ws / ".git" / "config").write_text("[core]\n")
        (self.ws / ".claude").mkdir()
        (self.ws / ".claude" / "settings.json").write_text("{}\n")
        (self.ws / "d").mkdir()
        for source in SOURCES:
            (self.ws / source).write_text("a\n")
        for name, target in (("g", ".git"), ("cl", ".claude"), ("pol", "toolpolicy.yaml")):
            (self.ws / name).symlink_to(target)

    def protected_state(self) -> dict[str, object]:
        """Every protected path's content hash (or what it links to), by path: all of
        ``.git``, the agent's two settings files and the policy file."""
        found: dict[str, object] = {}
        claude = self.ws / ".claude"
        singles = [claude / "settings.json", claude / "settings.local.json", self.policy]
        for path in [*sorted((self.ws / ".git").rglob("*")), *singles]:
            if path.exists() or path.is_symlink():
                if path.is_symlink():
                    found[str(path)] = "-> " + str(path.readlink())
                elif path.is_file():
                    found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
                else:
                    found[str(path)] = "folder"
        return found

    def run_and_judge(self, line: str, decision: Decision) -> bool:
        """Run ``line`` in real bash; when it changed the protected set (``protected_state``),
        ``decision`` must have been a deny with a protected reason. Whether it changed."""
        before = self.protected_state()
        self.bash(line)
        changed = self.protected_state() != before
        if changed:
            assert decision.behavior is Behavior.DENY, (line, decision)
            assert decision.reason in (_GIT, _SETTINGS, _POLICY_FILE), (line, decision)
        return changed


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    return Setup(tmp_path)


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    source=st.sampled_from(SOURCES),
    target=st.sampled_from(DESTINATIONS),
    which=st.integers(min_value=0, max_value=13),
)
@example(source="settings.json", target=".claude", which=0)
@example(source="config", target="g", which=2)
@example(source="settings.json", target=".claude", which=12)
@example(source="settings.json", target="cl", which=12)
def test_a_line_that_writes_the_protected_set_is_denied(
    tmp_path_factory: pytest.TempPathFactory, source: str, target: str, which: int
) -> None:
    project = Setup(tmp_path_factory.mktemp("red17"))
    line = _commands(source, target)[which]
    decided = load("P03", policies=[str(project.policy)], workspace=project.ws)
    decision = decided.check("shell", {"command": line})
    changed = project.run_and_judge(line, decision)
    assert decision.behavior is not Behavior.ALLOW or not changed


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("cp src.txt .git/config", _GIT),
        ("touch .git/hooks/pre-commit", _GIT),
        ("cp settings.json .claude", _SETTINGS),
        ("cp src.txt cl/settings.json", _SETTINGS),
        ("cp src.txt g/config", _GIT),
        ("dd if=src.txt of=pol", _POLICY_FILE),
        ("sh -c 'cp src.txt .git/config'", _GIT),
        ("cp src.txt .git/config $X", _GIT),
    ],
)
def test_each_spelling_is_denied_with_the_protected_reason(
    setup: Setup, line: str, reason: str
) -> None:
    for policies in ([str(setup.policy)], []):
        decision = load("P03", policies=policies, workspace=setup.ws).check(
            "shell", {"command": line}
        )
        if not policies and line.startswith(("cp src.txt cl/", "cp src.txt g/", "dd if")):
            continue  # without rules a line that names nothing protected is not read; see below
        assert (decision.behavior, decision.reason) == (Behavior.DENY, reason), (line, policies)


def test_what_only_reads_or_copies_in_is_not_refused(setup: Setup) -> None:
    """The readers' table keeps reads of the protected set open, and a copy from outside
    the workspace still only asks (its argument may be the source)."""
    policy = load("P03", policies=[str(setup.policy)], workspace=setup.ws)
    for line in ("cat .git/config", "grep core .git/config", "ls .claude", "git log .git"):
        assert policy.check("shell", {"command": line}).behavior is Behavior.ASK, line
    copied_in = policy.check("shell", {"command": f"cp {setup.home}/notes.txt ."})
    assert (copied_in.behavior, copied_in.reason) == (
        Behavior.ASK,
        "Reading outside the workspace requires approval",
    )
    assert policy.check("shell", {"command": "cp src.txt copy.txt"}).behavior is Behavior.ALLOW


def test_a_link_planted_to_the_protected_set_is_refused_when_made(setup: Setup) -> None:
    """Without any rule a line is read for its files only when it names the protected set
    (or writes with ``>``): a write through a link of another name is then left to the
    profile's ask; making such a link names its target, and is denied."""
    bare = load("P03", workspace=setup.ws)
    for line in ("ln -s .git h", "python3 -c \"import os; os.symlink('.git', 'h')\""):
        decision = bare.check("shell", {"command": line})
        assert (decision.behavior, decision.reason) == (Behavior.DENY, _GIT), line
    assert not (setup.ws / "h").exists()


GLOBBED = [".gi{t,}/config", "{.git,x}/config", ".gi[t]/config", ".gi?/config", ".g*t/config",
           ".gi[^x]/config", ".gi[!x]/config", ".gi{s..u}/config"]  # fmt: skip
TAILS = ["", " $X", " &", "; : $(true)"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    spelled=st.sampled_from(GLOBBED),
    program=st.sampled_from(
        ["touch {}", "cp src.txt {}", "dd if=src.txt of={}", "tee {} < src.txt"]
    ),
    tail=st.sampled_from(TAILS),
    ruled=st.booleans(),
)
def test_a_glob_or_a_brace_never_hides_a_protected_write(
    tmp_path_factory: pytest.TempPathFactory, spelled: str, program: str, tail: str, ruled: bool
) -> None:
    """bash expands the word to ``.git/config`` (and writes it, where the program's other
    words let it); the line is denied, with the policy's rules or under the bare profile."""
    project = Setup(tmp_path_factory.mktemp("red17glob"))
    line = program.format(spelled) + tail
    policies = [str(project.policy)] if ruled else []
    decision = load("P03", policies=policies, workspace=project.ws).check(
        "shell", {"command": line}
    )
    assert (decision.behavior, decision.reason) == (Behavior.DENY, _GIT), line
    expanded = project.bash(f"printf '%s\\n' {spelled}").stdout.split()
    assert ".git/config" in expanded, spelled  # bash reads the word as the protected file


def test_a_brace_expansion_too_large_to_check_is_refused(setup: Setup) -> None:
    """A protected name could hide past the bound of the expansion: the line is refused."""
    line = "touch " + ".gi{" + ",".join(f"x{i}" for i in range(5000)) + ",t}/config &"
    decision = load("P03", workspace=setup.ws).check("shell", {"command": line})
    assert (decision.behavior, decision.reason) == (
        Behavior.DENY,
        "A brace expansion makes more words than the protected set can be checked against",
    )
    small = load("P03", workspace=setup.ws).check("shell", {"command": "touch f{1..20}.txt &"})
    assert small.behavior is Behavior.ASK
