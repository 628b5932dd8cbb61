"""The built wheel works on its own: installed in a fresh venv, run from outside the repo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

_REPO = Path(__file__).resolve().parents[1]


def _run(args: list[str | Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel built from this checkout installed (offline)."""
    work = tmp_path_factory.mktemp("wheel")
    built = _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", work / "dist", _REPO],
        work,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (work / "dist").glob("toolpolicy-*.whl")
    made = _run([sys.executable, "-m", "venv", "--system-site-packages", work / "venv"], work)
    assert made.returncode == 0, made.stderr
    python = work / "venv" / "bin" / "python"
    installed = _run([python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel], work)
    assert installed.returncode == 0, installed.stderr
    return work / "venv"


@pytest.fixture()
def outside(tmp_path: Path) -> Path:
    """A working directory that is not the repository."""
    assert _REPO not in tmp_path.parents
    return tmp_path


def test_the_venv_imports_its_own_copy_and_its_packaged_data(venv: Path, outside: Path) -> None:
    probe = (
        "import json, toolpolicy\n"
        "from toolpolicy.language import schema_path, builtin_profiles\n"
        "from toolpolicy.language.resources import data_dir\n"
        "print(json.dumps([toolpolicy.__file__, str(schema_path()), str(data_dir('profiles')),"
        " sorted(builtin_profiles())]))\n"
    )
    result = _run([venv / "bin" / "python", "-c", probe], outside)
    assert result.returncode == 0, result.stderr
    module, schema, profiles, names = json.loads(result.stdout)
    site = str(venv.resolve())
    assert Path(module).resolve().is_relative_to(site)
    assert not Path(module).resolve().is_relative_to(_REPO)
    assert schema.endswith("toolpolicy/_data/policy/toolpolicy.schema.json")
    assert Path(schema).resolve().is_relative_to(site)
    assert Path(profiles).resolve().is_relative_to(site)
    assert names == ["P01", "P02", "P03"]


def test_the_installed_command_lists_the_profiles(venv: Path, outside: Path) -> None:
    text = _run([venv / "bin" / "toolpolicy", "profiles"], outside)
    assert text.returncode == 0, text.stderr
    assert [line.split()[0] for line in text.stdout.splitlines()] == ["NAME", "P01", "P02", "P03"]
    as_json = _run([venv / "bin" / "toolpolicy", "profiles", "--format", "json"], outside)
    assert as_json.returncode == 0, as_json.stderr
    assert [p["name"] for p in json.loads(as_json.stdout)] == ["P01", "P02", "P03"]


def test_the_installed_command_lists_the_presets(venv: Path, outside: Path) -> None:
    text = _run([venv / "bin" / "toolpolicy", "presets"], outside)
    assert text.returncode == 0, text.stderr
    names = [line.split()[0] for line in text.stdout.splitlines()[1:]]
    assert names == ["workspace-write", "danger-full-access", "read-only"]
    as_json = _run([venv / "bin" / "toolpolicy", "presets", "--format", "json"], outside)
    assert as_json.returncode == 0, as_json.stderr
    rows = [(p["name"], p["default"]) for p in json.loads(as_json.stdout)]
    assert rows == [("workspace-write", True), ("danger-full-access", False), ("read-only", False)]


def test_the_installed_command_prints_the_schema(venv: Path, outside: Path) -> None:
    result = _run([venv / "bin" / "toolpolicy", "schema"], outside)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["$id"] == "urn:toolpolicy:schema:v1"


def test_the_installed_command_is_the_hand_written_script(venv: Path, outside: Path) -> None:
    command = venv / "bin" / "toolpolicy"
    first, body = command.read_text().split("\n", 1)
    # pip points the script's "#!python" line at the environment's interpreter
    assert first.startswith("#!") and Path(first[2:]).parent == venv / "bin"
    assert body == (_REPO / "scripts" / "toolpolicy_command.py").read_text().split("\n", 1)[1]
    version = _run([command, "--version"], outside)
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("toolpolicy, version ")
