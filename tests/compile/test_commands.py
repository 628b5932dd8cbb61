"""Command lines split into the simple commands they run, and command prefix patterns."""

from __future__ import annotations

import re
import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpolicy.compile.commands import (
    MAX_COMMAND_LINE_LENGTH,
    CommandLine,
    CommandPattern,
    CommandPatternError,
    compile_command_pattern,
    split_command_line,
)
from toolpolicy.compile.shell_syntax import MAX_NESTING

RM = ("rm", "-rf", "x")


def parts(line: str) -> tuple[tuple[str, ...], ...]:
    result = split_command_line(line)
    assert result.complete, f"expected a complete split of {line!r}: {result}"
    return result.parts


def incomplete(line: str) -> tuple[tuple[str, ...], ...]:
    result = split_command_line(line)
    assert not result.complete, f"expected an incomplete split of {line!r}: {result}"
    return result.parts


def hits(pattern: str, line: str) -> bool:
    compiled = compile_command_pattern(pattern)
    return any(compiled.matches(part) for part in split_command_line(line).parts)


# --- compound lines -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    ["a && rm -rf x", "a || rm -rf x", "a; rm -rf x", "a | rm -rf x", "a & rm -rf x",
     "a\nrm -rf x", "a |& rm -rf x", "a ;\n\n rm -rf x &"],
)  # fmt: skip
def test_every_list_operator_separates_simple_commands(line: str) -> None:
    assert parts(line) == (("a",), RM)


def test_a_command_substitution_is_split_and_its_dynamic_program_makes_the_line_incomplete() -> (
    None
):
    assert incomplete("$(rm -rf x)") == (("$(rm -rf x)",), RM)
    assert incomplete("`rm -rf x`") == (("`rm -rf x`",), RM)


def test_substitutions_in_arguments_come_after_their_command() -> None:
    assert parts("echo $(rm -rf x)") == (("echo", "$(rm -rf x)"), RM)
    assert parts("echo `rm -rf x`") == (("echo", "`rm -rf x`"), RM)
    assert parts('echo "$(rm -rf x)"') == (("echo", "$(rm -rf x)"), RM)
    assert parts('echo "a `rm -rf x` b"') == (("echo", "a `rm -rf x` b"), RM)
    assert parts("echo $(echo $(rm -rf x))") == (
        ("echo", "$(echo $(rm -rf x))"),
        ("echo", "$(rm -rf x)"),
        RM,
    )


def test_substitutions_inside_parameter_and_arithmetic_expansions_are_found() -> None:
    assert parts("echo ${X:-$(rm -rf x)}") == (("echo", "${X:-$(rm -rf x)}"), RM)
    assert parts("echo $((1 + $(rm -rf x)))") == (("echo", "$((1 + $(rm -rf x)))"), RM)


def test_process_substitution_is_split() -> None:
    assert parts("cat <(rm -rf x)") == (("cat", "<(rm -rf x)"), RM)
    assert parts("tee >(rm -rf x) < in") == (("tee", ">(rm -rf x)"), RM)
    assert parts("diff <(a) <(b)") == (("diff", "<(a)", "<(b)"), ("a",), ("b",))


def test_subshells_and_groups_are_split() -> None:
    assert parts("(rm -rf x)") == (RM,)
    assert parts("{ rm -rf x; }") == (RM,)
    assert parts("( a; (rm -rf x) ) > out") == (("a",), RM)
    assert parts("a && { b || rm -rf x; }") == (("a",), ("b",), RM)


def test_bash_and_sh_command_strings_are_split() -> None:
    assert parts("bash -c 'rm -rf x'") == (("bash", "-c", "rm -rf x"), RM)
    assert parts('sh -c "echo; rm -rf x"') == (("sh", "-c", "echo; rm -rf x"), ("echo",), RM)
    assert parts("zsh -lc 'rm -rf x'") == (("zsh", "-lc", "rm -rf x"), RM)
    assert parts("dash -e -c 'rm -rf x' name arg") == (
        ("dash", "-e", "-c", "rm -rf x", "name", "arg"),
        RM,
    )
    assert parts("/bin/bash -o pipefail -c 'rm -rf x'")[-1] == RM
    assert parts("bash script.sh") == (("bash", "script.sh"),)


def test_eval_arguments_are_split() -> None:
    assert parts("eval 'rm -rf x'") == (("eval", "rm -rf x"), RM)
    assert parts("eval rm -rf x") == (("eval", "rm", "-rf", "x"), RM)


