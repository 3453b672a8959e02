from __future__ import annotations

import subprocess

import pytest
from conftest import ROOT, need_tool
from rdflib import RDF, BNode, Graph, URIRef

from kg.namespaces import KG, PREFIXES
from kg.resources import ontology_dir

ONTOLOGY = Graph().parse(ROOT / "ontology" / "kg.ttl")


def test_every_namespace_term_is_defined_in_the_ontology():
    defined = {s for s in ONTOLOGY.subjects() if isinstance(s, URIRef)}
    names = [n for n in KG.__annotations__]
    assert names
    for name in names:
        term = KG[name]
        assert term in defined, f"kg:{name} is not in ontology/kg.ttl"
        assert ONTOLOGY.value(term, URIRef(PREFIXES["rdfs"] + "label")) is not None
        assert ONTOLOGY.value(term, URIRef(PREFIXES["rdfs"] + "comment")) is not None


def test_a_typo_in_the_namespace_fails():
    with pytest.raises(AttributeError):
        KG.evaluatedon  # noqa: B018


def test_export_uses_only_ontology_terms_and_no_blank_nodes(built):
    graph = Graph().parse(built / "kg.ttl")
    assert len(graph) > 1000
    kg_ns = str(KG._NS)
    used = {
        t for triple in graph for t in triple if isinstance(t, URIRef) and str(t).startswith(kg_ns)
    }
    defined = set(ONTOLOGY.subjects())
    assert used <= defined, used - defined
    assert not any(isinstance(t, BNode) for triple in graph for t in triple)
    classes = set(graph.objects(None, RDF.type))
    assert {KG.Paper, KG.Method, KG.Model, KG.Benchmark, KG.Assertion} <= classes


def test_export_loads_with_the_ontology_and_the_lexicon(built):
    graph = Graph().parse(built / "kg.ttl").parse(ontology_dir() / "kg.ttl")
    graph.parse(ontology_dir() / "lexicon.ttl")
    rows = graph.query(
        "SELECT ?label WHERE { ?e a ?cls . ?cls rdfs:subClassOf kg:Entity . "
        "?e skos:prefLabel ?label } LIMIT 5",
        initNs=PREFIXES,
    )
    assert len(rows) == 5


def test_rapper_parses_the_turtle(built):
    rapper = need_tool("rapper")
    done = subprocess.run(
        [rapper, "-c", "-i", "turtle", str(built / "kg.ttl")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "returned" in done.stderr and "triples" in done.stderr
    for name in ("kg.ttl", "lexicon.ttl"):
        done = subprocess.run(
            [rapper, "-c", "-i", "turtle", str(ROOT / "ontology" / name)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
