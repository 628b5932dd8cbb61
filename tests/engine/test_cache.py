"""The policy cache: what misses it, what it refuses to read, and what it must keep.

Issue 14: the hook loads the compiled policy from the cache instead of compiling it on every
call. Each input an entry depends on (a policy file's content, the preset table, the profile,
toolpolicy's version, the package's path, the libraries that read a policy) must miss it;
what it does not depend on (the workspace, the knobs) must be applied per call; a corrupt,
truncated or foreign entry is rebuilt, and nothing it names is ever run.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolpolicy
from toolpolicy.engine.builtin import builtin_profile
from toolpolicy.engine.cache import KEEP_ENTRIES, load_compiled, load_sources
from toolpolicy.engine.selection import CompiledSources, assemble

POLICY = """\
apiVersion: toolpolicy/v1
kind: Policy
name: team
rules:
  - name: env
    behavior: {behavior}
    reason: {reason}
    match: {{paths: [.env, "secrets/**", "*.key"]}}
  - name: pushes
    behavior: deny
    reason: Never push
    match: {{commands: [git push]}}
"""

# zeta is declared before alpha and both name (workspace-write, ask): zeta wins the tie
TIE_TABLE = """\
apiVersion: toolpolicy/v1
kind: PresetTable
default: locked
presets:
  zeta:
    sandbox: workspace-write
    approval: ask
  alpha:
    sandbox: workspace-write
    approval: ask
  locked:
    sandbox: read-only
    approval: never
