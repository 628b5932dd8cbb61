"""``toolpolicy init``: write a commented starter policy, then lint it.

Exit codes: 0 the file was written and lints clean, 1 it was written but lint reports an
error, 2 a usage problem (the file exists and ``--force`` was not given, its folder does not
exist, it cannot be written). Never a traceback.
"""

from __future__ import annotations

import os
import tempfile

import click

from .errors import EXIT_FAILED, EXIT_OK, EXIT_USAGE, fail, reports_errors

__all__ = ["DEFAULT_NAME", "STARTERS", "init_cmd"]

DEFAULT_NAME = "toolpolicy.yaml"

_HEAD = """\
# yaml-language-server: $schema=toolpolicy.schema.json
# ^ completion and inline errors in editors: run `toolpolicy schema > toolpolicy.schema.json`
#
# A toolpolicy policy. Every tool call the agent proposes is decided before it runs:
# allow (it runs), ask (a human decides) or deny (refused; the model sees the reason).
# Every rule that matches a call counts and the strongest wins: deny > ask > allow. A call
# no rule matches gets the profile's default: reads allow, writes allow, commands ask.
# Whatever the rules say, a write outside the workspace is denied (the workspace boundary).
#
#   toolpolicy lint {name}                                 # check it; runs the examples
#   toolpolicy explain shell '{"command": "git push"}' --policy {name}
"""

_GENERIC = (
    _HEAD
    + """\
apiVersion: toolpolicy/v1
kind: Policy
name: project
extends: P03        # shell, read_file, write_file, edit_file, glob; P03 asks before file writes
rules:
  - name: secrets-stay-closed
    behavior: deny
    reason: Secrets are off limits; ask a maintainer for what you need
    match:
      tools: [read_file, write_file, edit_file]     # every field given must match
      paths: [".env", ".env.*", "secrets/**", "*.pem", "*.key"]   # gitignore-style globs

  - name: no-history-rewrite
    behavior: deny
    reason: Rewriting shared history needs a human at the keyboard
    match:
      commands: ["git push --force", "git push -f", "git reset --hard"]   # command prefixes

  - name: confirm-push
    behavior: ask
    reason: Pushing publishes work
    match:
      commands: ["git push"]

  - name: look-around
    behavior: allow     # keep allows to commands that cannot run other code or write files
    reason: Listing folders changes nothing
    match:
      tools: [shell]
      commands: ["ls", "pwd"]

# Self-tests: `toolpolicy lint` decides each call and fails when the answer differs.
examples:
  - call: {tool: read_file, arguments: {path: .env}}
    expect: {behavior: deny, source: secrets-stay-closed}
  - call: {tool: shell, arguments: {command: git push --force origin main}}
    expect: {behavior: deny, source: no-history-rewrite}
  - call: {tool: shell, arguments: {command: git push origin main}}
    expect: {behavior: ask, source: confirm-push}
  - call: {tool: shell, arguments: {command: ls -la src}}
    expect: {behavior: allow, source: look-around}
  - call: {tool: write_file, arguments: {path: notes.md, content: x}}
    expect: {behavior: ask, source: confirm-file-write}     # P03's own rule
  - call: {tool: write_file, arguments: {path: ../elsewhere.txt, content: x}}
    expect: {behavior: deny, source: workspace-boundary}
"""
)

