"""The registry of RDF syntaxes and exports (kg/export/outputs.py), and the lists derived
from it."""

from __future__ import annotations

import io

import pyoxigraph as ox
import pytest
from conftest import SEEDS
from rdflib import Graph

import kg.builder.blocks
import kg.builder.pipeline
import kg.query.load
from kg.export.convert import convert_blocks
from kg.export.outputs import (
    BLOCK_FILES,
    CONVERTED,
    COPIES,
    EXPORTS,
    GRAPHML,
    N_TRIPLES,
    RDF_CHOICES,
    RDF_SYNTAXES,
    graph_in,
    listed,
    rdf_syntax,
    selected,
)
from kg.namespaces import PREFIXES
from kg.query.stats import stats


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
    assert RDF_CHOICES == ("auto", "all", "nt", "turtle", "jsonld", "graphml")
    assert {e.file for e in COPIES.values()} == {*(s.file for s in RDF_SYNTAXES), GRAPHML}
    assert kg.builder.pipeline._BACKGROUND == "GraphML, Turtle and JSON-LD"


def test_an_unknown_syntax_is_a_key_error():
    assert rdf_syntax("jsonld").file == "kg.jsonld"
    with pytest.raises(KeyError, match="rdfxml"):
        rdf_syntax("rdfxml")


def test_listed():
    assert listed(["a"]) == "a"
    assert listed(["a", "b"], "or") == "a or b"
    assert listed(["a", "b", "c"]) == "a, b and c"


EVERY = frozenset({"kg.ttl", "kg.nt", "kg.jsonld", "kg.graphml"})


@pytest.mark.parametrize(
    ("spec", "small", "files"),
    [
        ("auto", True, EVERY),
        ("auto", False, {"kg.ttl"}),
        ("all", False, EVERY),
        ("nt", True, {"kg.nt"}),
        (" Turtle , graphml,turtle", True, {"kg.ttl", "kg.graphml"}),
    ],
)
def test_rdf_choices_select_copies_of_the_graph(spec, small, files):
    assert selected(spec, small) == files


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("graphml", "names no RDF syntax"),
        ("rdfxml", "unknown rdfxml"),
        ("auto,nt", "unknown auto"),
        (",", "nothing named"),
    ],
)
def test_a_bad_rdf_choice_says_why(spec, reason):
    with pytest.raises(ValueError, match=reason):
        selected(spec, True)


def test_graph_in_prefers_the_syntax_asked_for(built, lean, tmp_path):
    assert graph_in(built) == built / "kg.ttl"
    assert graph_in(built, N_TRIPLES) == built / "kg.nt"
    assert graph_in(lean, N_TRIPLES) == lean / "kg.ttl"
    assert graph_in(tmp_path) is None


def test_a_lean_build_writes_one_copy_of_the_graph_and_the_same_bytes(built, lean):
    top = {p.name for p in lean.iterdir() if p.is_file()}
    assert top & EVERY == {"kg.ttl"} and ".kg-manifest" in top
    assert not [p for p in lean.rglob(".kg-tmp.*")]  # kg.nt, written aside, is gone
    for path in lean.rglob("*"):
        if path.is_file() and path.name != ".kg-manifest":
            assert path.read_bytes() == (built / path.relative_to(lean)).read_bytes(), path


def test_auto_writes_every_copy_of_a_small_graph_only(built, tmp_path, monkeypatch):
    triples = stats(built).triples
    assert triples is not None and triples <= kg.builder.pipeline.EVERY_COPY_UP_TO
    assert {p.name for p in built.iterdir()} >= EVERY  # the seeds' build: every copy
    monkeypatch.setattr(kg.builder.pipeline, "EVERY_COPY_UP_TO", triples - 1)
    large = kg.builder.pipeline.build([SEEDS], tmp_path / "large", views="none")
    assert large.left_out == ("kg.nt", "kg.jsonld", "kg.graphml")
    assert {p.name for p in (tmp_path / "large").iterdir()} & EVERY == {"kg.ttl"}
    forced = kg.builder.pipeline.build([SEEDS], tmp_path / "all", views="none", rdf_formats="all")
    assert forced.left_out == () and (tmp_path / "all" / GRAPHML).is_file()
