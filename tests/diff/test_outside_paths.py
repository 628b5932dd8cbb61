"""``diff`` sees rules on absolute (``//``) and home (``~/``) paths: no false "equivalent"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HEAD = "apiVersion: toolpolicy/v1\nkind: Policy\nname: a\nextends: P03\nrules:\n"


def test_a_rule_outside_the_workspace_is_a_difference(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    left = tmp_path / "left.yaml"
    left.write_text(
        HEAD + "  - {name: keys, behavior: deny, reason: Keys, "
        "match: {paths: ['~/.ssh/**', '//etc/shadow']}}\n"
    )
    right = tmp_path / "right.yaml"
    right.write_text(HEAD + "  - {name: x, behavior: deny, reason: X, match: {commands: [rm]}}\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLPOLICY_")}
    env.update(HOME=str(home), TOOLPOLICY_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run(
        [sys.executable, "-m", "toolpolicy", "diff", str(right), str(left)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if line.startswith("read_file")]
    assert [row[2:] for row in rows] == [["allow", "(default)", "deny", "(keys)", "narrow"]] * 2
    shown = sorted(row[1] for row in rows)  # long paths are cut short in the table
    assert shown[0] == "path=/etc/shadow" and shown[1].startswith(f"path={tmp_path}"[:20])