_CLAUDE_CODE = (
    _HEAD
    + """\
#
# For Claude Code. Install the hook (it merges into .claude/settings.json, keeping the rest):
#   toolpolicy hook install claude-code --project --policy {name}
# Claude Code's tools reach these rules as toolpolicy's tools:
#   Bash -> shell (match it with commands), Read -> read_file, Write -> write_file,
#   Edit and MultiEdit -> edit_file; Grep, Glob and LS are reads of what they search.
#   Paths are relative to the project folder; "~/..." and "//abs/path" name files outside.
#   Other tools keep Claude Code's names (match: {tools: [WebFetch, "mcp__github__*"]}).
# A call that only a default allows gets no answer, so Claude Code's own prompt still
# applies; an allow rule answers allow and skips that prompt. An ask is Claude Code's
# prompt; a deny's reason is what Claude is told.
apiVersion: toolpolicy/v1
kind: Policy
name: project
extends: P03        # P03 asks before every Write and Edit
rules:
  - name: secrets-stay-closed
    behavior: deny
    reason: Secrets are off limits; ask a maintainer for what you need
    match:
      tools: [read_file, write_file, edit_file]     # Read (and searches), Write, Edit
      paths: [".env", ".env.*", "secrets/**", "*.pem", "*.key"]   # gitignore-style globs

  - name: credentials-stay-closed
    behavior: deny
    reason: Credentials outside the project are off limits
    match:
      tools: [read_file, write_file, edit_file]
      paths: ["~/.ssh/**", "~/.aws/**", "~/.config/gcloud/**", "//etc/shadow"]

  - name: hook-settings-stay
    behavior: deny
    reason: The agent does not change its own permissions
    match:
      tools: [write_file, edit_file]                # Write, Edit
      paths: [".claude/settings.json", ".claude/settings.local.json"]

  - name: no-history-rewrite
    behavior: deny
    reason: Rewriting shared history needs a human at the keyboard
    match:
      commands: ["git push --force", "git push -f", "git reset --hard"]   # Bash prefixes

  - name: confirm-push
    behavior: ask
    reason: Pushing publishes work
    match:
      commands: ["git push"]

  - name: look-around
    behavior: allow     # keep allows to commands that cannot run other code or write files
    reason: Listing folders changes nothing
    match:
      tools: [shell]                                # Bash
      commands: ["ls", "pwd"]

# Self-tests in toolpolicy's terms: `toolpolicy lint` decides each call as the hook would.
examples:
  - description: Read .env
    call: {tool: read_file, arguments: {path: .env}}
    expect: {behavior: deny, source: secrets-stay-closed}
  - description: Read /etc/shadow
    call: {tool: read_file, arguments: {path: /etc/shadow}}
    expect: {behavior: deny, source: credentials-stay-closed}
  - description: Edit .claude/settings.json
    call:
      tool: edit_file
      arguments: {path: .claude/settings.json, old_string: a, new_string: b}
    expect: deny        # any source: a protected file may also be denied before this rule
  - description: Bash git push --force
    call: {tool: shell, arguments: {command: git push --force origin main}}
    expect: {behavior: deny, source: no-history-rewrite}
  - description: Bash git push
    call: {tool: shell, arguments: {command: git push origin main}}
    expect: {behavior: ask, source: confirm-push}
  - description: Bash ls
    call: {tool: shell, arguments: {command: ls -la src}}
    expect: {behavior: allow, source: look-around}
  - description: Write inside the project (P03 asks)
    call: {tool: write_file, arguments: {path: notes.md, content: x}}
    expect: {behavior: ask, source: confirm-file-write}
  - description: Write outside the project
    call: {tool: write_file, arguments: {path: ../elsewhere.txt, content: x}}
    expect: {behavior: deny, source: workspace-boundary}
"""
)

STARTERS = {"generic": _GENERIC, "claude-code": _CLAUDE_CODE}
"""``--agent`` → the starter policy; ``{name}`` stands for the file's name."""


@click.command("init")
@click.argument("path", required=False, type=click.Path(), metavar="[PATH]")
@click.option(
    "--agent",
    type=click.Choice(sorted(STARTERS)),
    default="generic",
    show_default=True,
    help="Tailor the comments and rules to an agent's tools (claude-code: the hook's mapping).",
)
@click.option("--force", is_flag=True, help="Replace the file if it exists.")
@reports_errors
def init_cmd(path: str | None, agent: str, force: bool) -> int:
    """Write a commented starter policy, then lint it.

    PATH is the file to write (default: toolpolicy.yaml here); a folder gets a
    toolpolicy.yaml inside it. An existing file is never replaced without --force.

    \b
    Examples:
      toolpolicy init
      toolpolicy init --agent claude-code
      toolpolicy init policy/team.yaml --force

    Exit codes: 0 written and lint passes, 1 written but lint reports an error, 2 the file
    exists (without --force), its folder does not exist, or it cannot be written.
    """
    target = path or DEFAULT_NAME
    if os.path.isdir(target):
        target = os.path.join(target, DEFAULT_NAME)
    folder = os.path.dirname(target) or os.curdir
    if not os.path.isdir(folder):
        raise fail(f"no such folder: {folder}", EXIT_USAGE)
    text = STARTERS[agent].replace("{name}", os.path.basename(target))
    _write(target, text, replace=force)
    click.echo(f"toolpolicy: wrote {target}", err=True)
    if agent == "claude-code":
        click.echo(
            "toolpolicy: to use it in Claude Code: "
            f"toolpolicy hook install claude-code --project --policy {target}",
            err=True,
        )

    from ..lint import FORMATS, Severity, lint_paths

    result = lint_paths([target])
    click.echo(FORMATS["text"](result.findings, len(result.files)), nl=False)
    if any(f.severity >= Severity.ERROR for f in result.findings):
        return EXIT_FAILED
    return EXIT_OK


def _write(target: str, text: str, *, replace: bool) -> None:
    """Write ``text`` to ``target``: never over an existing path unless ``replace``.

    Without ``replace`` the file is created exclusively (an existing file, folder or
    symlink, even a dangling one, refuses). With it the text goes to a temporary file
    beside the target first and is renamed over it whole, replacing a symlink itself,
    never the file it points to.
    """
    mode = 0o666 & ~_umask()
    try:
        if not replace:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            return
        fd, temporary = tempfile.mkstemp(
            prefix=".toolpolicy-init-", dir=os.path.dirname(target) or None
        )
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.chmod(temporary, mode)
            os.replace(temporary, target)
        finally:
            if os.path.lexists(temporary):
                os.unlink(temporary)
    except FileExistsError:
        raise fail(f"{target} exists; pass --force to replace it", EXIT_USAGE) from None
    except OSError as exc:
        raise fail(f"cannot write {target}: {exc.strerror or exc}", EXIT_USAGE) from None


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current
