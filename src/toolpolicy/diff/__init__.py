"""``toolpolicy diff``: which tool calls two presets, profiles or policies decide differently.

The rules of both sides are compiled into automata over each tool's path or command
argument and searched together for every region they decide differently, each with a
shortest witness call (``regions``, ``automaton``, ``path_language``, ``command_language``).
Those witnesses, the physical probes (boundary, symlink) and any recorded calls
(``probes``, ``recorded``) are decided on both sides by the real engine in one shared
workspace (``compare``) and rendered as text, JSON or markdown (``render``).
"""

from __future__ import annotations

from .automaton import AutomatonTooLarge
from .compare import Change, DiffReport, Outcome, ProbeResult, Verdict, compare, decide
from .probes import Probe, generate_probes
from .recorded import RecordedCalls, RecordedCallsError, read_recorded_calls
from .regions import Region, RuleRef, argument_regions
from .render import RENDERERS, render_json, render_markdown, render_text
from .run import run_diff
from .sides import Side, UnknownSide, parse_side

__all__ = [
    "RENDERERS",
    "AutomatonTooLarge",
    "Change",
    "DiffReport",
    "Outcome",
    "Probe",
    "ProbeResult",
    "RecordedCalls",
    "RecordedCallsError",
    "Region",
    "RuleRef",
    "Side",
    "UnknownSide",
    "Verdict",
    "argument_regions",
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
