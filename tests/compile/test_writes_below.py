"""``program_table.writes_below``: the folders a command may write anything below.

Each answer is checked against what the real program does in
``tests/adversarial/test_red18_recursive_writes.py``; here the reading of the words.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolpolicy.compile.commands import split_command_line
from toolpolicy.compile.program_table import WRITES_BELOW_HINTS, writes_below


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("rm -rf .", ((".", True),)),
        ("rm -r -- . src", ((".", True), ("src", True))),
        ("rm --recursive a", (("a", True),)),
        ("rm -f a", ()),
        ("chmod -R 700 .", (("700", True), (".", True))),
        ("chmod 700 .", ()),
        ("find . -delete", ((".", True),)),
        ("find -L src docs -exec rm {} +", (("src", True), ("docs", True))),
        ("find -delete", ((".", True),)),
        ("find . -name x", ()),
        ("find . -fprint out.txt", ()),
        ("find . -type f -exec grep -l x {} +", ()),
        ("find . -exec sed -i s/a/b/ {} +", ((".", True),)),
        ("find . -exec", ((".", True),)),
        ("rsync -a --delete src/ .", ((".", True),)),
        ("rsync a b", ()),
        ("cp -r src/. .", ((".", True),)),
        ("cp -rT src .", ((".", True),)),
        ("cp --no-target-directory -r src .", ((".", True),)),
        ("cp -r src .", ((".", False),)),
        ("cp -t .claude -r src", ((".claude", False),)),
        ("cp --target-directory=.claude -a src", ((".claude", False),)),
        ("cp a b", ()),
        ("mv tpl .claude", ((".claude", False),)),
        ("mv tpl", ()),
        ("mv -T tpl .claude", ((".claude", True),)),
        ("cp -r src/./ .", ((".", True),)),
        ("git config core.hooksPath /tmp/x", ((".git", True),)),
        ("git -C sub config --add a.b c", (("sub/.git", True),)),
        ("git --git-dir=/tmp/r config a.b c", (("/tmp/r", True),)),
        ("git -c a=b config --unset a.b", ((".git", True),)),
        ("git config -e", ((".git", True),)),
        ("git config user.name", ()),
        ("git config --get user.name", ()),
        ("git config -l", ()),
        ("git config --global user.name x", ()),
        ("git commit -m x", ()),
        ("git init", ()),
        ("git init --template=tpl", (("./.git", True),)),
        ("git init --template tpl", (("tpl/.git", True), ("./.git", True))),
        ("git -C sub init --template=tpl", (("sub/./.git", True),)),
        ("git clone https://x/y", ()),
        (
            "git clone --template=tpl u d",
            (("u/.git", True), ("d/.git", True), ("./.git", True)),
        ),
        ("ls -R .", ()),
        ("tar xf a.tar", ((".", True),)),
        ("tar -xzf a.tgz -C vendor", (("vendor", True),)),
        ("tar --extract --file=a.tar --directory=v", (("v", True),)),
        ("tar cf a.tar src", ()),
        ("tar -tf a.tar", ()),
        ("unzip a.zip", ((".", True),)),
        ("unzip a.zip -d out", (("out", True),)),
        ("unzip -l a.zip", ()),
        ("7z x a.7z -oout", (("out", True),)),
        ("7z l a.7z", ()),
        ("cpio -idv", ((".", True),)),
        ("pax -r", ((".", True),)),
        ("patch -p1 -i x.diff", ((".", True),)),
        ("patch -d sub -p1", (("sub", True),)),
        ("patch --dry-run -p1", ()),
        ("patch -o out.c a.c x.diff", ()),
    ],
)
def test_what_each_command_may_write_below(
    line: str, expected: tuple[tuple[str, bool], ...]
) -> None:
    assert writes_below(tuple(line.split())) == expected


@pytest.mark.parametrize(
    "line",
    [
        "sudo rm -rf .",
        "x=1 rm -rf .",
        "sh -c 'rm -rf .'",
        'bash -c "find . -delete"',
        "timeout 5 rm -rf . &",
        "echo hi; rm -rf .",
    ],
)
def test_a_writer_is_found_wherever_it_stands_in_the_line(line: str) -> None:
    assert (".", True) in split_command_line(line).written_below, line


_WORD = st.sampled_from(
    ["rm", "-rf", "-R", ".", "src", "--", "find", "-delete", "cp", "mv", "x", "sudo", "sh",
     "-c", "'rm -rf .'", "git", "config", "a.b", "chmod", "/usr/bin/rm", "&", ";", "$X",
     "--get", "-C", "sub", "--global", "init", "clone", "--template=t", "--config", "tar",
     "xf", "-d", "unzip", "patch", "-p1", "7z", "x", "apply", "am", "--check", "npm", "c",
     "set", "--system", "--location=project", "-g", "get"]
)  # fmt: skip


@given(st.lists(_WORD, min_size=1, max_size=8))
def test_a_line_that_writes_below_a_folder_names_such_a_program(words: list[str]) -> None:
    """The engine reads a bare line (no quote, escape or expansion) for this only when its
    text holds one of ``WRITES_BELOW_HINTS`` (``DecisionEngine._reads_line``): whatever the
    line, a folder written below, or a configuration file written without a ``>``
    (``git config --global``, ``npm set``), comes with such a word in the text."""
    line = " ".join(words)
    read = split_command_line(line)
    if read.written_below or (read.written and ">" not in line):
        assert any(name in line for name in WRITES_BELOW_HINTS), line


@pytest.mark.parametrize(
    ("line", "written"),
    [
        ("git config --global core.fsmonitor x", ("~/.gitconfig",)),
        ("git config --system a.b c", ("/etc/gitconfig",)),
        ("git -c a=b config --global --add include.path x", ("~/.gitconfig",)),
        ("git config --global user.name", ()),
        ("git config --global --get user.name", ()),
        ("git config a.b c", ()),  # the repository's own: a write below .git
        ("npm config set script-shell x", ("~/.npmrc",)),
        ("npm set a b", ("~/.npmrc",)),
        ("npm c delete a", ("~/.npmrc",)),
        ("npm config set -g a b", ("/etc/npmrc",)),
        ("npm config set a b --location=project", ()),
        ("npm config get a", ()),
        ("npm install", ()),
    ],
)
def test_a_configuration_outside_the_workspace_is_a_written_file(
    line: str, written: tuple[str, ...]
) -> None:
    assert tuple(t.path for t in split_command_line(line).written) == written