"""


class Setup:
    def __init__(self, tmp: Path) -> None:
        self.ws = tmp / "ws"
        self.ws.mkdir()
        self.cache = tmp / "cache"
        self.policy = self.ws / "policy.yaml"
        self.write_policy("deny", "Secrets stay closed")

    def write_policy(self, behavior: str, reason: str) -> None:
        self.policy.write_text(POLICY.format(behavior=behavior, reason=reason))

    def compiled(self, profile: str = "P03", presets: Path | None = None) -> CompiledSources:
        return load_compiled(profile, [str(self.policy)], presets, directory=self.cache)

    def entries(self) -> dict[str, int]:
        return {p.name: p.stat().st_mtime_ns for p in self.cache.iterdir()}

    def read_env(self, found: CompiledSources, workspace: Path | None = None) -> tuple[str, str]:
        policy = assemble(found, workspace=str(workspace or self.ws), enforce_boundary=True)
        decision = policy.check("read_file", {"path": ".env"})
        return decision.behavior.label, decision.reason


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    return Setup(tmp_path)


def _lazy(found: CompiledSources) -> bool:
    """True when the rules came from an entry: compiling adopts the built-in profile's
    singleton, an entry carries a copy of it (``assemble`` swaps the singleton back in)."""
    profile = found.compiled.profile
    return profile is not builtin_profile(profile.name)


def _rules(found: CompiledSources) -> list[tuple[str, str, str]]:
    return [(r.name, r.behavior.label, r.reason) for r in found.compiled.rules]


def test_a_warm_load_returns_the_compiled_rules_without_compiling_them(setup: Setup) -> None:
    cold = setup.compiled()
    entries = setup.entries()
    warm = setup.compiled()
    assert setup.entries() == entries  # nothing rebuilt
    assert _rules(warm) == _rules(cold)
    assert _lazy(warm) and not _lazy(cold)
    assert setup.read_env(warm) == setup.read_env(cold) == ("deny", "Secrets stay closed")


@pytest.mark.parametrize("loader", ["sources", "compiled"])
def test_a_cached_preset_table_keeps_its_declaration_order(
    setup: Setup, tmp_path: Path, loader: str
) -> None:
    table = tmp_path / "presets.yaml"
    table.write_text(TIE_TABLE)

    def knobs_shown() -> tuple[tuple[str, ...], str]:
        found = (
            load_sources("P03", (), str(table), directory=setup.cache)
            if loader == "sources"
            else load_compiled("P03", (), str(table), directory=setup.cache)
        )
        policy = assemble(found, workspace=str(setup.ws))  # locked: read-only, never
        policy = policy.with_knobs(sandbox="workspace-write", approval="ask")
        return policy.presets.names, policy.knobs.preset

    cold = knobs_shown()
    assert setup.entries()
    assert knobs_shown() == cold == (("zeta", "alpha", "locked"), "zeta")


def test_a_changed_policy_file_misses_the_cache(setup: Setup) -> None:
    assert setup.read_env(setup.compiled()) == ("deny", "Secrets stay closed")
    setup.write_policy("ask", "Ask before reading secrets")
    assert setup.read_env(setup.compiled()) == ("ask", "Ask before reading secrets")


def test_a_changed_preset_table_misses_the_cache(setup: Setup, tmp_path: Path) -> None:
    table = tmp_path / "presets.yaml"
    table.write_text(TIE_TABLE)
    assert setup.compiled(presets=table).presets.default == "locked"
    table.write_text(TIE_TABLE.replace("default: locked", "default: zeta"))
    assert setup.compiled(presets=table).presets.default == "zeta"


def test_another_profile_misses_the_cache(setup: Setup) -> None:
    assert setup.compiled("P03").compiled.profile.name == "P03"
    assert setup.compiled("P02").compiled.profile.name == "P02"
    assert len(setup.entries()) == 4  # sources and compiled, per profile


def test_the_knobs_and_the_workspace_are_applied_per_call(setup: Setup, tmp_path: Path) -> None:
    found = setup.compiled()
    other = tmp_path / "other"
    other.mkdir()
    entries = setup.entries()
    warm = setup.compiled()
    inside = assemble(warm, workspace=str(setup.ws), enforce_boundary=True)
    elsewhere = assemble(warm, workspace=str(other), enforce_boundary=True)
    assert (inside.workspace, elsewhere.workspace) == (str(setup.ws), str(other))
    # the policy file is protected in the workspace that holds it, and only there
    write = {"path": "policy.yaml", "content": "x"}
    assert inside.check("write_file", write).reason == "Policy files in use cannot be written"
    assert elsewhere.check("write_file", write).behavior.label == "ask"
    locked = assemble(warm, sandbox="read-only", approval="never", workspace=str(setup.ws))
    assert (locked.knobs.sandbox.value, locked.knobs.approval.value) == ("read-only", "never")
    assert assemble(found, workspace=str(setup.ws)).knobs.sandbox.value == "workspace-write"
    assert setup.entries() == entries


def test_another_version_or_package_path_misses_the_cache(setup: Setup, package_copy: Path) -> None:
    """A copy of the package at another path, then the copy with another version."""
    copy = package_copy
    code = (
        "import sys; from toolpolicy.engine.cache import load_compiled;"
        f"load_compiled('P03', [{str(setup.policy)!r}], directory={str(setup.cache)!r})"
    )

    def run_copy() -> set[str]:
        env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
        subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=60)
        return set(setup.entries())

    setup.compiled()
    here = set(setup.entries())
    moved = run_copy()
    assert len(moved - here) == 2 and here < moved  # another package path: new entries
    version = copy / "toolpolicy" / "_version.py"
    version.write_text(version.read_text().replace(toolpolicy.__version__, "999.0.0"))
    versioned = run_copy()
    assert len(versioned - moved) == 2  # another version: new entries again
    # the same version, the compiler's code changed (a development install): rebuilt
    stamps = {p.name: p.stat().st_mtime_ns for p in setup.cache.iterdir()}
    with open(copy / "toolpolicy" / "compile" / "commands.py", "a") as code_file:
        code_file.write("# changed\n")
    assert run_copy() == versioned
    rewritten = {n for n, t in stamps.items() if (setup.cache / n).stat().st_mtime_ns != t}
    assert rewritten  # the compiled entry, at least, was built again


def _entry(setup: Setup) -> Path:
    """The compiled entry (the larger of the two)."""
    return max(setup.cache.iterdir(), key=lambda p: p.stat().st_size)


@settings(max_examples=40, deadline=None)
@given(where=st.floats(0, 1, exclude_max=True), flip=st.booleans())
def test_a_corrupt_or_truncated_entry_is_rebuilt(where: float, flip: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        setup = Setup(Path(tmp))
        cold = setup.compiled()
        entry = _entry(setup)
        original = entry.read_bytes()
        at = int(where * len(original))
        flipped = original[:at] + bytes([original[at] ^ 0x40]) + original[at + 1 :]
        entry.write_bytes(flipped if flip else original[:at])
        rebuilt = setup.compiled()
        assert _rules(rebuilt) == _rules(cold)
        assert setup.read_env(rebuilt) == ("deny", "Secrets stay closed")
        # rewritten: the next load reads the entry again
        assert _lazy(setup.compiled())


def _forge(entry: Path, body: bytes) -> None:
    magic = entry.read_bytes().split(b"\n", 1)[0] + b"\n"
    entry.write_bytes(magic + hashlib.sha256(body).digest() + body)


def _forged(setup: Setup) -> bytes:
    """The compiled entry's own body, its rule's reason changed (same length: still a valid
    pickle)."""
    body = _entry(setup).read_bytes().split(b"\n", 1)[1][32:]
    assert b"Secrets stay closed" in body
    return body.replace(b"Secrets stay closed", b"Secrets stay opened")


def test_an_entry_others_could_write_is_not_read(setup: Setup) -> None:
    setup.compiled()
    body = _forged(setup)
    _forge(_entry(setup), body)
    # the forgery is well formed: the user's own private folder is trusted as the user is
    assert setup.read_env(setup.compiled()) == ("deny", "Secrets stay opened")
    _forge(_entry(setup), body)
    setup.cache.chmod(0o777)
    assert setup.read_env(setup.compiled()) == ("deny", "Secrets stay closed")
    assert setup.cache.stat().st_mode & 0o777 == 0o700  # narrowed again when rewritten
    _forge(_entry(setup), body)
    _entry(setup).chmod(0o666)
    assert setup.read_env(setup.compiled()) == ("deny", "Secrets stay closed")


def test_a_shared_sticky_folder_is_neither_narrowed_nor_used(setup: Setup, tmp_path: Path) -> None:
    shared = tmp_path / "shared"  # as /tmp is: sticky, writable by everyone
    shared.mkdir()
    shared.chmod(0o1777)
    found = load_compiled("P03", [str(setup.policy)], None, directory=shared)
    assert setup.read_env(found) == ("deny", "Secrets stay closed")
    assert shared.stat().st_mode & 0o7777 == 0o1777
    assert list(shared.iterdir()) == []


@pytest.mark.skipif(os.getuid() != 0, reason="giving a file to another user needs root")
def test_an_entry_owned_by_another_user_is_not_read(setup: Setup) -> None:
    setup.compiled()
    body = _forged(setup)
    _forge(_entry(setup), body)
    os.chown(_entry(setup), 65534, 65534)
    assert setup.read_env(setup.compiled()) == ("deny", "Secrets stay closed")


class _Runs:
    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, ...]:
        return (os.mkdir, (self.marker,))


def test_an_entry_naming_a_callable_is_rebuilt_and_nothing_runs(
    setup: Setup, tmp_path: Path
) -> None:
    setup.compiled()
    entry = _entry(setup)
    original = entry.read_bytes()
    marker = tmp_path / "ran"
    key, files, code, _ = pickle.loads(original.split(b"\n", 1)[1][32:])
    runs = _Runs(str(marker))
    for forged in (
        (key, files, code, pickle.dumps(runs, protocol=5)),  # in the value
        (key, files, code, runs),  # around it
    ):
        _forge(entry, pickle.dumps(forged, protocol=5))
        assert setup.read_env(setup.compiled()) == ("deny", "Secrets stay closed")
        assert not marker.exists()
    assert _lazy(setup.compiled())  # rewritten: read from the cache again


def test_writing_an_entry_keeps_the_newest_entries_and_removes_only_its_own_leftovers(
    setup: Setup,
) -> None:
    """Editing a policy day after day must not fill the disk: each entry written keeps the
    newest ``KEEP_ENTRIES``, removes the earlier JSON format and writers' temporary files left
    for an hour, and never touches a file of another name (or a link, or a folder)."""
    assert KEEP_ENTRIES == 256  # the bound the README names
    setup.cache.mkdir(mode=0o700)
    stems = [hashlib.sha256(str(n).encode()).hexdigest()[:40] for n in range(KEEP_ENTRIES + 40)]
    for age, stem in enumerate(stems):  # stems[0] the newest
        entry = setup.cache / f"{stem}.entry"
        entry.write_bytes(b"stale")
        os.utime(entry, (1_000_000_000 - age, 1_000_000_000 - age))
    legacy = setup.cache / f"{stems[0]}.json"
    legacy.write_text("{}")
    old_temp, new_temp = setup.cache / ".entry-old", setup.cache / ".entry-new"
    old_temp.write_bytes(b"")
    new_temp.write_bytes(b"")
    os.utime(old_temp, (1_000_000_000, 1_000_000_000))
    foreign = [setup.cache / "notes.txt", setup.cache / f"{stems[1].upper()}.entry"]
    for path in foreign:
        path.write_text("mine")
        os.utime(path, (1, 1))  # older than every entry: kept only for its name
    (setup.cache / f"{stems[2][:39]}x.entry").symlink_to(setup.ws)
    (setup.cache / f"{'0' * 40}.entry").mkdir()

    setup.compiled()  # cold: writes one entry, then prunes

    left = {p.name for p in setup.cache.iterdir()}
    written = left - {f"{s}.entry" for s in stems} - {p.name for p in foreign}
    written -= {".entry-new", f"{stems[2][:39]}x.entry", "0" * 40 + ".entry"}
    assert written and all(name.endswith(".entry") for name in written)  # sources, compiled
    # The newest KEEP_ENTRIES by time: the new ones, then the newest old ones.
    kept = KEEP_ENTRIES - len(written)
    assert {f"{s}.entry" for s in stems[:kept]} <= left
    assert not {f"{s}.entry" for s in stems[kept:]} & left
    assert not legacy.exists() and not old_temp.exists()
    assert new_temp.exists() and all(p.exists() for p in foreign)
    assert (setup.cache / f"{stems[2][:39]}x.entry").is_symlink()
    assert (setup.cache / f"{'0' * 40}.entry").is_dir()
    assert setup.ws.is_dir()
    # The entry just written is read by the next call.
    entries = setup.entries()
    assert _lazy(setup.compiled()) and setup.entries() == entries


def test_the_stamp_holds_the_install_of_every_library_that_reads_a_policy() -> None:
    """PyYAML parses a policy file, pydantic and its compiled core validate it: another
    version may read the same file otherwise, so their installs are inputs of an entry (the
    hook's test shows an install retiring entries and lanes)."""
    import pydantic
    import pydantic_core
    import yaml

    from toolpolicy.engine.cache_files import code_stamp

    stamped = {path for path, _, _ in code_stamp()}
    for library in (yaml, pydantic, pydantic_core):
        folder = os.path.dirname(library.__file__ or "")
        assert {folder, os.path.dirname(folder), library.__file__} <= stamped
        extensions = [n for n in os.listdir(folder) if n.endswith((".so", ".pyd"))]
        assert {os.path.join(folder, n) for n in extensions} <= stamped
    assert any(p.startswith(os.path.dirname(yaml.__file__ or "")) and p.endswith(".so")
               for p in stamped)  # fmt: skip  # the C parser the loader prefers


def test_another_interpreter_version_misses_the_cache(
    setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The interpreter compiled what an entry holds (its ``re``, ``str.casefold``,
    ``unicodedata``): an entry of another version is not read (as a lane's key holds it)."""
    assert not _lazy(setup.compiled())
    assert _lazy(setup.compiled())  # the entry
    monkeypatch.setattr(sys, "hexversion", sys.hexversion + 1)
    assert not _lazy(setup.compiled())  # built again: another interpreter
    assert _lazy(setup.compiled())
    monkeypatch.undo()
    assert _lazy(setup.compiled())  # the first interpreter's entry is still there
