"""red18: a program writes the protected set below a folder it is given, and a memo forgot it.

Two holes of the protected set's promise (DESIGN: no tool call writes it):

* A recursive writer given a folder that holds the protected set — ``rm -rf .``,
  ``rm -r src/..``, ``rm -rf .git/..``, ``chmod -R 700 .``, ``find . -delete``,
  ``cp -r src/. .``, ``mv tpl .claude`` — names no protected path, so under an allow for
  ``rm`` (or ``find``, ``cp``, ``mv``) the line was allowed and removed or replaced ``.git``
  and the agent's settings; without rules P03 only asked, which the deny-only agents run.
  Now ``program_table.writes_below`` says which folders a command may write anything below,
  and the protected set refuses any that holds one of its entries (the workspace itself, a
  folder above it, ``.claude``), with that entry's reason.
* Once a harmless line (``ls``) had been decided under P03, the engine answered every later
  line without a ``>`` from its memo of decisions that cannot depend on the arguments:
  ``rm -rf .git`` got ``ls``'s ask for the rest of the process (the gate, a library
  caller). ``tests/engine/test_memo_sequences.py`` holds the property for that kind.

The property runs the real programs in real bash: whenever a line changed the protected set
(contents, links or modes), it was denied with a protected reason, with or without rules.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from toolpolicy import Behavior, Decision, load

from .test_red17_argument_writes import _GIT, _SETTINGS, Setup

LINES = [
    "rm -rf {}",
    "rm -r -- {}",
    "chmod -R 700 {}",
    "find {} -delete",
    "find {} -name config -delete",
    "cp -r tpl/. {}",
    "cp -rT tpl {}",
    "cp -r tpl {}",
    "mv tpl {}",
    "sh -c 'rm -rf {}'",
]
FOLDERS = [".", "./", "src/..", ".git/..", "{ws}", "..", ".claude", "cl", "g/..", "src", "new"]
POLICY_RULES = """\
  - name: cleaning
    behavior: allow
    reason: Cleaning is fine
    match: {commands: [rm, chmod, find, cp, mv, sh]}
"""


class Tree(Setup):
    """red17's workspace (``.git``, ``.claude``, the policy file, links ``g`` and ``cl``)
    with a ``src`` folder and a template folder ``tpl`` holding a ``settings.json``."""

    def __init__(self, base: Path) -> None:
        super().__init__(base)
        for folder in ("src", "tpl"):
            (self.ws / folder).mkdir()
            (self.ws / folder / "a.txt").write_text("a\n")
        (self.ws / "tpl" / "settings.json").write_text('{"hooks": {}}\n')
        (self.ws / "tpl" / "config").write_text("[evil]\n")

    def protected_state(self) -> dict[str, object]:
        """red17's state of the protected set, with the mode of ``.git``, everything in it
        and ``.claude`` (``chmod -R`` changes nothing else)."""
        found = super().protected_state()
        claude = self.ws / ".claude"
        for path in [self.ws / ".git", *sorted((self.ws / ".git").rglob("*")), claude]:
            if path.exists():
                found[f"mode {path}"] = path.stat().st_mode
        return found


def _decided(tree: Tree, line: str) -> list[tuple[list[str], Decision]]:
    """``line`` decided under the tree's policy file (its rules) and under bare P03, each
    with the policies it was loaded with."""
    return [
        (
            policies,
            load("P03", policies=policies, workspace=tree.ws).check("shell", {"command": line}),
        )
        for policies in ([str(tree.policy)], [])
    ]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    template=st.sampled_from(LINES),
    folder=st.sampled_from(FOLDERS),
    ruled=st.booleans(),
)
@example(template="rm -rf {}", folder=".", ruled=True)
@example(template="rm -rf {}", folder=".git/..", ruled=True)
@example(template="find {} -delete", folder=".", ruled=False)
@example(template="mv tpl {}", folder="new", ruled=True)
@example(template="cp -r tpl {}", folder=".claude", ruled=True)
def test_a_line_that_writes_below_a_folder_holding_the_protected_set_is_denied(
    tmp_path_factory: pytest.TempPathFactory, template: str, folder: str, ruled: bool
) -> None:
    tree = Tree(tmp_path_factory.mktemp("red18") / "base")
    if template in ("cp -r tpl {}", "mv tpl {}") and folder == ".claude":
        shutil.rmtree(tree.ws / ".claude")  # the destination does not exist: it becomes tpl
    if ruled:
        tree.policy.write_text(tree.policy.read_text() + POLICY_RULES)
    line = template.format(folder.format(ws=tree.ws))
    policies = [str(tree.policy)] if ruled else []
    decision = load("P03", policies=policies, workspace=tree.ws).check("shell", {"command": line})
    changed = tree.run_and_judge(line, decision)
    assert decision.behavior is not Behavior.ALLOW or not changed


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("rm -rf .", _GIT),
        ("rm -rf ./", _GIT),
        ("rm -r src/..", _GIT),
        ("rm -rf .git/..", _GIT),
        ("rm -rf ..", _GIT),
        ("chmod -R 777 .", _GIT),
        ("find . -delete", _GIT),
        ("find -delete", _GIT),
        ("cp -r src/. .", _GIT),
        ("mv tpl .github", _SETTINGS),
        ("sh -c 'rm -rf .'", _GIT),
        ("rm -rf cl", _SETTINGS),
    ],
)
def test_each_recursive_spelling_is_denied_with_the_protected_reason(
    tmp_path: Path, line: str, reason: str
) -> None:
    tree = Tree(tmp_path)
    tree.policy.write_text(tree.policy.read_text() + POLICY_RULES)
    for policies in ([str(tree.policy)], []):
        policy = load("P03", policies=policies, workspace=tree.ws)
        policy.check("shell", {"command": "ls"})  # a harmless line first: nothing remembered
        decision = policy.check("shell", {"command": line})
        assert (decision.behavior, decision.reason) == (Behavior.DENY, reason), (line, policies)


def test_what_writes_below_an_ordinary_folder_stays_open(tmp_path: Path) -> None:
    """A folder holding nothing protected, and a copy into a folder that exists (the
    workspace itself, ``.claude``: the copy lands beside ``.git`` or ``settings.json``, as
    ``tpl``), are the allow's to decide."""
    tree = Tree(tmp_path)
    tree.policy.write_text(tree.policy.read_text() + POLICY_RULES)
    policy = load("P03", policies=[str(tree.policy)], workspace=tree.ws)
    for line in (
        "rm -rf src",
        "chmod -R 700 src",
        "find src -delete",
        "cp -r tpl .",
        "mv tpl/a.txt .",
        "cp -r tpl .claude",
        "mv src .claude",
    ):
        assert policy.check("shell", {"command": line}).behavior is Behavior.ALLOW, line