# --- words ----------------------------------------------------------------------------------


def test_leading_assignments_are_not_words_of_the_command() -> None:
    assert parts("VAR=x rm -rf x") == (RM,)
    assert parts("A=1 B+=2 C[0]=3 rm -rf x") == (RM,)
    assert parts("rm -rf x A=1") == (("rm", "-rf", "x", "A=1"),)
    assert parts('"A=1" rm') == (("A=1", "rm"),)


def test_an_assignment_value_is_searched_for_commands() -> None:
    assert parts("x=$(rm -rf x)") == (RM,)


def test_quotes_and_escapes_are_removed_from_words() -> None:
    assert parts('"rm" -rf x') == (RM,)
    assert parts("r''m -rf") == (("rm", "-rf"),)
    assert parts('r""m -rf') == (("rm", "-rf"),)
    assert parts("\\r\\m -rf x") == (RM,)
    assert parts("'r'\"m\" -rf x") == (RM,)
    assert parts("$'\\x72m' -rf x") == (RM,)
    assert parts("$'\\162\\u006d' -rf x") == (RM,)
    assert parts('echo "a\\"b" \'c\\d\' "e\\f"') == (("echo", 'a"b', "c\\d", "e\\f"),)
    assert parts("echo a\\ b") == (("echo", "a b"),)


def test_operators_inside_quotes_are_not_separators() -> None:
    assert parts('git commit -m "fix: a && b; c | d"') == (
        ("git", "commit", "-m", "fix: a && b; c | d"),
    )


def test_a_line_continuation_joins_words() -> None:
    assert parts("rm \\\n-rf x") == (RM,)


def test_comments_are_not_commands() -> None:
    assert parts("echo hi # rm -rf x") == (("echo", "hi"),)
    assert parts("# note\nls") == (("ls",),)
    assert parts("echo a#b") == (("echo", "a#b"),)


@pytest.mark.parametrize(
    "line",
    ["rm -rf x > out", "rm -rf x >> out", "rm -rf x < in", "rm -rf x 2>&1", "rm -rf x &> log",
     "rm -rf x &>> log", "rm -rf x <<< 'text'", "rm -rf x 2> /dev/null", "> out rm -rf x",
     "rm -rf x >| out", "rm -rf x <> f", "rm -rf x 3<&0 >&-"],
)  # fmt: skip
def test_redirections_are_not_words_of_the_command(line: str) -> None:
    assert parts(line) == (RM,)


def test_a_redirection_target_is_searched_for_commands() -> None:
    assert parts("echo > $(rm -rf x)") == (("echo",), RM)


# --- compound commands ----------------------------------------------------------------------


def test_reserved_words_of_compound_commands_are_dropped() -> None:
    assert parts("if [ -f x ]; then rm -rf x; else ls; fi") == (("[", "-f", "x", "]"), RM, ("ls",))
    assert parts("while true; do rm -rf x; done < list") == (("true",), RM)
    assert parts("! rm -rf x") == (RM,)


def test_a_for_header_runs_nothing_but_its_substitutions() -> None:
    assert parts('for f in *.py; do black "$f"; done') == (("black", "$f"),)
    assert parts("for f in $(rm -rf x); do :; done") == (RM, (":",))


def test_a_conditional_expression_runs_nothing_and_its_operators_do_not_split() -> None:
    assert parts("[[ -f x && -d y ]] && make") == (("make",),)
    assert parts('[[ "$(rm -rf x)" == y ]]') == (RM,)


def test_function_bodies_are_commands() -> None:
    assert parts("f() { rm -rf x; }; f") == (RM, ("f",))
    assert parts("function f { rm -rf x; }") == (RM,)


