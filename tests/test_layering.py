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
