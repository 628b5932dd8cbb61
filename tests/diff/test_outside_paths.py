"""``diff`` sees rules on absolute (``//``) and home (``~/``) paths: no false "equivalent"."""

from __future__ import annotations

import json
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
    lines = done.stdout.splitlines()
    rows = [line.split() for line in lines if line.startswith("  read_file")]
    # One region (no rule on the left, "keys" on the right, an absolute path); its shortest
    # witness is /etc/shadow, and the rule's home pattern is in the same region.
    assert rows == [
        ["read_file", "path=/etc/shadow", "allow", "(default)", "deny", "(keys)", "narrow"]
    ]
    region = lines[lines.index(next(line for line in lines if line.startswith("  read_file"))) + 1]
    assert " ".join(region.split()) == (
        "left: no rule; right: keys (deny: //etc/shadow); an absolute path"
    )
    for path in ("/etc/shadow", f"{home}/.ssh/id_ed25519"):
        arguments = json.dumps({"path": path})
        command = ["check", "--policy", str(left), "--format", "json", "read_file", arguments]
        check = subprocess.run(
            [sys.executable, "-m", "toolpolicy", *command],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
            env=env,
        )
        assert '"source": "keys"' in check.stdout or "keys" in check.stdout, check.stdout
