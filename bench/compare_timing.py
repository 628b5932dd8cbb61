"""Timing: warm-up, then the median of chunk means, repeated over several runs.

A *subject* is a sequence of zero-argument callables (one per request of a mix, or a single
one). A chunk calls each of them in turn, many times; its mean is the chunk's wall time
divided by the number of calls. A run's value is the median of its chunk means; the result
is the median over runs, with the minimum and maximum run values beside it. The loop's own
cost (a ``for`` step and a call through a bound method or ``functools.partial``) is included
in every row alike.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["Settings", "Timing", "measure", "measure_all"]

Call = Callable[[], object]


@dataclass(frozen=True, slots=True)
class Settings:
    """How long to measure: ``runs`` x ``chunks`` chunks of about ``chunk_seconds`` each.

    Chunks are short on purpose: shorter than a scheduler time slice, so on a busy machine
    most chunks run without being preempted and their median is not the preempted ones'.
    """

    runs: int = 5
    chunks: int = 21
    chunk_seconds: float = 0.002
    max_calls_per_chunk: int = 200_000
    cpu: bool = False
    """Time with this thread's CPU clock instead of the wall clock: steadier on a shared
    machine, but blind to time spent waiting (an ``fsync``, a contended lock)."""


@dataclass(frozen=True, slots=True)
class Timing:
    """Seconds per call: the median over runs, and the smallest and largest run value."""

    median: float
    low: float
    high: float
    calls: int
    """How many timed calls went into the result."""


def _chunk(sequence: Sequence[Call], cpu: bool = False) -> float:
    counter = time.thread_time if cpu else time.perf_counter
    start = counter()
    for call in sequence:
        call()
    return counter() - start


def _sequence(calls: Sequence[Call], settings: Settings) -> list[Call]:
    """``calls`` repeated so that one pass takes about ``settings.chunk_seconds``; warmed up."""
    if not calls:
        raise ValueError("nothing to measure")
    probe = list(calls)
    _chunk(probe)  # first calls pay imports and caches: never size the chunks on them
    elapsed = _chunk(probe)
    while elapsed < 0.002 and len(probe) < settings.max_calls_per_chunk:
        probe = probe * 2
        elapsed = _chunk(probe)
    per_call = max(elapsed / len(probe), 1e-9)
    rounds = max(1, int(settings.chunk_seconds / per_call) // len(calls))
    rounds = min(rounds, max(1, settings.max_calls_per_chunk // len(calls)))
    sequence = list(calls) * rounds
    _chunk(sequence)
    return sequence


def measure_all(subjects: Sequence[Sequence[Call]], settings: Settings) -> list[Timing]:
    """Time several subjects with their runs interleaved (run 1 of each, then run 2, ...),
    so that a slow phase of a busy machine spreads over all of them instead of one."""
    sequences = [_sequence(calls, settings) for calls in subjects]
    values: list[list[float]] = [[] for _ in sequences]
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(settings.runs):
            for sequence, run_values in zip(sequences, values, strict=True):
                means = [
                    _chunk(sequence, settings.cpu) / len(sequence) for _ in range(settings.chunks)
                ]
                run_values.append(statistics.median(means))
    finally:
        if enabled:
            gc.enable()
    return [
        Timing(
            median=statistics.median(run_values),
            low=min(run_values),
            high=max(run_values),
            calls=len(sequence) * settings.chunks * settings.runs,
        )
        for sequence, run_values in zip(sequences, values, strict=True)
    ]


def measure(calls: Sequence[Call], settings: Settings) -> Timing:
    """Time ``calls`` (cycled in order) under ``settings``; see the module docstring."""
    return measure_all([calls], settings)[0]