GIT_CONFIG_LINES = [
    "git init -q --template=../tpl",
    "git init -q --template ../tpl .",
    "git init -q",
    "git config core.hooksPath /tmp/hooks",
    "git config core.fsmonitor 'touch pwned'",
    "git config --add alias.x '!sh -c true'",
    "git config --local --unset core.bare",
    "git -c user.name=x config core.pager 'sh -c true'",
    "git -C . config credential.helper '!true'",
    "sh -c 'git config core.hooksPath /tmp/hooks'",
    "git config core.bare",
    "git config --get core.bare",
    "git config -l",
]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.parametrize("line", GIT_CONFIG_LINES)
def test_git_config_that_writes_the_repository_file_is_denied(tmp_path: Path, line: str) -> None:
    """``core.hooksPath``, ``core.fsmonitor``, ``alias.x=!...``, ``core.pager``, a credential
    helper and a hook copied from ``git init --template`` run any program at the user's
    next ``git commit``, outside every sandbox: a ``git config`` that writes ``.git/config``
    and a ``git init`` that seeds ``.git`` write into ``.git``. Run in a real repository:
    whenever the line changed the file or planted the hook, it was denied; the rest stays
    open."""
    tree = Tree(tmp_path)
    shutil.rmtree(tree.ws / ".git")
    tree.bash("git init -q .")
    hook = tree.ws.parent / "tpl" / "hooks" / "pre-commit"  # a template with a live hook
    hook.parent.mkdir(parents=True)
    hook.write_text("#!/bin/sh\ntouch pwned\n")
    hook.chmod(0o755)
    planted = tree.ws / ".git" / "hooks" / "pre-commit"
    config = tree.ws / ".git" / "config"
    for policies, decision in _decided(tree, line):
        before = config.read_bytes()
        tree.bash(line)
        changed = config.read_bytes() != before or planted.exists()
        config.write_bytes(before)
        planted.unlink(missing_ok=True)
        assert changed == (decision.behavior is Behavior.DENY), (line, policies, decision)
        if changed:
            assert decision.reason == _GIT


BLANKLESS_CODE = [
    "python3 -c \"open('.git/config','w')\"",
    "python3 -c \"open('.claude/settings.json','a').write('x')\"",
    "python3 -c \"__import__('shutil').rmtree('.git')\"",
    "python3 -c \"__import__('os').chmod('.git/config',0o777)\"",
    "perl -e 'unlink(\".git/config\")'",
]


