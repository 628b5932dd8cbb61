"""``toolpolicy run``: the agent loop with real tools, terminal approval and an audit log.

stdout gets the final answer and nothing else; stderr gets the approval prompts, the
``[Permission]`` lines and one-line errors. Exit codes: 0 final answer, 1 run error (turn
limit, incomplete reply, model failure), 2 usage or configuration error, 130 Ctrl-C.
"""

from __future__ import annotations

import json
import shutil
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from types import FrameType
from typing import IO, TYPE_CHECKING, Any

import click

from ..agent.compose import build_agent
from ..agent.errors import AgentRunError
from ..agent.loop import DEFAULT_MAX_TURNS, MAX_TURNS_LIMIT, AgentRunner
from ..agent.messages import chat_messages
from ..agent.model import ModelClient
from ..agent.openai_client import OpenAIChatModel
from ..agent.scripted import ScriptedModel
from ..core.errors import AuditFileError
from ..core.protocols import ApprovalRequest, AuditSink
from ..core.vocabulary import ApprovalOutcome, SandboxMode
from ..engine.approval import ApprovalService
from ..engine.audit import JsonlAuditSink, TerminalAuditSink
from ..engine.selection import ToolPolicy
from ..engine.terminal_approval import TerminalApproval
from .errors import EXIT_FAILED, EXIT_OK, fail, reports_errors
from .selection import selection_from, selection_options

if TYPE_CHECKING:
    from ..engine.otel_audit import OtelAuditSink

__all__ = ["EXIT_INTERRUPTED", "run_cmd"]

EXIT_INTERRUPTED = 130
OTLP = "otlp"
SCRIPT_PROMPT = "Replay the scripted session."


@click.command("run")
@click.option("--prompt", default=None, metavar="TEXT", help="The task for the agent.")
@click.option(
    "--script",
    default=None,
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Replay model replies from a JSONL file instead of calling a model.",
)
@click.option("--model", default=None, metavar="NAME", help="Chat Completions model name.")
@click.option(
    "--base-url",
    default=None,
    metavar="URL",
    help="OpenAI-compatible API root (default: $OPENAI_BASE_URL, else OpenAI's).",
)
@selection_options
@click.option(
    "--max-turns",
    default=DEFAULT_MAX_TURNS,
    show_default=True,
    type=click.IntRange(1, MAX_TURNS_LIMIT),
    help="Most model replies before the run fails.",
)
@click.option(
    "--audit",
    "audit_paths",
    multiple=True,
    type=click.Path(dir_okay=False),
    metavar="FILE|otlp",
    help="Append every final decision to FILE as hash-chained JSON lines; `otlp` sends each "
    "as an OpenTelemetry log record to $OTEL_EXPORTER_OTLP_ENDPOINT (needs the otel extra). "
    "Repeatable.",
)
@click.option(
    "--audit-arguments",
    is_flag=True,
    help="Record each call's arguments in the audit (secret-looking values and file contents "
    "redacted), so that `toolpolicy diff --calls FILE` can replay them.",
)
@click.option(
    "--transcript",
    default=None,
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Write the whole conversation to FILE as a JSON array of chat messages.",
)
@reports_errors
def run_cmd(
    prompt: str | None,
    script: str | None,
    model: str | None,
    base_url: str | None,
    max_turns: int,
    audit_paths: tuple[str, ...],
    audit_arguments: bool,
    transcript: str | None,
    **kwargs: Any,
) -> None:
    """Run the agent loop: every tool call is decided by the policy before it runs.

    Calls that ask are put to you on the terminal (only y or yes allows, once); without a
    terminal they are denied. Every final decision is printed on stderr as a [Permission]
    line and, with --audit, appended to a JSONL file. The final answer goes to stdout.

    \b
    Examples:
      toolpolicy run --script examples/seed-calls.jsonl --workspace /tmp/demo
      OPENAI_API_KEY=... toolpolicy run --model gpt-4o-mini --prompt "Summarise README.md"

    Exit codes: 0 final answer, 1 run error (turn limit, incomplete reply, model failure),
    2 usage or configuration error, 130 interrupted.
    """
    if (script is None) == (model is None):
        raise click.UsageError("give exactly one of --script FILE or --model NAME")
    if base_url is not None and model is None:
        raise click.UsageError("--base-url goes with --model")
    if prompt is None and model is not None:
        raise click.UsageError("--model needs --prompt TEXT")
    policy = selection_from(kwargs).load()
    _warn_without_sandbox(policy)
    client: ModelClient = (
        ScriptedModel.from_file(script)
        if script is not None
        else OpenAIChatModel.from_environment(str(model), base_url)
    )
    interrupted = threading.Event()
    with ExitStack() as stack:
        sinks: list[AuditSink] = [TerminalAuditSink(sys.stderr)]
        for target in audit_paths:
            sink = _audit_sink(target)
            stack.callback(sink.close)
            sinks.append(sink)
        transcript_file = (
            stack.enter_context(open(transcript, "w", encoding="utf-8"))
            if transcript is not None
            else None
        )
        runner = build_agent(
            policy,
            client,
            approval=ApprovalService([_CancelOnInterrupt(TerminalApproval(sys.stdin, sys.stderr))]),
            audit=sinks,
            max_turns=max_turns,
            interrupted=interrupted,
            audit_arguments=audit_arguments,
        )
        code = _run(runner, prompt or SCRIPT_PROMPT, interrupted)
        if transcript_file is not None:
            _write_transcript(transcript_file, runner)
    if code != EXIT_OK:
        raise click.exceptions.Exit(code)


