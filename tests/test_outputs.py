"""The registry of RDF syntaxes and exports (kg/export/outputs.py), and the lists derived
from it."""

from __future__ import annotations

import io

import pyoxigraph as ox
import pytest
from rdflib import Graph

import kg.builder.blocks
import kg.builder.pipeline
import kg.query.load
from kg.export.convert import convert_blocks
from kg.export.outputs import (
    BLOCK_FILES,
    CONVERTED,
    EXPORTS,
    N_TRIPLES,
    RDF_CHOICES,
    RDF_SYNTAXES,
    listed,
    rdf_syntax,
)
from kg.namespaces import PREFIXES


def test_a_build_writes_every_registered_export_and_no_other(built):
    top = {p.name for p in built.iterdir() if p.is_file() and not p.name.startswith(".")}
    pages = {p.name for p in built.glob("*.html")}
    assert top - pages == {e.file for e in EXPORTS}


@pytest.mark.parametrize("syntax", RDF_SYNTAXES, ids=lambda s: s.name)
def test_each_syntax_reads_back_as_the_n_triples(built, syntax):
    """Its media type tells Oxigraph the format, its rdflib name parses the file."""
    whole = Graph().parse(built / N_TRIPLES.file, format="nt")
    assert len(Graph().parse(built / syntax.file, format=syntax.rdflib) ^ whole) == 0
    oxigraph = ox.RdfFormat.from_media_type(syntax.media_type)
    assert oxigraph is not None and oxigraph.file_extension == syntax.suffix[1:]
    triples = list(ox.parse(path=str(built / syntax.file), format=oxigraph))
    assert len(triples) == len(whole)


@pytest.mark.parametrize("syntax", CONVERTED, ids=lambda s: s.name)
def test_each_converted_syntax_is_written_by_the_converter(built, syntax):
    here = io.BytesIO()
    nt = (built / N_TRIPLES.file).read_bytes()
    convert_blocks(nt, [(0, len(nt))], syntax.name, here, PREFIXES)
    assert here.getvalue() == (built / syntax.file).read_bytes()


def test_the_lists_are_derived_from_the_registry():
    assert kg.query.load.EXPORTS == ("kg.ttl", "kg.nt", "kg.jsonld")  # the order a query prefers
    assert kg.query.load.RDF_SUFFIXES == {".ttl": "turtle", ".nt": "nt", ".jsonld": "json-ld"}
    assert (
        kg.builder.blocks.FILES
        == BLOCK_FILES
        == ("kg.nt", "kg.ttl", "kg.jsonld", "extractions.jsonl")
    )
    assert [s.name for s in CONVERTED] == ["turtle", "jsonld"]  # N-Triples is kg's own
    assert RDF_CHOICES == ("all", "nt")
    assert kg.builder.pipeline._BACKGROUND == "GraphML, Turtle and JSON-LD"


def test_an_unknown_syntax_is_a_key_error():
    assert rdf_syntax("jsonld").file == "kg.jsonld"
    with pytest.raises(KeyError, match="rdfxml"):
        rdf_syntax("rdfxml")


def test_listed():
    assert listed(["a"]) == "a"
    assert listed(["a", "b"], "or") == "a or b"
    assert listed(["a", "b", "c"]) == "a, b and c"
