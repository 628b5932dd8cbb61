"""The ``shell`` tool: run a command line in the workspace, confined by the sandbox mode.

bash (``bash --noprofile --norc -c``) is the default; ``shell="powershell"`` runs
``pwsh -NoLogo -NoProfile -NonInteractive -Command``. Under ``read-only`` and
``workspace-write`` the command runs inside bubblewrap (see ``sandbox``); when bubblewrap is
missing or cannot set the sandbox up, the call fails with ``sandbox_unavailable`` and nothing
runs unconfined. ``danger-full-access`` runs the command directly.

stdout and stderr are merged and capped; the command runs in its own process group, which is
killed on timeout and when the command ends, so no background process outlives the call.
"""

from __future__ import annotations

import os
import selectors
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from contextlib import ExitStack, suppress
from dataclasses import dataclass

from ..core.results import ToolResult, tool_error, tool_success
from ..core.vocabulary import SandboxMode
from .protected import FIXED_PROTECTED, ProtectedSet
from .registry import ToolContext
from .sandbox import bwrap_argv, protected_binds

__all__ = [
    "DEFAULT_MAX_OUTPUT_BYTES",
    "DEFAULT_TIMEOUT_SECONDS",
    "CommandResult",
    "SandboxUnavailableError",
    "ShellRunner",
    "ShellStartError",
    "command_tool_result",
]

DEFAULT_TIMEOUT_SECONDS = 120.0
DEFAULT_MAX_OUTPUT_BYTES = 50_000
# How long output is still collected once the command has exited or been killed, for
# background processes that keep the pipe open.
_DRAIN_SECONDS = 0.5
# Exit is noticed by polling (no reaping before the group is killed): fast at first.
_FIRST_POLL_SECONDS = 0.001
_LAST_POLL_SECONDS = 0.05
_CHUNK = 64 * 1024
_SHELLS = ("bash", "powershell")


class ShellStartError(Exception):
    """The shell could not be started."""


class SandboxUnavailableError(Exception):
    """Bubblewrap is missing or could not build the sandbox; the command did not run."""


@dataclass(frozen=True, slots=True)
class CommandResult:
    """What a command did: merged output, exit code (None after a timeout), flags."""

    output: str
    exit_code: int | None
    timed_out: bool = False
    truncated: bool = False


def command_tool_result(result: CommandResult, timeout_seconds: float) -> ToolResult:
    """The tool result the model sees for ``result``."""
    output = result.output or "(no output)"
    if result.truncated:
        output = f"{output}\n[output truncated]"
    if result.timed_out:
        return tool_error(
            "shell_timeout", f"Command timed out after {timeout_seconds:g} s\n{output}"
        )
    code = result.exit_code
    if code is not None and code < 0:
        return tool_error("shell_failed", f"Command was terminated by signal {-code}\n{output}")
    if code != 0:
        return tool_error("shell_failed", f"Command exited with code {code}\n{output}")
    return tool_success(output)