# --- wrappers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "wrapped"),
    [
        ("sudo rm -rf x", ("sudo", "rm", "-rf", "x")),
        ("sudo -u root -E -- rm -rf x", ("sudo", "-u", "root", "-E", "--", "rm", "-rf", "x")),
        ("sudo --user=root HOME=/ rm -rf x", ("sudo", "--user=root", "HOME=/", "rm", "-rf", "x")),
        ("doas -u root rm -rf x", ("doas", "-u", "root", "rm", "-rf", "x")),
        ("env -i A=1 rm -rf x", ("env", "-i", "A=1", "rm", "-rf", "x")),
        (
            "env -u HOME --chdir /tmp rm -rf x",
            ("env", "-u", "HOME", "--chdir", "/tmp", "rm", "-rf", "x"),
        ),
        ("env - rm -rf x", ("env", "-", "rm", "-rf", "x")),
        ("nohup rm -rf x", ("nohup", "rm", "-rf", "x")),
        ("time rm -rf x", ("time", "rm", "-rf", "x")),
        ("time -p -o t.txt rm -rf x", ("time", "-p", "-o", "t.txt", "rm", "-rf", "x")),
        ("command rm -rf x", ("command", "rm", "-rf", "x")),
        ("builtin rm -rf x", ("builtin", "rm", "-rf", "x")),
        ("exec -a name rm -rf x", ("exec", "-a", "name", "rm", "-rf", "x")),
        ("nice rm -rf x", ("nice", "rm", "-rf", "x")),
        ("nice -n 5 rm -rf x", ("nice", "-n", "5", "rm", "-rf", "x")),
        ("nice -10 rm -rf x", ("nice", "-10", "rm", "-rf", "x")),
        ("timeout 5 rm -rf x", ("timeout", "5", "rm", "-rf", "x")),
        (
            "timeout -s KILL -k 1 5m rm -rf x",
            ("timeout", "-s", "KILL", "-k", "1", "5m", "rm", "-rf", "x"),
        ),
        ("timeout --signal=KILL 5 rm -rf x", ("timeout", "--signal=KILL", "5", "rm", "-rf", "x")),
        ("xargs rm -rf x", ("xargs", "rm", "-rf", "x")),
        ("xargs -0 -n1 -I{} rm -rf x", ("xargs", "-0", "-n1", "-I{}", "rm", "-rf", "x")),
        ("xargs -P 4 -i rm -rf x", ("xargs", "-P", "4", "-i", "rm", "-rf", "x")),
        ("stdbuf -oL rm -rf x", ("stdbuf", "-oL", "rm", "-rf", "x")),
        ("stdbuf -o L -e 0 rm -rf x", ("stdbuf", "-o", "L", "-e", "0", "rm", "-rf", "x")),
    ],
)
def test_wrappers_emit_the_full_command_and_the_inner_command(
    line: str, wrapped: tuple[str, ...]
) -> None:
    assert parts(line) == (wrapped, RM)


def test_nested_wrappers_emit_every_level_outer_first() -> None:
    assert parts("sudo env A=1 nohup rm -rf x") == (
        ("sudo", "env", "A=1", "nohup", "rm", "-rf", "x"),
        ("env", "A=1", "nohup", "rm", "-rf", "x"),
        ("nohup", "rm", "-rf", "x"),
        RM,
    )


def test_a_wrapped_shell_string_is_split() -> None:
    assert parts("sudo bash -c 'rm -rf x'")[-1] == RM
    assert parts("find . | xargs sh -c 'rm -rf x'")[-1] == RM


def test_env_split_string_is_unwrapped() -> None:
    assert parts("env -S 'rm -rf' x") == (("env", "-S", "rm -rf", "x"), RM)


def test_command_v_only_looks_a_program_up() -> None:
    assert parts("command -v rm") == (("command", "-v", "rm"),)


def test_a_wrapper_without_a_command_runs_nothing_more() -> None:
    assert parts("xargs") == (("xargs",),)
    assert parts("exec 3>&1") == (("exec",),)
    assert parts("sudo -l") == (("sudo", "-l"),)


def test_an_unknown_wrapper_option_makes_the_split_incomplete() -> None:
    assert incomplete("sudo --frobnicate rm -rf x") == (
        ("sudo", "--frobnicate", "rm", "-rf", "x"),
        RM,
    )
    assert incomplete("timeout -Z 5 rm -rf x")[-1] == RM


def test_find_exec_commands_are_parts() -> None:
    assert parts("find . -name '*.o' -exec rm -rf {} \\;") == (
        ("find", ".", "-name", "*.o", "-exec", "rm", "-rf", "{}", ";"),
        ("rm", "-rf", "{}"),
    )
    assert parts("find . -execdir sudo rm -rf {} + -ok ls ;")[1:] == (
        ("sudo", "rm", "-rf", "{}"),
        ("rm", "-rf", "{}"),
        ("ls",),
    )
    assert parts("find . -exec") == (("find", ".", "-exec"),)


def test_an_absolute_program_also_appears_under_its_basename() -> None:
    assert parts("/bin/rm -rf x") == (("/bin/rm", "-rf", "x"), RM)
    assert parts("~/bin/rm -rf x") == (("~/bin/rm", "-rf", "x"), RM)
    assert parts("/usr/bin/sudo /bin/rm -rf x") == (
        ("/usr/bin/sudo", "/bin/rm", "-rf", "x"),
        ("sudo", "/bin/rm", "-rf", "x"),
        ("/bin/rm", "-rf", "x"),
        RM,
    )
    assert parts("./rm -rf x") == (("./rm", "-rf", "x"),)