@pytest.mark.skipif(shutil.which("python3") is None, reason="needs python3")
@pytest.mark.parametrize("line", BLANKLESS_CODE)
def test_code_without_a_blank_is_read_for_the_files_it_names(tmp_path: Path, line: str) -> None:
    """A word a program runs as code was scanned for files only when it held a blank: under
    an allow for ``python3``, ``python3 -c "open('.git/config','w')"`` was allowed (and asked
    under P03 alone). Every argument that is more than a path or an option is read as code
    now; run in real bash, each line changes the protected set and is denied."""
    tree = Tree(tmp_path)
    tree.policy.write_text(
        tree.policy.read_text() + POLICY_RULES.replace("sh]", "sh, python3, perl]")
    )
    for policies, decision in _decided(tree, line):
        assert decision.behavior is Behavior.DENY, (line, policies, decision)
        assert decision.reason in (_GIT, _SETTINGS), (line, decision)
    before = tree.protected_state()
    if shutil.which(line.split()[0]) is not None:
        tree.bash(line)
        assert tree.protected_state() != before, line  # the line really writes it


@pytest.mark.parametrize("agent", ["claude-code", "codex", "gemini", "copilot"])
@pytest.mark.parametrize(
    "line", ["tee g/config < src/a.txt", "truncate -s0 g/config", "sed -i s/core/x/ g/config"]
)
def test_the_hook_reads_every_line_so_a_planted_link_is_followed(
    tmp_path: Path, agent: str, line: str
) -> None:
    """A link planted earlier (``g -> .git``, made by code at run time, which no text shows)
    leads a line that names nothing protected into the protected set. In-process the line
    only asks and ``toolpolicy run``'s sandbox keeps ``.git`` read-only; the hook's agent
    runs it with no sandbox of ours, and Codex, Gemini and Copilot run every line that is
    not denied: the hook reads every line, with or without rules."""
    from .test_red16_deny_only_agents import BARE, _hook

    tree = Tree(tmp_path)
    tree.policy.write_text(BARE)
    tree.env["GEMINI_PROJECT_DIR"] = str(tree.ws)
    assert _hook(tree, agent, line) == _GIT
    config = tree.ws / ".git" / "config"
    before = config.read_bytes()
    tree.bash(line)
    assert config.read_bytes() != before  # what the agent runs unless the hook denies


EXTRACTIONS = [
    "tar xf evil.tar",
    "tar -xf evil.tar -C .",
    "tar --extract --file=evil.tar",
    "unzip -o -q evil.zip",
    "patch -p1 -s -i evil.diff",
    "patch -p1 -s < evil.diff",
    "sh -c 'tar xf evil.tar'",
    "tar xf evil.tar -C vendor",
    "unzip -o -q evil.zip -d vendor",
    "tar tf evil.tar",
    "unzip -l evil.zip",
    "patch --dry-run -p1 -s -i evil.diff",
]


def _archives(ws: Path) -> None:
    """``evil.tar``, ``evil.zip`` and ``evil.diff``, each writing an executable
    ``.git/hooks/pre-commit`` where it is extracted or applied."""
    import io
    import tarfile
    import zipfile

    body = b"#!/bin/sh\ntouch pwned\n"
    with tarfile.open(ws / "evil.tar", "w") as archive:
        member = tarfile.TarInfo(".git/hooks/pre-commit")
        member.size, member.mode = len(body), 0o755
        archive.addfile(member, io.BytesIO(body))
    with zipfile.ZipFile(ws / "evil.zip", "w") as archive:
        archive.writestr(".git/hooks/pre-commit", body)
    (ws / "evil.diff").write_text(
        "diff --git a/.git/hooks/pre-commit b/.git/hooks/pre-commit\nnew file mode 100755\n"
        "--- /dev/null\n+++ b/.git/hooks/pre-commit\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+touch pwned\n"
    )
    (ws / "vendor").mkdir()


@pytest.mark.skipif(shutil.which("tar") is None, reason="needs tar")
@pytest.mark.parametrize("line", EXTRACTIONS)
def test_an_archive_or_patch_that_writes_the_protected_set_is_denied(
    tmp_path: Path, line: str
) -> None:
    """The archive or the patch names the files, not the line: under an allow for ``tar``,
    ``unzip`` or ``patch``, extracting ``.git/hooks/pre-commit`` into the workspace (a hook
    that runs at the user's next commit) was allowed. Extracting into a folder that holds
    nothing protected, listing and a dry run stay open."""
    tree = Tree(tmp_path)
    _archives(tree.ws)
    rules = POLICY_RULES.replace("sh]", "sh, tar, unzip, patch]")
    tree.policy.write_text(tree.policy.read_text() + rules)
    hook = tree.ws / ".git" / "hooks" / "pre-commit"
    if shutil.which(line.split()[0]) is None:
        return
    for policies, decision in _decided(tree, line):
        tree.bash(line)
        planted = hook.exists()
        hook.unlink(missing_ok=True)
        assert planted == (decision.behavior is Behavior.DENY), (line, policies, decision)
        if planted:
            assert decision.reason == _GIT
        elif policies:
            assert decision.behavior is Behavior.ALLOW, (line, decision)