class ShellRunner:
    """Runs command lines; also the ``shell`` tool's handler (call it with the arguments)."""

    __slots__ = ("_env", "_max_output", "_shell", "_timeout")

    def __init__(
        self,
        *,
        timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS,
        max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES,
        shell: str = "bash",
        env: Mapping[str, str] | None = None,
    ) -> None:
        if shell not in _SHELLS:
            raise ValueError(f"shell must be one of: {', '.join(_SHELLS)}")
        if timeout_seconds <= 0 or max_output_bytes <= 0:
            raise ValueError("timeout_seconds and max_output_bytes must be positive")
        self._timeout = float(timeout_seconds)
        self._max_output = max_output_bytes
        self._shell = shell
        self._env = dict(env) if env is not None else None

    @property
    def timeout_seconds(self) -> float:
        """Seconds before the command's process group is killed."""
        return self._timeout

    @property
    def shell(self) -> str:
        """The shell that runs the lines: ``bash`` or ``powershell``."""
        return self._shell

    def __call__(self, arguments: Mapping[str, object], context: ToolContext) -> ToolResult:
        """Handler: run ``arguments["command"]`` under ``context.sandbox``."""
        try:
            result = self.run(
                str(arguments["command"]),
                context.workspace,
                sandbox=context.sandbox,
                protected=context.protected,
            )
        except SandboxUnavailableError as exc:
            return tool_error("sandbox_unavailable", str(exc))
        except ShellStartError as exc:
            return tool_error("shell_start_failed", str(exc))
        return command_tool_result(result, self._timeout)

    def run(
        self,
        command: str,
        workspace: str,
        *,
        sandbox: SandboxMode,
        protected: ProtectedSet = FIXED_PROTECTED,
    ) -> CommandResult:
        """Run ``command`` with the workspace as working directory; under a sandbox,
        ``protected`` stays read-only (see ``sandbox.protected_binds``).

        Raises ``SandboxUnavailableError`` and ``ShellStartError``; never runs a confined
        mode unconfined.
        """
        with ExitStack() as stack:
            binds: list[str] = []
            if sandbox is SandboxMode.WORKSPACE_WRITE:
                binds = stack.enter_context(protected_binds(workspace, protected))
            return self._run(command, workspace, sandbox, binds)

    def _run(
        self, command: str, workspace: str, sandbox: SandboxMode, binds: Sequence[str]
    ) -> CommandResult:
        env = dict(os.environ) if self._env is None else dict(self._env)
        search = env.get("PATH", os.defpath)
        root = os.path.realpath(workspace)
        argv = self._shell_argv(command, search)
        status_read = status_write = -1
        if sandbox is not SandboxMode.DANGER_FULL_ACCESS:
            bwrap = shutil.which("bwrap", path=search)
            if bwrap is None:
                raise SandboxUnavailableError("bubblewrap (bwrap) was not found on PATH")
            status_read, status_write = os.pipe()
            argv = bwrap_argv(bwrap, sandbox, root, argv, binds=binds, status_fd=status_write)
        try:
            proc = subprocess.Popen(
                argv,
                cwd=root,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                pass_fds=(status_write,) if status_write >= 0 else (),
            )
        except OSError as exc:
            if status_read >= 0:
                os.close(status_read)
            raise ShellStartError(self._start_failure()) from exc
        finally:
            if status_write >= 0:
                os.close(status_write)
        output, truncated, timed_out = self._collect(proc)
        if status_read >= 0:
            status = _read_available(status_read)
            if not timed_out and b'"exit-code"' not in status:
                first = output.strip().splitlines()[:1]
                detail = f": {first[0][:500]}" if first else ""
                raise SandboxUnavailableError(f"The sandbox could not be started{detail}")
        return CommandResult(
            output=output,
            exit_code=None if timed_out else proc.returncode,
            timed_out=timed_out,
            truncated=truncated,
        )

    def _shell_argv(self, command: str, search: str) -> list[str]:
        if self._shell == "bash":
            bash = shutil.which("bash", path=search)
            if bash is None:
                raise ShellStartError(self._start_failure())
            return [bash, "--noprofile", "--norc", "-c", command]
        pwsh = shutil.which("pwsh", path=search) or shutil.which("powershell", path=search)
        if pwsh is None:
            raise ShellStartError(self._start_failure())
        return [pwsh, "-NoLogo", "-NoProfile", "-NonInteractive", "-Command", command]

    def _start_failure(self) -> str:
        name = "PowerShell" if self._shell == "powershell" else "Shell"
        return f"{name} process could not be started"

    def _collect(self, proc: subprocess.Popen[bytes]) -> tuple[str, bool, bool]:
        """Read merged output until the command ends or times out; kill its group."""
        assert proc.stdout is not None
        stream = proc.stdout
        buffer = _CappedBuffer(self._max_output)
        timed_out = eof = False
        deadline = time.monotonic() + self._timeout
        finish_by: float | None = None
        step = _FIRST_POLL_SECONDS
        with selectors.DefaultSelector() as selector:
            selector.register(stream, selectors.EVENT_READ)
            while True:
                now = time.monotonic()
                if finish_by is None and _has_exited(proc.pid):
                    finish_by = now + _DRAIN_SECONDS
                if eof and finish_by is not None:
                    break
                limit = deadline if finish_by is None else min(deadline, finish_by)
                if now >= limit:
                    timed_out = finish_by is None
                    break
                wait = min(limit - now, step)
                step = min(step * 2, _LAST_POLL_SECONDS)
                if eof:
                    time.sleep(wait)
                elif selector.select(wait):
                    eof = not buffer.feed(os.read(stream.fileno(), _CHUNK))
                    step = _FIRST_POLL_SECONDS
            # Kill the whole group before reaping, while the leader's pid cannot be reused.
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            drain_until = time.monotonic() + _DRAIN_SECONDS
            while not eof and time.monotonic() < drain_until:
                if selector.select(_LAST_POLL_SECONDS):
                    eof = not buffer.feed(os.read(stream.fileno(), _CHUNK))
        stream.close()
        return buffer.text(), buffer.truncated, timed_out


class _CappedBuffer:
    """Keeps the first ``cap`` bytes of a stream and notes whether more arrived."""

    __slots__ = ("_cap", "_kept", "truncated")

    def __init__(self, cap: int) -> None:
        self._cap = cap
        self._kept = bytearray()
        self.truncated = False

    def feed(self, chunk: bytes) -> bool:
        """Add ``chunk``; False at end of stream (an empty chunk)."""
        room = self._cap - len(self._kept)
        self._kept += chunk[:room]
        self.truncated = self.truncated or len(chunk) > room
        return bool(chunk)

    def text(self) -> str:
        """The kept bytes as text (invalid UTF-8 replaced)."""
        return self._kept.decode("utf-8", errors="replace")


def _has_exited(pid: int) -> bool:
    """True once ``pid`` has exited, without reaping it."""
    info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    return info is not None


def _read_available(fd: int) -> bytes:
    """Whatever bubblewrap wrote to its status pipe; closes it."""
    os.set_blocking(fd, False)
    chunks: list[bytes] = []
    try:
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except BlockingIOError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks)