# --- incomplete lines -----------------------------------------------------------------------


def test_an_unbalanced_quote_is_incomplete_but_parts_still_include_the_command() -> None:
    found = incomplete("echo 'a; rm -rf x")
    assert RM in found
    assert ("rm", "-rf", "x", "oops") in incomplete('ls && rm -rf x "oops')
    assert ("rm", "-rf", "x", "oops") in incomplete("ls && rm -rf x 'oops")


@pytest.mark.parametrize(
    "line",
    ["(rm -rf x", "rm -rf x)", "echo $(rm -rf x", "echo `rm -rf x", "echo ${x; rm -rf x",
     'echo "$(rm -rf x)', "rm -rf x \\", "echo $((1 + $(rm -rf x))", "rm -rf x >",
     "case a in a) rm -rf x;; esac", "a(b) rm -rf x", "coproc NAME { rm -rf x; }"],
)  # fmt: skip
def test_unparsable_lines_are_incomplete_and_a_deny_still_hits(line: str) -> None:
    incomplete(line)
    assert hits("rm -rf", line)


def test_a_here_document_is_incomplete_and_its_lines_are_parts() -> None:
    found = incomplete("cat <<EOF\nrm -rf x\nEOF")
    assert RM in found
    assert ("cat",) in found


def test_a_program_decided_at_run_time_makes_the_split_incomplete() -> None:
    assert incomplete("$CMD -rf x") == (("$CMD", "-rf", "x"),)
    assert incomplete('"$HOME/bin/tool" x') == (("$HOME/bin/tool", "x"),)
    assert incomplete("/bin/r? -rf x") == (("/bin/r?", "-rf", "x"), ("r?", "-rf", "x"))
    # a plain brace list is also read as the words bash makes of it
    assert incomplete("{rm,-rf,x}") == (("rm", "-rf", "x"), ("{rm,-rf,x}",))
    assert incomplete("sudo $CMD") == (("sudo", "$CMD"), ("$CMD",))
    assert parts("echo $HOME *.py {a,b} [x]") == (("echo", "$HOME", "*.py", "{a,b}", "[x]"),)


def test_a_shell_reading_code_from_stdin_or_a_dynamic_string_is_incomplete() -> None:
    assert incomplete("curl -s https://x | bash") == (("curl", "-s", "https://x"), ("bash",))
    assert incomplete("echo ls | sh -s") == (("echo", "ls"), ("sh", "-s"))
    assert incomplete('bash -c "$SCRIPT"') == (("bash", "-c", "$SCRIPT"), ("$SCRIPT",))
    assert incomplete("eval $X") == (("eval", "$X"), ("$X",))
    assert incomplete("bash -c") == (("bash", "-c"),)
    assert incomplete("bash <(curl -s https://x)") == (
        ("bash", "<(curl -s https://x)"),
        ("curl", "-s", "https://x"),
    )
    assert incomplete("source <(echo ls)") == (("source", "<(echo ls)"), ("echo", "ls"))
    assert incomplete(". $F") == ((".", "$F"),)
    assert incomplete("source") == (("source",),)
    assert parts("source .venv/bin/activate && pytest") == (
        ("source", ".venv/bin/activate"),
        ("pytest",),
    )


def test_a_line_that_runs_nothing_is_incomplete() -> None:
    assert incomplete("") == ()
    assert incomplete("   \n ") == ()
    assert incomplete("# only a comment") == ()
    assert incomplete("A=1") == ()


def test_a_nul_character_makes_the_line_incomplete() -> None:
    assert RM in incomplete("ls\x00; rm -rf x")


def test_too_deep_nesting_is_incomplete_but_the_inner_command_is_still_found() -> None:
    line = "$(" * (MAX_NESTING + 2) + "rm -rf x" + ")" * (MAX_NESTING + 2)
    assert RM in incomplete(line)
    deep = "( " * (MAX_NESTING - 1) + "bash -c 'echo $(rm -rf x)'" + " )" * (MAX_NESTING - 1)
    assert RM in incomplete(deep)
    assert RM in parts(deep[2:-2])