def _warn_without_sandbox(policy: ToolPolicy) -> None:
    """One warning at start when shell calls are bound to fail for want of bubblewrap."""
    mode = policy.knobs.sandbox
    if "shell" not in policy.tools.names or mode is SandboxMode.DANGER_FULL_ACCESS:
        return
    if shutil.which("bwrap") is None:
        click.echo(
            "toolpolicy: warning: bubblewrap (bwrap) is not on PATH: every shell call in the "
            f"{mode.value} sandbox will fail with sandbox_unavailable (file tools are not "
            "affected); install it, e.g. apt-get install bubblewrap",
            err=True,
        )


def _audit_sink(target: str) -> JsonlAuditSink | OtelAuditSink:
    """The sink for one ``--audit``: ``otlp``, or a file opened for appending; a failure
    names the option."""
    if target == OTLP:
        from ..engine.otel_audit import OtelAuditSink

        return OtelAuditSink()
    try:
        return JsonlAuditSink(target)
    except AuditFileError as exc:
        raise fail(f"--audit {exc.path}: {exc.reason}") from None


class _CancelOnInterrupt:
    """Terminal approval where Ctrl-C anywhere in the prompt is a cancelled answer.

    ``TerminalApproval`` already maps an interrupt during its read; this also covers the
    moment between printing the prompt and reading, so the cancellation is always decided
    and audited before the run stops.
    """

    __slots__ = ("_terminal",)

    def __init__(self, terminal: TerminalApproval) -> None:
        self._terminal = terminal

    @property
    def name(self) -> str:
        """The terminal's decision source."""
        return self._terminal.name

    def respond(self, request: ApprovalRequest) -> ApprovalOutcome:
        """The terminal's answer, or ``cancelled`` on Ctrl-C."""
        try:
            return self._terminal.respond(request)
        except KeyboardInterrupt:
            sys.stderr.write("\n")
            return ApprovalOutcome.CANCELLED


def _run(runner: AgentRunner, prompt: str, interrupted: threading.Event) -> int:
    try:
        with _sigint_sets(interrupted):
            result = runner.run(prompt)
    except AgentRunError as exc:
        click.echo(f"toolpolicy: {exc}", err=True)
        return EXIT_FAILED
    except KeyboardInterrupt:
        click.echo("toolpolicy: interrupted", err=True)
        return EXIT_INTERRUPTED
    click.echo(result.final_text)
    return EXIT_OK


@contextmanager
def _sigint_sets(flag: threading.Event) -> Iterator[None]:
    """Ctrl-C sets ``flag`` as well as interrupting, so the loop stops even when a prompt
    turned the interrupt into a cancelled (denied, audited) approval."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        flag.set()
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _write_transcript(stream: IO[str], runner: AgentRunner) -> None:
    json.dump(chat_messages(runner.history), stream, ensure_ascii=False, indent=2)
    stream.write("\n")
