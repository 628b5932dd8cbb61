"""``toolpolicy diff``: which tool calls two presets, profiles or policies decide differently.

Probes are generated from both sides so that every rule is exercised (see ``probes``),
decided on both sides in one shared workspace (``compare``), and rendered as text, JSON or
markdown (``render``).
"""

from __future__ import annotations

from .compare import Change, DiffReport, Outcome, ProbeResult, Verdict, compare, decide
from .probes import Probe, generate_probes
from .recorded import RecordedCalls, RecordedCallsError, read_recorded_calls
from .render import RENDERERS, render_json, render_markdown, render_text
from .run import run_diff
from .sides import Side, UnknownSide, parse_side

__all__ = [
    "RENDERERS",
    "Change",
    "DiffReport",
    "Outcome",
    "Probe",
    "ProbeResult",
    "RecordedCalls",
    "RecordedCallsError",
    "Side",
    "UnknownSide",
    "Verdict",
    "compare",
    "decide",
    "generate_probes",
    "parse_side",
    "read_recorded_calls",
    "render_json",
    "render_markdown",
    "render_text",
    "run_diff",
]