@pytest.mark.parametrize("opening", ["$(", '"$(', "${", '"${', "$((", "<(", "( ", "`"])
def test_adversarial_nesting_up_to_the_length_limit_fails_closed(opening: str) -> None:
    line = opening * (MAX_COMMAND_LINE_LENGTH // len(opening)) + "rm -rf x"
    result = split_command_line(line[-MAX_COMMAND_LINE_LENGTH:])
    assert not result.complete


def test_a_very_long_wrapper_chain_still_reaches_the_inner_command() -> None:
    line = "sudo " * 3000 + "rm -rf x"
    assert len(line) <= MAX_COMMAND_LINE_LENGTH
    found = incomplete(line)
    assert found[-1] == RM
    assert len(found) == 17


def test_an_overlong_line_is_incomplete_and_still_searched() -> None:
    line = "echo " + "a" * MAX_COMMAND_LINE_LENGTH + " && rm -rf x"
    assert RM in incomplete(line)


def test_a_non_string_line_is_incomplete() -> None:
    assert split_command_line(None) == CommandLine((), False)  # type: ignore[arg-type]


def test_splits_are_cached() -> None:
    assert split_command_line("git status && ls") is split_command_line("git status && ls")


# --- patterns -------------------------------------------------------------------------------


def test_a_pattern_matches_commands_that_start_with_its_words() -> None:
    push = compile_command_pattern("git push")
    assert push.matches(("git", "push"))
    assert push.matches(("git", "push", "--force", "origin"))
    assert not push.matches(("git",))
    assert not push.matches(("git", "pull"))
    assert not push.matches(("git", "-C", "x", "push"))
    assert not push.matches(("sudo", "git", "push"))


def test_a_star_matches_exactly_one_word() -> None:
    run = compile_command_pattern("npm run *")
    assert run.matches(("npm", "run", "test"))
    assert run.matches(("npm", "run", "test", "--watch"))
    assert not run.matches(("npm", "run"))
    assert compile_command_pattern("* --force").matches(("git", "--force"))
    assert not compile_command_pattern("* --force").matches(("git", "push", "--force"))


def test_a_directly_built_pattern_still_treats_star_as_a_wildcard() -> None:
    assert CommandPattern("npm run *", ("npm", "run", "*")).matches(("npm", "run", "x"))
    assert CommandPattern("git push", ("git", "push")).matches(("git", "push", "-f"))


def test_pattern_words_are_separated_by_spaces() -> None:
    pattern = compile_command_pattern("  rm   -rf ")
    assert pattern == CommandPattern(text="  rm   -rf ", words=("rm", "-rf"))
    assert repr(pattern) == "CommandPattern(text='  rm   -rf ', words=('rm', '-rf'))"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "invalid command pattern '': it has no words"),
        ("   ", "invalid command pattern '   ': it has no words"),
        ("git\tpush", "invalid command pattern 'git\\tpush': control characters are not allowed"),
        ("rm\n-rf", "invalid command pattern 'rm\\n-rf': control characters are not allowed"),
        (
            "npm run test*",
            "invalid command pattern 'npm run test*': '*' must be a whole word ('test*')",
        ),
        ("git **", "invalid command pattern 'git **': '*' must be a whole word ('**')"),
        (
            "git commit -m 'x'",
            "invalid command pattern \"git commit -m 'x'\": ' not allowed "
            "(write plain words separated by spaces)",
        ),
        (
            "a && b",
            "invalid command pattern 'a && b': & not allowed "
            "(write plain words separated by spaces)",
        ),
        (
            "echo $(x)",
            "invalid command pattern 'echo $(x)': ( ) not allowed "
            "(write plain words separated by spaces)",
        ),
    ],
)
def test_invalid_patterns_are_refused_with_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(CommandPatternError) as caught:
        compile_command_pattern(text)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


def test_overlong_and_non_string_patterns_are_refused() -> None:
    with pytest.raises(CommandPatternError) as caught:
        compile_command_pattern("a " * 600)
    assert str(caught.value) == "invalid command pattern: longer than 1024 characters"
    with pytest.raises(CommandPatternError):
        compile_command_pattern(None)  # type: ignore[arg-type]


# --- properties -----------------------------------------------------------------------------

_NOT_A_PROGRAM = {
    "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "select", "case",
    "esac", "function", "coproc", "in", "time", "sudo", "env", "nohup", "command", "builtin",
    "exec", "nice", "timeout", "xargs", "doas", "stdbuf", "eval", "bash", "sh", "zsh", "dash",
    "ksh", "mksh", "ash",
}  # fmt: skip
_programs = st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True).filter(
    lambda word: word not in _NOT_A_PROGRAM
)
_arguments = st.from_regex(r"-{0,2}[a-z0-9][a-z0-9._]{0,4}", fullmatch=True)
_prefixes = st.tuples(_programs, st.lists(_arguments, max_size=2)).map(
    lambda split: (split[0], *split[1])
)


