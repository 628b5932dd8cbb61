"""The README's Performance numbers are the renderer's output for the recorded results in
bench/results/latest.json, byte for byte: nobody types them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from compare import BEGIN, END, readme_section  # noqa: E402


def test_the_readme_performance_section_is_the_rendered_latest_results() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    results = json.loads((ROOT / "bench" / "results" / "latest.json").read_text("utf-8"))
    start, end = readme.index(BEGIN), readme.index(END) + len(END)

    assert readme[start:end] == readme_section(results)
    performance = readme[readme.index("## Performance") : readme.index("## Security")]
    assert start > readme.index("## Performance") and BEGIN in performance and END in performance


def test_the_recorded_results_name_the_command_date_machine_and_load() -> None:
    results = json.loads((ROOT / "bench" / "results" / "latest.json").read_text("utf-8"))
    meta = results["meta"]
    section = readme_section(results)

    assert meta["command"].startswith("python bench/compare.py")
    for shown in (meta["command"], meta["date"], meta["cpu"], f"{meta['load'][0]:.2f}"):
        assert shown in section
    assert any(row["section"] == "public" for row in results["rows"])
