"""What each part of kg loads: linking and the cache commands do not need spaCy."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    "module", ["kg.link", "kg.builder.cache", "kg.extract", "kg.extract.families"]
)
def test_spacy_is_not_loaded_by(module):
    code = f"import sys, {module}; print('spacy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_spacy_is_loaded_when_extraction_runs():
    code = "import sys; from kg.extract import extract; print('spacy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"


@pytest.mark.parametrize(
    "stage",
    ["kg.ingest", "kg.link", "kg.graph", "kg.rdf", "kg.export.extractions", "kg.export.views"],
)
def test_a_stage_knows_nothing_of_the_build(stage):
    """Reuse, memos and worker pools are a layer around the stages (kg/builder/)."""
    from pathlib import Path

    import kg
    from kg.builder.fingerprint import module_closure

    package = Path(kg.__file__).resolve().parent
    names = {p.resolve().relative_to(package).as_posix() for p in module_closure(stage)}
    assert names and not {n for n in names if n.startswith("builder/")}
