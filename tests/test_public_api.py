"""The public API: every exported name resolves, and importing the package stays light."""

from __future__ import annotations

import subprocess
import sys

import toolpolicy


def test_every_exported_name_resolves() -> None:
    for name in toolpolicy.__all__:
        assert getattr(toolpolicy, name) is not None, name


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        toolpolicy.nothing_here  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "nothing_here" in str(exc)
    else:
        raise AssertionError("an unknown attribute resolved")


def test_importing_the_package_loads_no_heavy_dependency() -> None:
    code = (
        "import sys, toolpolicy;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('yaml', 'pydantic', 'jsonschema', 'click')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
