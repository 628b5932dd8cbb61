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


def test_the_typed_imports_name_exactly_the_lazy_exports() -> None:
    """The names mypy sees (the TYPE_CHECKING imports) are the names that resolve at run time."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(toolpolicy.__file__).read_text(encoding="utf-8"))
    typed: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom)
                typed.update(alias.name for alias in statement.names)
    assert typed == set(toolpolicy.__all__) - {"__version__"}
    assert sorted(dir(toolpolicy)) == sorted(toolpolicy.__all__)


def test_the_package_version_is_the_project_version() -> None:
    import tomllib
    from pathlib import Path

    project = Path(__file__).resolve().parents[1] / "pyproject.toml"
    assert tomllib.loads(project.read_text())["project"]["version"] == toolpolicy.__version__


def test_loading_a_valid_policy_does_not_load_the_schema_validator(tmp_path: object) -> None:
    """jsonschema only explains a refused document: an accepted one never imports it (a
    tenth of a second of every ``lint``, ``check`` and cold hook start), a refused one
    still gets its positioned schema messages."""
    code = (
        "import sys, toolpolicy\n"
        "from toolpolicy.language.document import check_bytes_partial\n"
        "toolpolicy.load('P03', policies=[sys.argv[1]], workspace=sys.argv[2])\n"
        "print('jsonschema' in sys.modules)\n"
        "_, problems = check_bytes_partial(b'apiVersion: toolpolicy/v1\\nkind: Policy\\n"
        "name: x\\nrules: 7\\n', 'bad.yaml')\n"
        "print('jsonschema' in sys.modules, [(p.line, p.code) for p in problems])\n"
    )
    from pathlib import Path

    folder = Path(str(tmp_path))
    policy = folder / "ok.yaml"
    policy.write_text(
        "apiVersion: toolpolicy/v1\nkind: Policy\nname: ok\nrules:\n"
        "  - {name: r, behavior: deny, reason: closed, match: {paths: [secret]}}\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(policy), str(folder)],
        capture_output=True,
        text=True,
        check=True,
    )
    accepted, refused = done.stdout.splitlines()
    assert accepted == "False"
    assert refused == "True [(4, 'schema')]"
