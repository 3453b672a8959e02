"""The scripts beside the package (training/, bench/, docs/) name only what kg has: a module
moved or a function renamed breaks them before anyone runs them (they take minutes)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(p for d in ("training", "bench", "docs") for p in (ROOT / d).glob("*.py"))


def kg_names(path: Path) -> list[tuple[str, str | None]]:
    """(module, name) of every import of kg in the file (name None for `import kg.x`)."""
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "kg":
            found += [(node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(a.name, None) for a in node.names if a.name.split(".")[0] == "kg"]
    return found


def resolves(module: str, name: str | None) -> bool:
    imported = importlib.import_module(module)
    if name is None or hasattr(imported, name):
        return True
    try:  # a submodule: `from kg.export import views`
        importlib.import_module(f"{module}.{name}")
    except ImportError:
        return False
    return True


def test_the_scripts_are_found():
    assert {p.parent.name for p in SCRIPTS} >= {"training", "bench"} and len(SCRIPTS) > 5


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_script_imports_only_what_kg_has(script):
    missing = [f"{m}.{n}" for m, n in kg_names(script) if not resolves(m, n)]
    assert not missing, missing


def test_a_stale_import_is_caught(tmp_path):
    stale = tmp_path / "stale.py"
    stale.write_text("from kg.export import extraction_record\nimport kg.builder\n")
    assert [resolves(m, n) for m, n in kg_names(stale)] == [False, True]
