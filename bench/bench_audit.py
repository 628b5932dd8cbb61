"""What the hash chain costs: a chained audit line against the plain line it replaced.

Interleaved in one run, no fsync (the disk would dominate both):
  plain    one O_APPEND write of the encoded record (the sink before the chain)
  chained  JsonlAuditSink.record: flock, fstat, the seq/prev prefix, write, sha256 of the line
  gate     the public surface: ToolPolicy.gate(...).decide(request), once with the plain sink
           and once with the chained JsonlAuditSink: what a user's decision pays for the chain
Prints medians (µs per record) and the ratios chained / plain. Target: <= 1.3x.

    python bench/bench_audit.py [--rounds 30] [--per-round 2000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from toolpolicy.core.protocols import AuditRecord
from toolpolicy.engine.approval import ApprovalService
from toolpolicy.engine.audit import _LINE, JsonlAuditSink
from toolpolicy.engine.gate import Gate
from toolpolicy.engine.request import PermissionRequest
from toolpolicy.engine.selection import load
from toolpolicy.tools.registry import ToolCall, ToolContext

RECORD = AuditRecord(
    ts="2026-11-30T12:00:00.000000Z",
    session_id="0" * 32,
    call_id="call_1",
    tool="read_file",
    effect="read",
    behavior="allow",
    source="default",
    reason="No permission rule blocked the request",
    matched_rules=(),
    preset="workspace-write",
    sandbox="workspace-write",
    approval="ask",
    approval_outcome=None,
    arguments_sha256="0" * 64,
)


class _PlainSink:
    """The sink as it was before the chain: encode, one O_APPEND write."""

    def __init__(self, path: Path) -> None:
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)

    def record(self, record: AuditRecord) -> None:
        line = (_LINE(record.to_json()) + "\n").encode("utf-8")
        if os.write(self._fd, line) != len(line):
            raise OSError("short write")

    def close(self) -> None:
        os.close(self._fd)


def _per_record(sink: object, count: int) -> float:
    record = sink.record  # type: ignore[attr-defined]
    start = time.perf_counter()
    for _ in range(count):
        record(RECORD)
    return (time.perf_counter() - start) / count * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--per-round", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "ws").mkdir()
        plain = _PlainSink(root / "plain.jsonl")
        chained = JsonlAuditSink(root / "chained.jsonl", fsync=False)
        gate_sink = JsonlAuditSink(root / "gate.jsonl", fsync=False)
        plain_gate_sink = _PlainSink(root / "plain-gate.jsonl")
        policy = load(workspace=root / "ws")
        gate = policy.gate(approval=ApprovalService(), audit=[gate_sink])
        plain_gate = policy.gate(approval=ApprovalService(), audit=[plain_gate_sink])
        request = PermissionRequest(
            policy.tools.prepare(ToolCall("c", "read_file", {"path": "src/a.py"})),
            ToolContext(str(root / "ws"), "c"),
        )

        def decide(which: Gate, count: int) -> float:
            start = time.perf_counter()
            for _ in range(count):
                which.decide(request)
            return (time.perf_counter() - start) / count * 1e6

        times: dict[str, list[float]] = {"plain": [], "chained": [], "gate": [], "gate0": []}
        for _ in range(args.rounds):
            times["plain"].append(_per_record(plain, args.per_round))
            times["chained"].append(_per_record(chained, args.per_round))
            times["gate0"].append(decide(plain_gate, args.per_round))
            times["gate"].append(decide(gate, args.per_round))
        plain_gate_sink.close()
        plain.close()
        chained.close()
        gate_sink.close()
    medians = {name: statistics.median(values) for name, values in times.items()}
    load1 = os.getloadavg()[0]
    print(f"audit line, no fsync, medians of {args.rounds} rounds (load average {load1:.2f})")
    print("| what | µs per record |")
    print("|---|---:|")
    print(f"| plain JSONL line (before the chain; internal) | {medians['plain']:.2f} |")
    print(f"| chained JSONL line (JsonlAuditSink.record) | {medians['chained']:.2f} |")
    print(f"| gate.decide(read) with the plain sink | {medians['gate0']:.2f} |")
    print(f"| gate.decide(read) with the chained JsonlAuditSink | {medians['gate']:.2f} |")
    ratio = medians["chained"] / medians["plain"]
    gate_ratio = medians["gate"] / medians["gate0"]
    print(f"\nline alone, chained / plain = {ratio:.2f}x (internal)")
    print(f"decision with its audit line, chained / plain = {gate_ratio:.2f}x (target <= 1.3x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
