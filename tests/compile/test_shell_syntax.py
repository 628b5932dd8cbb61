"""The plain subset, tested next to its grammar: lines it accepts, lines it refuses and why.

Only an accepted line can be covered by an allow rule; every refusal names what was found
and its column (``explain`` shows it).
"""

from __future__ import annotations

import pytest

from toolpolicy.compile.plain_subset import (
    MAX_PLAIN_LINE_LENGTH,
    NotPlain,
    PlainCommand,
    PlainLine,
    Redirect,
    recognise_plain,
)
from toolpolicy.core.vocabulary import Effect


def accepted(line: str) -> PlainLine:
    found = recognise_plain(line)
    assert isinstance(found, PlainLine), f"expected {line!r} to be plain: {found}"
    return found


def words(line: str) -> list[tuple[str, ...]]:
    return [command.words for command in accepted(line).commands]


def refused(line: str) -> NotPlain:
    found = recognise_plain(line)
    assert isinstance(found, NotPlain), f"expected {line!r} to be refused: {found}"
    return found


# --- accepted -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("git status", [("git", "status")]),
        ("a && b || c; d | e\nf", [("a",), ("b",), ("c",), ("d",), ("e",), ("f",)]),
        ("a &&\n  b", [("a",), ("b",)]),
        ("a |\n b", [("a",), ("b",)]),
        ("\n\na\n\n", [("a",)]),
        ("a;", [("a",)]),
        ("echo 'a b' \"c d\" e\\ f", [("echo", "a b", "c d", "e f")]),
        ('echo \'it\'\'s\' "q\\"q" "\\$HOME" "\\`x\\`"', [("echo", "its", 'q"q', "$HOME", "`x`")]),
        ("\\git push", [("git", "push")]),
        ("echo a#b # a comment $(not read)", [("echo", "a#b")]),
        # A comment ends at its newline: what follows is read, and it runs.
        ("echo hi #c\ntouch F", [("echo", "hi"), ("touch", "F")]),
        ("# only a comment\ngit status # and another\nls", [("git", "status"), ("ls",)]),
        ("git log --format=%H:%an@x,y+z^w", [("git", "log", "--format=%H:%an@x,y+z^w")]),
        ("echo 'a;b|c&d$e`f`(g)'", [("echo", "a;b|c&d$e`f`(g)")]),
        ("echo \\\n  continued", [("echo", "continued")]),
        ("/usr/bin/git status", [("/usr/bin/git", "status")]),
        ("echo x=1", [("echo", "x=1")]),
        ("echo '{a,b}' \"~\"", [("echo", "{a,b}", "~")]),
        ("echo ! ]", [("echo", "!", "]")]),
    ],
)
def test_accepts_literal_words_and_list_operators(
    line: str, expected: list[tuple[str, ...]]
) -> None:
    assert words(line) == expected


def test_accepts_redirections_with_literal_targets_as_file_accesses() -> None:
    line = "pytest -q > out.txt 2>> err.log < in.txt &> all.log >| forced 2>&1 >&2 3<&0 4>&-"
    assert accepted(line) == PlainLine(
        (PlainCommand(("pytest", "-q"), 2),),
        (
            Redirect(Effect.WRITE, "out.txt", 11),
            Redirect(Effect.WRITE, "err.log", 21),
            Redirect(Effect.READ, "in.txt", 33),
            Redirect(Effect.WRITE, "all.log", 42),
            Redirect(Effect.WRITE, "forced", 53),
        ),
    )


def test_accepts_a_redirection_before_the_program_and_a_home_target() -> None:
    found = accepted("> out.txt echo hi 2>> ~/.bashrc")
    assert found.commands == (PlainCommand(("echo", "hi"), 2),)
    assert [r.target for r in found.redirects] == ["out.txt", "~/.bashrc"]


def test_glob_and_home_words_end_the_literal_prefix_of_a_command() -> None:
    assert accepted("ls -la ./*.py src").commands == (
        PlainCommand(("ls", "-la", "./*.py", "src"), 2),
    )
    assert accepted("cat ~/notes a?c [").commands[0].literal == 1
    assert accepted("echo 'a*' \"b?\"").commands[0].literal == 3


