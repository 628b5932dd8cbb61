"""What programs do with their arguments, in one table.

Five questions are asked of a program name: does the shell itself treat it specially when
it is the first word of a command (a reserved word, or a builtin that runs or defines code or
changes the shell's state — then the plain subset refuses the line, see
:mod:`toolpolicy.compile.plain_subset`); does it run other code given in its arguments (then
an allow naming it lets anything run; ``lint`` warns with ``allow-runs-code``); does it
only list the folders it is given, never reading their files (``lists_only``: a folder
another program names may be read whole); does it read the folder it runs in, whole,
when given no folder (``reads_working_folder``); does it only read the files it names
(``reads_only``: any other program may write, move or remove them); and which folders may
it write anything below (``writes_below``: ``rm -r .`` removes ``.git`` too).

A deny needs neither table: it finds its program anywhere in the line
(:mod:`toolpolicy.compile.command_scan`), whatever wraps it.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

__all__ = [
    "CONFIGURING",
    "RESERVED_WORDS",
    "RUNS_CODE",
    "SHELLS",
    "SHELL_BUILTINS",
    "WRITES_BELOW",
    "WRITES_BELOW_HINTS",
    "builtin_refusal",
    "config_written",
    "lists_only",
    "reads_only",
    "reads_working_folder",
    "runs_code",
    "writes_below",
]

SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh"})

RESERVED_WORDS = frozenset(
    {"!", "{", "}", "[[", "]]", "if", "then", "else", "elif", "fi", "case", "esac", "for",
     "select", "while", "until", "do", "done", "in", "function", "time", "coproc"}
)  # fmt: skip
"""Words that open or close a compound command when they come first: never plain."""

_RUNS = "runs the code given in its arguments"
_DEFINES = "defines code that runs later"
_EVALUATES = "evaluates an array subscript (arithmetic, which can run commands)"
_STATE = "changes the shell's state for the commands after it"
_RUNS_COMMAND = "runs its arguments as a command"

SHELL_BUILTINS: MappingProxyType[str, str] = MappingProxyType(
    {
        "eval": _RUNS, "source": _RUNS, ".": _RUNS, "exec": _RUNS_COMMAND,
        "command": _RUNS_COMMAND, "builtin": _RUNS_COMMAND, "alias": _DEFINES,
        "unalias": _STATE, "trap": _DEFINES, "hash": _STATE, "enable": "loads builtins",
        "mapfile": _RUNS, "readarray": _RUNS, "compgen": _RUNS, "complete": _DEFINES,
        "bind": _DEFINES, "fc": _RUNS, "history": _STATE, "declare": _EVALUATES,
        "typeset": _EVALUATES, "local": _EVALUATES, "let": _EVALUATES, "read": _EVALUATES,
        "readonly": _EVALUATES, "export": _STATE, "unset": _EVALUATES, "getopts": _EVALUATES,
        "wait": _EVALUATES, "shift": _EVALUATES, "return": _EVALUATES, "exit": _EVALUATES,
        "set": _STATE, "shopt": _STATE, "cd": _STATE, "pushd": _STATE, "popd": _STATE,
        "umask": _STATE, "ulimit": _STATE,
    }
)  # fmt: skip
"""Builtins a plain line may not call, with why (``printf -v`` and ``test -v`` below)."""

_OPTION_BUILTINS = {"printf": ("-v",), "test": ("-v", "-R"), "[": ("-v", "-R")}

_INTERPRETERS = frozenset(
    {"python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "deno", "bun", "perl",
     "ruby", "php", "lua", "Rscript", "osascript", "pwsh", "powershell", "tclsh", "awk",
     "gawk"}
)  # fmt: skip
_WRAPPERS = frozenset(
    {"env", "sudo", "doas", "su", "runuser", "xargs", "nohup", "nice", "ionice", "timeout",
     "time", "taskset", "flock", "strace", "ltrace", "setsid", "stdbuf", "chroot", "unshare",
     "nsenter", "watch", "script", "busybox", "parallel"}
)  # fmt: skip
_GIT_CODE = frozenset(
    {"-c", "--config-env", "--exec-path", "submodule", "rebase", "bisect", "filter-branch",
     "difftool", "mergetool", "config", "daemon", "instaweb", "send-email", "archimport"}
)  # fmt: skip

RUNS_CODE: MappingProxyType[str, str] = MappingProxyType(
    {
        **dict.fromkeys(SHELLS, "a shell runs any script it is given"),
        **dict.fromkeys(_INTERPRETERS, "an interpreter runs any program it is given"),
        **dict.fromkeys(_WRAPPERS, "it runs the command given in its arguments"),
        "find": "find -exec, -execdir, -ok and -okdir run any command",
        "ssh": "ssh runs any command line on the remote machine",
        "git": "git -c/--config-env and subcommands such as rebase --exec or submodule "
        "foreach run any program",
        "sed": "sed's e command and s///e flag run any command line",
        "tar": "tar --to-command, --checkpoint-action=exec and -I run any program",
        "zip": "zip -TT runs any command to test the archive",
        "rsync": "rsync -e and --rsync-path run any program",
        "vim": "vim runs any command (:!, -c, +)",
        "ex": "ex runs any command (:!, -c, +)",
        "vi": "vi runs any command (:!, -c, +)",
        "nvim": "nvim runs any command (:!, -c, +)",
        "sort": "sort --compress-program runs any program",
        "npx": "npx downloads and runs any package",
        "uvx": "uvx downloads and runs any package",
        "pipx": "pipx run downloads and runs any package",
    }
)  # fmt: skip
"""Programs that can run other code named in their arguments, with the reason."""


def runs_code(words: tuple[str, ...]) -> str | None:
    """Why an allow on the command prefix ``words`` lets other code run, or ``None``.

    A shell or interpreter whose next word pins what it runs (a script, ``-m MODULE``) is
    specific; ``git`` is when a subcommand that runs nothing else is pinned; a wrapper is when
    it names a command (``sudo apt-get update``) that runs no other code itself.
    """
    program = words[0].rsplit("/", 1)[-1]
    reason = RUNS_CODE.get(program)
    if reason is None:
        return None
    following = words[1] if len(words) > 1 else "*"
    if program in SHELLS or program in _INTERPRETERS:
        pinned = following == "-m" and len(words) > 2 and words[2] != "*"
        if pinned or (following != "*" and not following.startswith("-")):
            return None
    pinned_subcommand = following != "*" and not following.startswith("-")
    if program == "git" and pinned_subcommand and _GIT_CODE.isdisjoint(words):
        return None
    if program in _WRAPPERS:
        inner = [w for w in words[1:] if w != "*" and not w.startswith("-") and "=" not in w]
        if inner and not any(w.rsplit("/", 1)[-1] in RUNS_CODE for w in inner):
            return None
    return reason


_LISTERS = frozenset({"ls", "dir", "vdir", "du", "tree", "stat"})
_RECURSIVE_SEARCHERS = frozenset({"rg", "ag", "ack", "ack-grep", "pt", "rgrep"})
_GREPS = frozenset({"grep", "egrep", "fgrep", "ugrep", "bsdgrep", "zgrep"})
_FIND_READS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def lists_only(words: tuple[str, ...]) -> bool:
    """Whether the command ``words`` only lists the folders it names (names, sizes,
    metadata), never reading the files in them: ``ls``, ``du``, ``tree``, ``stat``, and
    ``find`` without ``-exec``-like actions."""
    program = words[0].rsplit("/", 1)[-1]
    if program == "find":
        return _FIND_READS.isdisjoint(words)
    return program in _LISTERS


_READERS = frozenset(
    {"cat", "tac", "head", "tail", "wc", "nl", "od", "hexdump", "strings", "ls", "dir", "vdir",
     "du", "stat", "diff", "cmp", "comm", "md5sum", "sha1sum", "sha224sum", "sha256sum",
     "sha384sum", "sha512sum", "b2sum", "cksum", "sum", "readlink", "realpath", "basename",
     "dirname", "echo", "true", "false", "test", "[", "pwd", "which", "cut", "paste", "join",
     "column", "fold", "fmt", "expand", "unexpand", "rev", "jq", "base64", "base32",
     *_GREPS, *_RECURSIVE_SEARCHERS}
)  # fmt: skip
"""Programs that write no file they are given (their output goes to standard output)."""
_FIND_WRITES = _FIND_READS | {"-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}
_GIT_READS = frozenset(
    {"status", "log", "diff", "show", "grep", "ls-files", "ls-tree", "blame", "rev-parse",
     "cat-file", "describe", "shortlog"}
)  # fmt: skip


def reads_only(words: tuple[str, ...]) -> bool:
    """Whether the command ``words`` only reads the files it names: a program of the
    readers' table, ``find`` without an action that writes, deletes or runs, and ``git``
    with a reading subcommand right after it and no ``--output``. Every other program may
    write, move or remove what its arguments name (``cp x .git/config``, ``touch``,
    ``dd of=``, ``sed -i``, ``sort -o``, ``tee``, ``git checkout -- f``)."""
    program = words[0].rsplit("/", 1)[-1]
    if program == "find":
        return _FIND_WRITES.isdisjoint(words)
    if program == "git":
        return (
            len(words) > 1
            and words[1] in _GIT_READS
            and not any(w == "-o" or w.startswith("--output") for w in words)
        )
    return program in _READERS


_RECURSIVE_LETTERS = MappingProxyType(
    {"rm": "rR", "chmod": "R", "chown": "R", "chgrp": "R", "chattr": "R", "setfacl": "R",
     "cp": "rRa", "rsync": "ra"}
)  # fmt: skip
"""The option letters that make a program act on everything below a folder operand."""
_ON_OPERANDS = frozenset(_RECURSIVE_LETTERS.keys() - {"cp", "rsync"})
"""Those that act on every operand; ``cp`` and ``rsync`` write into their destination."""
_RECURSIVE_WORDS = frozenset({"--recursive", "--archive"})
_TARGET_OPTIONS = frozenset({"-t", "--target-directory"})
_FIND_LEADING = frozenset({"-H", "-L", "-P"})
_FIND_DO = ("-D", "-O")  # debug options (-D takes a value) and the optimisation level


def writes_below(words: tuple[str, ...]) -> tuple[tuple[str, bool], ...]:
    """The folders the command ``words`` may write anything below (remove, change, replace),
    each with whether it may even when it is the folder the line runs in (``whole``):

    * ``rm -r`` (``-R``, ``--recursive``, in a cluster such as ``-rf``) and ``chmod``,
      ``chown``, ``chgrp``, ``chattr``, ``setfacl`` with ``-R``: every operand, whole;
    * ``find`` with ``-delete``, or an ``-exec``-like action running a command that does
      not only read (``-exec sed -i``, ``-exec sh -c``; not ``-exec grep``): every start
      point (``.`` when it names none), whole;
    * ``rsync -r``/``-a``: its destination, whole (``--delete`` empties it, the source's
      tree lands in it);
    * ``cp -r``/``-R``/``-a``: its destination, whole when a folder's contents are copied
      (a source ``src/.``, ``-T``); ``mv``: its destination, whole with ``-T`` (it
      replaces the destination). Otherwise not whole: a
      destination that does not exist becomes the copy (``cp -r tpl .claude`` may make a
      ``.claude/settings.json``), but the folder the line runs in always exists;
    * an archive extracted or a patch applied (``tar x``, ``unzip``, ``7z x``, ``cpio -i``,
      ``pax -r``, ``patch``): the folder it writes into (``-C``, ``-d``, ``-o``; the one
      the line runs in by default), whole: the archive or the patch names the files
      (``.git/hooks/pre-commit``), not the line;
    * ``git config`` that sets, adds, removes or edits (not ``--get``, ``--list``, nor one
      name alone) in the repository's own file: its ``.git`` (``core.hooksPath`` or
      ``core.fsmonitor`` there run any program at the next ``git commit``); ``git init``
      and ``git clone`` with a template or configuration (``--template``, ``-c``): the
      ``.git`` they fill (a template's hooks run at the next commit); ``git apply`` and
      ``git am`` (not ``--check``, ``--stat``, ``--cached``…): the folder they apply into
      (``--directory``; the one the line runs in by default), whole, as ``patch``.
    """
    program = words[0].rsplit("/", 1)[-1]
    if program == "ln":
        return tuple((folder, True) for folder in _linked(words[1:]))
    if program == "find":
        if not _find_changes(words):
            return ()
        return tuple((start, True) for start in _find_starts(words))
    if program == "git":
        return _git_writes(words)
    if program in _EXTRACTORS:
        return tuple((folder, True) for folder in _EXTRACTORS[program](words[1:]))
    letters = _RECURSIVE_LETTERS.get(program)
    if letters is None and program != "mv":
        return ()
    options: list[str] = []
    operands: list[str] = []
    target: str | None = None
    pending = False  # the last word was -t: this one is the destination
    for index, word in enumerate(words[1:], 1):
        if pending:
            target, pending = word, False
        elif word == "--":
            operands.extend(words[index + 1 :])
            break
        elif word.startswith("-") and word != "-":
            name, equals, value = word.partition("=")
            if name in _TARGET_OPTIONS:
                target, pending = (value, False) if equals else (None, True)
            options.append(word)
        else:
            operands.append(word)
    recursive = letters is not None and any(
        option in _RECURSIVE_WORDS or _cluster_has(option, letters) for option in options
    )
    if program in _ON_OPERANDS:
        return tuple((operand, True) for operand in operands) if recursive else ()
    if program != "mv" and not recursive:
        return ()
    destination = target if target is not None else (operands[-1] if len(operands) > 1 else None)
    if destination is None:
        return ()
    sources = operands if target is not None else operands[:-1]
    replaced = any(o == "--no-target-directory" or _cluster_has(o, "T") for o in options)
    contents = (
        program == "rsync"
        or replaced
        or (program == "cp" and any(_copies_contents(source) for source in sources))
    )
    return ((destination, contents),)


_GIT_VALUED = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"})
_CONFIG_READS = frozenset(
    {"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool",
     "--list", "-l", "--show-origin", "--show-scope", "--name-only"}
)  # fmt: skip
_CONFIG_ELSEWHERE = frozenset({"--global", "--system", "--file", "-f", "--blob"})
_SEEDED = frozenset({"--template", "-c", "--config", "--separate-git-dir"})
_APPLY_ONLY_READS = frozenset({"--check", "--stat", "--numstat", "--summary", "--cached"})


def _git_writes(words: tuple[str, ...]) -> tuple[tuple[str, bool], ...]:
    """``writes_below`` for ``git``: the ``.git`` a ``git config`` writes, or that ``git init``
    or ``git clone`` fills from a template or configures (``--template``, ``-c``), and the
    folder ``git apply`` or ``git am`` applies a patch into."""
    index, folder, git_dir = _git_options(words)
    subcommand, rest = words[index : index + 1], words[index + 1 :]
    options = {w.partition("=")[0] for w in rest if w.startswith("-")}
    named = [w for w in rest if not w.startswith("-")]
    if subcommand == ("config",):
        if not _CONFIG_ELSEWHERE.isdisjoint(options) or not _config_sets(options, named):
            return ()
    elif subcommand in (("apply",), ("am",)):
        if not _APPLY_ONLY_READS.isdisjoint(options):
            return ()
        # like ``patch``: the patch names the files (``.claude/settings.json``), not the line
        into = [w.partition("=")[2] for w in rest if w.startswith("--directory=")]
        return tuple((_below(folder, target), True) for target in (into or ["."]))
    elif subcommand in (("init",), ("clone",)):
        if _SEEDED.isdisjoint(options):
            return ()  # the default template holds only samples
        # the folder it fills: an operand, or the folder it runs in (a value of an option
        # may stand where the operand does: every one counts)
        return tuple((_below(folder, f"{target}/.git"), True) for target in (*named, "."))
    else:
        return ()
    return ((git_dir if git_dir is not None else _below(folder, ".git"), True),)


def _git_options(words: tuple[str, ...]) -> tuple[int, str, str | None]:
    """Where ``git``'s own options (before the subcommand) end in ``words``, the folder
    ``-C`` moves to (``""``: the one it runs in) and the ``--git-dir`` given, if any."""
    folder = ""
    git_dir: str | None = None
    index = 1
    while index < len(words) and words[index].startswith("-"):
        name, equals, value = words[index].partition("=")
        if name in _GIT_VALUED and not equals:
            value, index = (words[index + 1] if index + 1 < len(words) else ""), index + 1
        if name == "-C":
            folder = _below(folder, value)
        elif name == "--git-dir":
            git_dir = value
        index += 1
    return index, folder, git_dir


def _config_sets(options: set[str], named: list[str]) -> bool:
    """Whether ``git config`` with ``options`` and the words ``named`` writes its file:
    not a ``--get``, ``--list``…, nor one name alone (``git config user.name``)."""
    if not _CONFIG_READS.isdisjoint(options):
        return False
    plain = {"--local", "--worktree", "--global", "--system", "--type", "--bool", "--int"}
    return len(named) >= 2 or not options <= plain


_USER_CONFIG = {"--global": "~/.gitconfig", "--system": "/etc/gitconfig"}


def config_written(words: tuple[str, ...]) -> tuple[str, ...]:
    """The configuration file outside the workspace that the command ``words`` writes:
    ``git config --global`` (``~/.gitconfig``) and ``--system`` (``/etc/gitconfig``), where
    ``core.fsmonitor``, ``core.hooksPath`` or an ``alias.x=!…`` run any program in every
    repository; ``npm config set`` (``npm set``, ``delete``, ``edit``): ``~/.npmrc`` (or the
    global one), where ``script-shell`` runs for every ``npm run``. Outside every sandbox.
    Decided as a redirection to that file: a write outside the workspace."""
    program = words[0].rsplit("/", 1)[-1]
    if program == "npm":
        return _npm_config(words[1:])
    if program != "git":
        return ()
    index = _git_options(words)[0]
    if words[index : index + 2] in (("maintenance", "register"), ("maintenance", "start")):
        return ("~/.gitconfig",)  # it registers the repository in the user's configuration
    if words[index : index + 1] != ("config",):
        return ()
    rest = words[index + 1 :]
    options = {w.partition("=")[0] for w in rest if w.startswith("-")}
    files = tuple(_USER_CONFIG[o] for o in ("--global", "--system") if o in options)
    named = [w for w in rest if not w.startswith("-")]
    return files if files and _config_sets(options, named) else ()


CONFIGURING = frozenset({"git", "npm"})
"""The programs ``config_written`` reads."""

_NPM_CONFIG_WRITES = frozenset({"set", "delete", "edit", "fix"})


def _npm_config(arguments: tuple[str, ...]) -> tuple[str, ...]:
    """``config_written`` for ``npm``: ``npm config set …`` (``npm set``, ``npm c set``)
    writes the user's ``~/.npmrc``; ``-g``/``--global``/``--location=global`` the global
    one; ``--location=project`` the workspace's own, and ``--userconfig=FILE`` that file
    (named on the line: decided as the argument it is)."""
    named = [a for a in arguments if not a.startswith("-")]
    if named[:1] in (["config"], ["c"]):
        named = named[1:]
    if not named or named[0] not in _NPM_CONFIG_WRITES:
        return ()
    options = {a.partition("=")[0]: a.partition("=")[2] for a in arguments if a.startswith("-")}
    if options.get("--location") == "project" or "--userconfig" in options:
        return ()
    globally = "-g" in options or "--global" in options or options.get("--location") == "global"
    return ("/etc/npmrc",) if globally else ("~/.npmrc",)


def _linked(arguments: tuple[str, ...]) -> list[str]:
    """The folders a symbolic ``ln`` links to, as seen from the workspace: a relative target
    from the folder the link lands in (``ln -s ../.claude sub/c`` links ``.claude``;
    ``-t DIR``; the last operand, or the folder it names). A link to a folder lets any later
    command write below it by another name (``ln -s .claude c && mv c e && cp x
    e/settings.json``), so the folder counts as written below, whole."""
    if not any(w in ("--symbolic", "-s") or _cluster_has(w, "s") for w in arguments):
        return []
    into = _valued(arguments, "-t", "--target-directory")
    operands = [w for w in arguments if not w.startswith("-") and w not in into]
    if into:
        targets, places = operands, into
    elif len(operands) >= 2:
        last = operands[-1].rstrip("/")
        targets, places = operands[:-1], [last.rpartition("/")[0] or ".", last]
    else:
        targets, places = operands, ["."]
    found: list[str] = []
    for target in targets:
        if target.startswith(("/", "~")):
            found.append(target)
        else:
            found.extend(f"{place.rstrip('/')}/{target}" for place in places)
        # a target bash builds at run time ends in what the line shows (``"$PWD/.claude"``)
        parts = target.split("/")
        found.extend("/".join(parts[index:]) for index in range(1, len(parts)))
    return found


def _below(folder: str, path: str) -> str:
    """``path`` as seen from the folder ``git -C`` names (``""``: the one it runs in)."""
    return path if path.startswith("/") or not folder else f"{folder.rstrip('/')}/{path}"


def _cluster_has(word: str, letters: str) -> bool:
    """Whether ``word`` is a short option or a cluster of them (``-rf``, ``-xzf``) holding
    one of ``letters``."""
    return word[:1] == "-" and word[1:2] != "-" and any(letter in word[1:] for letter in letters)


def _valued(arguments: tuple[str, ...], short: str, long: str) -> list[str]:
    """Every value of the option ``short`` (``-C DIR``, ``-CDIR``) or ``long``
    (``--directory=DIR``, ``--directory DIR``) in ``arguments``."""
    found: list[str] = []
    for index, word in enumerate(arguments):
        following = arguments[index + 1] if index + 1 < len(arguments) else ""
        name, equals, value = word.partition("=")
        if word == short or (name == long and not equals):
            found.append(following)
        elif name == long:
            found.append(value)
        elif word.startswith(short) and not word.startswith("--"):
            found.append(word[len(short) :])
    return found


def _tar_into(arguments: tuple[str, ...]) -> list[str]:
    first = arguments[0] if arguments else ""
    extracting = (first[:1] != "-" and "x" in first) or any(
        w in ("--extract", "--get") or _cluster_has(w, "x") for w in arguments
    )
    return (_valued(arguments, "-C", "--directory") or ["."]) if extracting else []


def _unzip_into(arguments: tuple[str, ...]) -> list[str]:
    into = _valued(arguments, "-d", "--exdir")
    options = [w for w in arguments if not w.startswith(("-d", "--"))]
    if any(_cluster_has(w, _UNZIP_READS) for w in options):
        return []  # lists, tests or prints to standard output (``-d.claude`` is a folder)
    return into or ["."]


def _ar_into(arguments: tuple[str, ...]) -> list[str]:
    into = _valued(arguments, "--output", "--output")
    operation = next((w for w in arguments if not w.startswith("-") and w not in into), "")
    extracting = "x" in operation or any(_cluster_has(w, "x") for w in arguments)
    return (into or ["."]) if extracting else []


def _pip_into(arguments: tuple[str, ...]) -> list[str]:
    return _valued(arguments, "-t", "--target") if "install" in arguments else []


def _wget_into(arguments: tuple[str, ...]) -> list[str]:
    """The folder ``wget`` saves into when the names come from elsewhere: a
    ``--directory-prefix`` (``-P``), or a URL list (``-i``) in the folder it runs in."""
    prefix = _valued(arguments, "-P", "--directory-prefix")
    listed = _valued(arguments, "-i", "--input-file")
    return prefix or (["."] if listed else [])


def _curl_into(arguments: tuple[str, ...]) -> list[str]:
    """A ``curl`` configuration file (``-K``) names its outputs: the folder it runs in."""
    return ["."] if _valued(arguments, "-K", "--config") else []


def _python_into(arguments: tuple[str, ...]) -> list[str]:
    """``python -m zipfile -e ARCHIVE DEST`` and ``-m tarfile -e ARCHIVE [DEST]``."""
    if "-m" not in arguments:
        return []
    at = arguments.index("-m")
    if arguments[at + 1 : at + 2] not in (("zipfile",), ("tarfile",)):
        return []
    rest = arguments[at + 2 :]
    if not any(w in ("-e", "--extract") for w in rest):
        return []
    operands = [w for w in rest if not w.startswith("-")]
    return operands[1:2] or ["."]


def _split_into(arguments: tuple[str, ...]) -> list[str]:
    """``split`` writes files named by its prefix (the second operand) and suffixes it
    chooses: the prefix's folder, when it names one."""
    operands = [w for w in arguments if not w.startswith("-")]
    folder = operands[1].rpartition("/")[0] if len(operands) > 1 else ""
    return [folder] if folder else []


def _7z_into(arguments: tuple[str, ...]) -> list[str]:
    command = next((w for w in arguments if not w.startswith("-")), "")
    return (
        [w[2:] for w in arguments if w.startswith("-o")] or ["."] if command in ("x", "e") else []
    )


def _cpio_into(arguments: tuple[str, ...]) -> list[str]:
    extracting = any(
        w in ("--extract", "--pass-through") or _cluster_has(w, "ip") for w in arguments
    )
    operands = [w for w in arguments if not w.startswith("-")]
    return [*_valued(arguments, "-D", "--directory"), *operands[-1:], "."] if extracting else []


def _pax_into(arguments: tuple[str, ...]) -> list[str]:
    reading = any(_cluster_has(w, "r") for w in arguments)
    operands = [w for w in arguments if not w.startswith("-")]
    return [*operands[-1:], "."] if reading else []


def _patch_into(arguments: tuple[str, ...]) -> list[str]:
    if "--dry-run" in arguments or _valued(arguments, "-o", "--output"):
        return []  # changes nothing, or writes the one file it names
    return _valued(arguments, "-d", "--directory") or ["."]


_UNZIP_READS = "lvtZpcz"
_EXTRACTORS: MappingProxyType[str, Callable[[tuple[str, ...]], list[str]]] = MappingProxyType(
    {"tar": _tar_into, "bsdtar": _tar_into, "gtar": _tar_into, "unzip": _unzip_into,
     "7z": _7z_into, "7za": _7z_into, "7zr": _7z_into, "cpio": _cpio_into, "pax": _pax_into,
     "patch": _patch_into, "ar": _ar_into, "pip": _pip_into, "pip3": _pip_into,
     "wget": _wget_into, "curl": _curl_into, "split": _split_into, "python": _python_into,
     "python3": _python_into}
)  # fmt: skip
"""Programs that write files something other than the line names (an archive, a patch, a
package, a server, a configuration file, the program's own suffixes), and where."""

WRITES_BELOW = frozenset({*_RECURSIVE_LETTERS, "find", "mv", "git", "ln", *_EXTRACTORS})
"""The programs ``writes_below`` knows: a line naming none of them writes below no folder."""
WRITES_BELOW_HINTS = frozenset(
    {*WRITES_BELOW - {"git"}, "config", "init", "clone", "apply", "am", "set", "npm", "maintenance"}
)
"""Words one of which a line's text holds whenever ``writes_below`` finds a folder in it,
if bash makes its words from the text as written (no quote, escape or expansion): ``git``
writes below a folder only for ``config``, ``init``, ``clone``, ``apply`` and ``am``; and
one of them is in every line ``config_written`` finds a file in (``git config``, ``npm``)."""


def _copies_contents(source: str) -> bool:
    """Whether ``cp -r`` copies what the folder ``source`` holds, not the folder: ``src/.``."""
    trimmed = source.rstrip("/")
    return trimmed == "." or trimmed.endswith("/.")


def _find_changes(words: tuple[str, ...]) -> bool:
    """Whether ``find`` may change what it walks: ``-delete``, or an ``-exec``-like action
    whose command is not one that only reads (``-exec grep -l x {} +`` reads)."""
    if "-delete" in words:
        return True
    for index, word in enumerate(words):
        if word in _FIND_READS:
            command: list[str] = []
            for following in words[index + 1 :]:
                if following in (";", "+"):
                    break
                command.append(following)
            if not command or not reads_only(tuple(command)):
                return True
    return False


def _find_starts(words: tuple[str, ...]) -> list[str]:
    """The start points of ``find`` (``.`` when it names none)."""
    index = 1
    while index < len(words) and (words[index] in _FIND_LEADING or words[index][:2] in _FIND_DO):
        index += 2 if words[index] == "-D" else 1
    starts: list[str] = []
    for word in words[index:]:
        if word.startswith(("-", "(", "!", ",")):
            break
        starts.append(word)
    return starts or ["."]


def builtin_refusal(words: tuple[str, ...]) -> str | None:
    """Why a plain line may not run the command ``words`` (its first word is the program),
    or ``None``."""
    program = words[0]
    reason = SHELL_BUILTINS.get(program)
    if reason is not None:
        return f"'{program}' {reason}"
    options = _OPTION_BUILTINS.get(program)
    if options is not None and any(word.startswith(options) for word in words[1:]):
        return f"'{program} {options[0]}' {_EVALUATES}"
    return None


# What the searchers' options are, as far as telling a pattern from a file operand needs: an
# option not listed here is taken to consume the next word (then fewer words are file
# operands, and the working folder is taken as read: the safe side).
_FLAG_LETTERS = frozenset("EFGPiyvwxcLloqsbHhnTZzrRUaIVuSNJ0123456789")
_VALUE_LETTERS = {"grep": frozenset("efmABCdD"), "search": frozenset("efmABCgtTMjErdGp")}
_PATTERN_OPTIONS = frozenset({"--regexp", "--file"})
_RECURSE_OPTIONS = frozenset({"-d", "--directories"})  # with the value "recurse"
_FLAG_WORDS = frozenset(
    {"--recursive", "--dereference-recursive", "--ignore-case", "--no-ignore-case",
     "--smart-case", "--invert-match", "--word-regexp", "--line-regexp", "--count",
     "--files-with-matches", "--files-without-match", "--only-matching", "--quiet",
     "--silent", "--no-messages", "--byte-offset", "--with-filename", "--no-filename",
     "--line-number", "--no-line-number", "--initial-tab", "--null", "--null-data", "--text",
     "--binary", "--extended-regexp", "--fixed-strings", "--basic-regexp", "--perl-regexp",
     "--line-buffered", "--no-group-separator", "--hidden", "--no-ignore", "--follow",
     "--files", "--heading", "--no-heading", "--column", "--vimgrep", "--json", "--stats",
     "--multiline", "--pcre2", "--unrestricted", "--literal", "--color", "--colour"}
)  # fmt: skip


def reads_working_folder(words: tuple[str, ...]) -> bool:
    """Whether the command ``words`` reads the folder it runs in, whole, without naming it:
    a recursive search given no file operand (``grep -r SECRET``, ``rg SECRET``: "if no
    file operand is given, grep searches the working directory") and ``git grep``, which
    reads the repository's files whatever it is given."""
    program = words[0].rsplit("/", 1)[-1]
    if program == "git":
        return "grep" in words[1:]
    if program not in _GREPS and program not in _RECURSIVE_SEARCHERS:
        return False
    values = _VALUE_LETTERS["grep" if program in _GREPS else "search"]
    recursive = program in _RECURSIVE_SEARCHERS
    positional: list[str] = []
    pattern_given = False
    pending: str | None = None  # the option that consumes the next word
    for index, word in enumerate(words[1:], 1):
        if pending is not None:
            recursive = recursive or (pending in _RECURSE_OPTIONS and word == "recurse")
            pending = None
        elif word == "--":
            positional.extend(words[index + 1 :])
            break
        elif not word.startswith("-") or word == "-":
            positional.append(word)
        elif word.startswith("--"):
            name, equals, value = word.partition("=")
            recursive = recursive or name in ("--recursive", "--dereference-recursive")
            recursive = recursive or (name in _RECURSE_OPTIONS and value == "recurse")
            pattern_given = pattern_given or name in _PATTERN_OPTIONS
            pending = None if equals or name in _FLAG_WORDS else name
        else:
            for offset, letter in enumerate(word[1:], 2):
                recursive = recursive or letter in "rR"
                if letter in values or letter not in _FLAG_LETTERS:
                    rest = word[offset:]
                    recursive = recursive or (letter == "d" and rest == "recurse")
                    pattern_given = pattern_given or letter in "ef"
                    pending = None if rest else f"-{letter}"
                    break
    if not recursive:
        return False
    operands = positional if pattern_given else positional[1:]
    return not operands
