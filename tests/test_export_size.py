"""The exports of a conference stay within 15x their input (issue 17): one copy of the
graph past `EVERY_COPY_UP_TO` triples, the rest on request (`kg build --rdf all`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kg.builder.pipeline import EVERY_COPY_UP_TO, build

ML_ABSTRACTS = Path(
    os.environ.get("KG_ML_ABSTRACTS")
    or Path(__file__).resolve().parents[2] / "shared" / "data" / "ml_abstracts"
)
ICML_2024 = ML_ABSTRACTS / "icml2024_openreview.jsonl"


@pytest.mark.slow
@pytest.mark.skipif(
    not ICML_2024.is_file(), reason="needs ../shared/data/ml_abstracts (or KG_ML_ABSTRACTS)"
)
def test_the_exports_of_icml_2024_are_at_most_15x_their_input(tmp_path):
    out = tmp_path / "icml2024"
    summary = build([ICML_2024], out, cache_dir=tmp_path / "cache")
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    assert summary.triples > EVERY_COPY_UP_TO and (out / "kg.ttl").is_file()
    assert summary.left_out == ("kg.nt", "kg.jsonld", "kg.graphml")
    assert size <= 15 * ICML_2024.stat().st_size, size / ICML_2024.stat().st_size
