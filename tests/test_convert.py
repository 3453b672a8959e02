"""Turtle and JSON-LD by Oxigraph in a child process (kg/convert.py)."""

from __future__ import annotations

import io

import pytest
from rdflib import Graph

from kg.convert import Conversion, ConversionError, convert_file
from kg.namespaces import PREFIXES


@pytest.fixture()
def nt(tmp_path):
    path = tmp_path / "g.nt"
    grpo = "<https://w3id.org/kg-ml/id/entity/grpo>"
    path.write_text(
        f'{grpo} <http://www.w3.org/2000/01/rdf-schema#label> "GRPO" .\n'
        f'{grpo} <http://www.w3.org/2004/02/skos/core#altLabel> "G\\"RPO" .\n',
        encoding="utf-8",
    )
    return path


def test_the_child_writes_what_the_parent_would(nt, tmp_path):
    targets = [("turtle", tmp_path / "g.ttl"), ("jsonld", tmp_path / "g.jsonld")]
    for _, path in targets:
        path.touch()  # as ExportWriter.reserve does
    conversion = Conversion(nt, targets, PREFIXES)
    conversion.wait()
    for fmt, path in targets:
        here = io.BytesIO()
        convert_file(nt, fmt, here, PREFIXES)
        assert path.read_bytes() == here.getvalue()
    assert b"entity:grpo" in (tmp_path / "g.ttl").read_bytes()  # the prefixes are used
    graph = Graph().parse(nt, format="nt")
    assert len(Graph().parse(tmp_path / "g.jsonld", format="json-ld") ^ graph) == 0


def test_a_child_that_cannot_write_names_the_file(nt, tmp_path):
    conversion = Conversion(nt, [("turtle", tmp_path / "no" / "g.ttl")], PREFIXES)
    with pytest.raises(ConversionError, match="no/g.ttl: No such file or directory"):
        conversion.wait()


def test_no_targets_start_no_process(nt):
    conversion = Conversion(nt, [], PREFIXES)
    conversion.wait()
    conversion.cancel()


def test_a_child_never_makes_a_file(nt, tmp_path):
    """A temporary the build removed (it failed meanwhile) is not made again by the child."""
    gone = tmp_path / "removed.ttl"
    with pytest.raises(ConversionError, match="removed.ttl: No such file or directory"):
        Conversion(nt, [("turtle", gone)], PREFIXES).wait()
    assert not gone.exists()