def _double_quoted(text: str) -> str:
    return '"' + re.sub(r'([\\"$`])', r"\\\1", text) + '"'


def _backquoted(text: str) -> str:
    return "`" + re.sub(r"([\\`$])", r"\\\1", text) + "`"


@st.composite
def _quoted_word(draw: st.DrawFn, word: str) -> str:
    style = draw(st.sampled_from(["plain", "single", "double", "split", "backslash", "ansi"]))
    if style == "single":
        return f"'{word}'"
    if style == "double":
        return f'"{word}"'
    if style == "split":
        cut = draw(st.integers(0, len(word)))
        return f"{word[:cut]}''{word[cut:]}"
    if style == "backslash":
        return "".join(f"\\{char}" for char in word)
    if style == "ansi":
        return "$'" + "".join(f"\\x{ord(char):02x}" for char in word) + "'"
    return word


@st.composite
def _simple_command(draw: st.DrawFn, words: tuple[str, ...]) -> str:
    extra = draw(st.lists(_arguments, max_size=2))
    return " ".join([*(draw(_quoted_word(word)) for word in words), *extra])


_others = st.sampled_from(["echo hi", "ls -la", "true", "git status", "cat f.txt"])
_WRAPPERS = [
    "sudo ", "sudo -u root ", "env -i A=1 ", "env ", "nohup ", "timeout 5 ", "timeout -s KILL 5 ",
    "xargs ", "xargs -n1 ", "nice -n 5 ", "nice ", "stdbuf -oL ", "time ", "command ", "exec ",
    "doas ", "builtin ", "/usr/bin/env ",
]  # fmt: skip


@st.composite
def _hidden(draw: st.DrawFn, prefix: tuple[str, ...], depth: int = 0) -> tuple[str, bool]:
    """A line hiding ``prefix`` as a command; the flag tells whether it is a simple command.

    Substitutions and subshells get a blank after "(" as a shell user would write them:
    "$((" and "((" start arithmetic, where bash runs no command.
    """
    if depth >= 3 or draw(st.integers(0, 3)) == 0:
        return draw(_simple_command(prefix)), True
    inner, simple = draw(_hidden(prefix, depth + 1))
    other = draw(_others)
    forms = [
        f"{other} && {inner}", f"{inner} || {other}", f"{other}; {inner}", f"{other} | {inner}",
        f"{inner} &", f"{other}\n{inner}", f"echo $( {inner})", f"echo {_backquoted(inner)}",
        f'echo "$( {inner})"', f"( {inner} )", f"{{ {inner}; }}", f"cat <({inner})",
        f"bash -c {shlex.quote(inner)}", f"sh -c {_double_quoted(other + '; ' + inner)}",
        f"eval {shlex.quote(inner)}", f"if {other}; then {inner}; fi",
        f"for f in a b; do {inner}; done", f"x=$( {inner})",
    ]  # fmt: skip
    if simple:
        wrapper = draw(st.sampled_from(_WRAPPERS))
        # Assignments only lead a command: a wrapper other than env or sudo would run "A=1".
        forms += [f"{wrapper}{inner}", f"{inner} > out 2>&1", f"{inner} # note\n", f"A=1 {inner}"]
    line = draw(st.sampled_from(forms))
    return line, line.startswith((*_WRAPPERS, "bash -c", "sh -c", "eval"))


@settings(max_examples=200, deadline=None)
@given(data=st.data(), prefix=_prefixes)
def test_a_denied_prefix_is_found_whatever_form_hides_it(
    data: st.DataObject, prefix: tuple[str, ...]
) -> None:
    line, _ = data.draw(_hidden(prefix))
    pattern = compile_command_pattern(" ".join(prefix))
    result = split_command_line(line)
    assert any(pattern.matches(part) for part in result.parts), (line, result)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab $()`'\"\\;&|<>{}#\n=*-c")), max_size=40))
def test_any_text_splits_into_word_tuples_without_raising(line: str) -> None:
    result = split_command_line(line)
    assert isinstance(result.complete, bool)
    for part in result.parts:
        assert part
        assert all(isinstance(word, str) for word in part)
    if not result.parts:
        assert not result.complete
