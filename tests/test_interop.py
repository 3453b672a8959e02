"""The graph as other tools read it: compact JSON-LD, and counts that agree everywhere."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from conftest import SEEDS, need_tool
from rdflib import RDF, Graph, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import SKOS

from kg.builder.pipeline import BuildSummary, build
from kg.namespaces import ENTITY, KG, PREFIXES, VOID
from kg.query.sparql import run_query
from kg.query.stats import stats


@pytest.fixture(scope="module")
def summary_and_out(tmp_path_factory) -> tuple[BuildSummary, Path]:
    out = tmp_path_factory.mktemp("counts")
    return build([SEEDS], out), out


def test_jsonld_is_compacted_with_the_turtle_prefixes_and_the_same_graph(built):
    document = json.loads((built / "kg.jsonld").read_text(encoding="utf-8"))
    assert set(document) == {"@context", "@graph"}
    turtle = (built / "kg.ttl").read_text(encoding="utf-8")
    declared = dict(
        line[len("@prefix ") : -len(" .")].split(": ", 1)
        for line in turtle.splitlines()
        if line.startswith("@prefix ")
    )
    assert document["@context"] == {name: iri[1:-1] for name, iri in declared.items()}
    nodes = document["@graph"]
    assert all("@id" in n and RDF.type.n3()[1:-1] not in n for n in nodes)
    math500 = next(n for n in nodes if n["@id"] == "entity:math500")
    assert set(math500["@type"]) == {"kg:Benchmark", "kg:Entity"}
    assert math500["skos:prefLabel"] == "MATH500"
    ld = Graph().parse(built / "kg.jsonld", format="json-ld")
    assert isomorphic(ld, Graph().parse(built / "kg.ttl"))
    assert isomorphic(ld, Graph().parse(built / "kg.nt", format="nt"))


def test_oxigraph_reads_the_compacted_jsonld(built):
    import pyoxigraph as ox

    ld, nt = ox.Store(), ox.Store()
    ld.bulk_load(path=str(built / "kg.jsonld"), format=ox.RdfFormat.JSON_LD)
    nt.bulk_load(path=str(built / "kg.nt"), format=ox.RdfFormat.N_TRIPLES)
    assert len(ld) == len(nt) > 1000 and set(ld) == set(nt)


def _void(out: Path) -> tuple[int, int, dict[str, int]]:
    void = Graph().parse(out / "void.ttl")
    triples = int(next(void.objects(URIRef(_DATASET), VOID.triples)))
    entities = int(next(void.objects(URIRef(_DATASET), VOID.entities)))
    by_class = {
        str(void.value(part, VOID["class"])): int(void.value(part, VOID.entities))
        for part in void.objects(URIRef(_DATASET), VOID.classPartition)
    }
    return triples, entities, by_class


_DATASET = "https://w3id.org/kg-ml/id/dataset"


def _count(out: Path, engine: str, pattern: str) -> int:
    answer = run_query(f"SELECT (COUNT(*) AS ?n) WHERE {{ {pattern} }}", [out], engine=engine)
    return int(answer.rows[0][0].value)


@pytest.mark.parametrize("engine", ["oxigraph", "rdflib"])
def test_one_count_of_entities_and_triples_everywhere(summary_and_out, engine):
    summary, out = summary_and_out
    triples, entities, by_class = _void(out)
    assert summary.triples == triples == len((out / "kg.nt").read_bytes().splitlines())
    # VoID's void:entities counts every resource described; kg's entities are a class
    assert summary.entities == by_class[str(KG.Entity)] == stats(out).entities
    assert entities == _count(out, engine, "{ SELECT DISTINCT ?s { ?s ?p ?o } }") > triples // 6
    for kind, n in summary.entities_by_type.items():
        assert by_class[str(KG[kind])] == n
        assert _count(out, engine, f"?e a kg:{kind}") == n
    assert stats(out).entities_by_type == summary.entities_by_type
    assert stats(out).triples == triples
    # the default graph of a query is the export: the ontology and VoID are named graphs
    assert _count(out, engine, "?s ?p ?o") == triples
    assert _count(out, engine, "?e a kg:Entity") == summary.entities
    assert _count(out, engine, "GRAPH <https://w3id.org/kg-ml/ontology> { ?c a owl:Class }") > 5


def test_lexicon_families_no_abstract_names_are_concepts_not_entities(summary_and_out):
    _, out = summary_and_out
    graph = Graph().parse(out / "kg.ttl")
    qwen = ENTITY.qwen
    assert (qwen, RDF.type, SKOS.Concept) in graph  # kg:variantOf* still reaches it
    assert not set(graph.objects(qwen, RDF.type)) & {KG.Entity, KG.Model}
    assert (ENTITY.qwen3, KG.variantOf, qwen) in graph
    families = set(graph.subjects(RDF.type, SKOS.Concept))
    assert families and not families & set(graph.subjects(RDF.type, KG.Entity))


def test_the_endpoint_counts_what_void_says(summary_and_out):
    from kg.serve.endpoint import oxigraph_binary, sparql_select, start_server

    if oxigraph_binary() is None:
        need_tool("oxigraph")
    summary, out = summary_and_out
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = start_server(out, port=port)
    try:
        result = sparql_select(server.query_url, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")
        assert int(result["results"]["bindings"][0]["n"]["value"]) == summary.triples
    finally:
        server.stop()


def test_compact_jsonld_keeps_every_kind_of_term():
    import pyoxigraph as ox

    from kg.export.convert import compact_jsonld

    nt = (
        "<https://w3id.org/kg-ml/id/entity/x> <http://www.w3.org/2000/01/rdf-schema#label> "
        '"x"@en .\n'
        "<https://w3id.org/kg-ml/id/entity/x> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> "
        "<https://w3id.org/kg-ml/ontology#Model> .\n"
        '<https://w3id.org/kg-ml/id/entity/x> <https://w3id.org/kg-ml/ontology#value> "7.5"'
        "^^<http://www.w3.org/2001/XMLSchema#decimal> .\n"
        "<https://w3id.org/kg-ml/id/entity/x> <https://schema.org/codeRepository> "
        "<https://github.com/a/b> .\n"
        '<https://example.org/other> <https://example.org/p> "plain \\"quoted\\" ü" .\n'
    )
    body = compact_jsonld(ox.parse(nt.encode(), format=ox.RdfFormat.N_TRIPLES), PREFIXES)
    document = json.dumps({"@context": PREFIXES, "@graph": json.loads(b"[" + body + b"]")})
    first = json.loads(b"[" + body + b"]")[0]
    assert first["@type"] == "kg:Model" and first["schema:codeRepository"] == {
        "@id": "https://github.com/a/b"
    }
    assert first["kg:value"] == {"@value": "7.5", "@type": "xsd:decimal"}
    expected = Graph().parse(data=nt, format="nt")
    assert isomorphic(Graph().parse(data=document, format="json-ld"), expected)
    assert compact_jsonld(ox.parse(nt.encode(), format=ox.RdfFormat.N_TRIPLES), PREFIXES) == body
