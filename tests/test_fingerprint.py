"""The extraction cache's fingerprint covers every module extraction imports, and only those."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

import kg
from kg.builder.fingerprint import module_closure

PACKAGE = Path(kg.__file__).resolve().parent  # installed or checked out


def _digest(copy: Path) -> str:
    """The fingerprint computed by a fresh interpreter from the kg at `copy`."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from kg.builder.fingerprint import extraction_fingerprint as f; print(f())",
        ],
        cwd=copy,
        env={**os.environ, "PYTHONPATH": str(copy)},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_extraction_depends_on_the_modules_it_imports():
    names = {p.resolve().relative_to(PACKAGE).as_posix() for p in module_closure("kg.extract")}
    # imported by the extractor though outside kg/extract: folding, the lexicon reader
    assert {"names.py", "lexicon.py", "extract/relations.py", "extract/pipeline.py"} <= names
    # the build, export and query side are not part of it
    assert not names & {"builder/pipeline.py", "export/writer.py", "query/sparql.py", "cli/app.py"}
    assert "__init__.py" not in names


def test_a_change_to_any_of_them_misses_the_cache(tmp_path):
    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "kg", copy / "kg", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "ontology", copy / "ontology")
    before = _digest(copy)
    assert _digest(copy) == before  # stable
    names = copy / "kg" / "names.py"  # `fold`, which extraction uses to key names
    names.write_text(names.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    changed = _digest(copy)
    assert changed != before
    query = copy / "kg" / "query" / "sparql.py"  # not used by extraction: the cache stays valid
    query.write_text(query.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert _digest(copy) == changed