# --- refused --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "what", "column"),
    [
        ("echo $HOME", "parameter expansion", 6),
        ('echo "${x@P}"', "parameter expansion", 7),
        ("echo $(touch F)", "command substitution", 6),
        ("echo `touch F`", "command substitution", 6),
        ('echo "a `x` b"', "command substitution", 9),
        ("echo $((x))", "arithmetic expansion", 6),
        ("echo $'\\x41'", "ANSI-C quoting", 6),
        ('echo $"x"', "locale quoting", 6),
        ("((x = 1))", "a subshell or grouping '('", 1),
        ("(git status)", "a subshell or grouping '('", 1),
        ("{ git status; }", "brace expansion or grouping '{'", 1),
        ("echo {a,b}", "brace expansion or grouping '{'", 6),
        ("[[ -n x ]]", "reserved word '[['", 1),
        ("if true; then ls; fi", "reserved word 'if'", 1),
        ("! ls", "reserved word '!'", 1),
        ("time ls", "reserved word 'time'", 1),
        ("x=1", "an assignment", 1),
        ("A=b git status", "an assignment", 1),
        ("GIT_CONFIG_COUNT=1 git status", "an assignment", 1),
        ("LD_PRELOAD=./x.so git status", "an assignment", 1),
        ("BASH_ENV=./x.sh git status", "an assignment", 1),
        ("a+=b ls", "an assignment", 1),
        ("cat <<EOF\nx\nEOF", "here-document", 5),
        ("cat <<< x", "here-string", 5),
        ("cat <> f", "read-write redirection", 5),
        ("diff <(ls) x", "process substitution", 6),
        ("tee >(ls)", "process substitution", 5),
        ("sleep 1 &", "background job '&'", 9),
        ("a |& b", "'|&'", 3),
        ("f() { ls; }", "a subshell or grouping '('", 2),
        ("./*.sh", "a glob or '~' in the program name", 1),
        ("ls *.py", "a glob that may expand to an option (write ./*)", 4),
        ("find * -name x", "a glob that may expand to an option (write ./*)", 6),
        ("ls a[bc]", "a bracket glob", 5),
        ("~/bin/tool", "a glob or '~' in the program name", 1),
        ("ls ~root", "tilde expansion", 4),
        ("ls a=~/x", "tilde expansion", 6),
        ("echo > ./*.txt", "a glob in a redirection target", 8),
        ("echo >& file", "'>&' to something other than a descriptor", 6),
        ("echo >", "redirection '>' without a target", 6),
        ("> out.txt", "a redirection without a command", 10),
        ("; ls", "';' without a command before it", 1),
        ("ls && && ls", "'&&' without a command before it", 7),
        ("ls |", "'|' without a command after it", 4),
        ("ls;; ls", "'case' terminator", 3),
        ("echo 'open", "an unterminated quote", 6),
        ('echo "open', "an unterminated quote", 6),
        ("echo x\\", "a backslash at the end of the line", 7),
        ("echo a\rb", "a control character", 7),
        ("echo 'a\x1bb'", "a control character", 8),
        ("", "no command", 1),
        ("  # only a comment", "no command", 1),
        ("echo café", "the character 'é'", 9),
        ("git ²>x status", "the character '²'", 5),
    ],
)
def test_refuses_what_bash_decides_at_run_time(line: str, what: str, column: int) -> None:
    assert refused(line) == NotPlain(what, column)


@pytest.mark.parametrize(
    "program",
    ["eval", "source", ".", "exec", "alias", "hash", "mapfile", "readarray", "trap", "declare",
     "typeset", "local", "let", "read", "enable", "builtin", "command", "export", "unset",
     "cd", "set", "shopt", "getopts", "compgen", "fc", "exit"],
)  # fmt: skip
def test_refuses_builtins_that_run_or_define_code_or_change_the_shell(program: str) -> None:
    found = refused(f"true; {program} x")
    assert found.column == 7
    assert found.what.startswith(f"'{program}' ")


@pytest.mark.parametrize(
    ("line", "what"),
    [
        ("printf -v 'a[$(touch F)]' x", "'printf -v'"),
        ("test -v 'a[$(touch F)]'", "'test -v'"),
        ("[ -v 'a[$(touch F)]' ]", "'[ -v'"),
        ("test -R ref", "'test -v'"),
    ],
)
def test_refuses_builtin_options_that_evaluate_subscripts(line: str, what: str) -> None:
    assert refused(line).what.startswith(what)


def test_printf_and_test_without_those_options_are_plain() -> None:
    assert words("printf '%s\\n' x && test -f x && [ -d y ]") == [
        ("printf", "%s\\n", "x"),
        ("test", "-f", "x"),
        ("[", "-d", "y", "]"),
    ]


def test_the_reason_names_what_and_where() -> None:
    assert refused("echo ok; echo ${x@P}").reason == (
        "parameter expansion at column 15: allow rules cover only plain commands"
    )


def test_a_line_over_the_limit_is_refused() -> None:
    assert refused("a" * (MAX_PLAIN_LINE_LENGTH + 1)) == NotPlain(
        f"a line longer than {MAX_PLAIN_LINE_LENGTH} characters", 1
    )
