from __future__ import annotations

import inspect
import re
import subprocess

import pytest
import rdflib.namespace
from conftest import ROOT, SEED_PAPERS, need_tool
from rdflib import RDF, BNode, Graph, URIRef
from rdflib.namespace import DCTERMS, PROV, RDFS, SKOS

import kg.rdf.terms
from kg.namespaces import KG, MLS, OA, PREFIXES, SCHEMA, VOID
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


@pytest.mark.parametrize("namespace", [KG, OA, SCHEMA, MLS, VOID, RDF, RDFS, SKOS, DCTERMS, PROV])
def test_a_misspelt_term_of_every_vocabulary_kg_writes_fails(namespace):
    with pytest.raises(AttributeError, match="hasSorce"):
        namespace.hasSorce  # noqa: B018
    with pytest.raises(AttributeError, match="hasSorce"):
        namespace["hasSorce"]  # noqa: B018
    assert str(namespace) in PREFIXES.values()


def test_void_is_rdflibs_checked_namespace():
    assert VOID is rdflib.namespace.VOID


@pytest.mark.parametrize(("term", "typo"), [("OA.hasSource", "OA.hasSorce"), ("KG.text", "KG.txt")])
def test_a_misspelt_term_in_the_rdf_terms_fails_at_import(term, typo):
    source = inspect.getsource(kg.rdf.terms)
    assert term in source
    with pytest.raises(AttributeError, match=typo.split(".")[1]):
        exec(compile(source.replace(term, typo), "terms.py", "exec"), {"__name__": "typo"})


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


def test_ntriples_and_jsonld_hold_the_same_graph(built):
    from rdflib.compare import isomorphic

    turtle = Graph().parse(built / "kg.ttl")
    nt = Graph().parse(built / "kg.nt", format="nt")
    ld = Graph().parse(built / "kg.jsonld", format="json-ld")
    assert isomorphic(turtle, nt) and isomorphic(turtle, ld)
    lines = (built / "kg.nt").read_text(encoding="utf-8").splitlines()
    assert len(set(lines)) == len(lines) == len(nt)


def test_ntriples_keep_each_subject_together(built):
    """kg.nt is written block by block (shared nodes, then paper by paper), each block sorted:
    every subject's triples are one run of lines, as Turtle's `;` lists want."""
    lines = (built / "kg.nt").read_text(encoding="utf-8").splitlines()
    runs = [
        s
        for i, s in enumerate(line.split(" ", 1)[0] for line in lines)
        if i == 0 or s != lines[i - 1].split(" ", 1)[0]
    ]
    assert len(runs) == len(set(runs)), "a subject's triples are split"
    papers = [i for i, line in enumerate(lines) if line.endswith("ontology#Paper> .")]
    entities = [
        i for i, line in enumerate(lines) if line.startswith("<https://w3id.org/kg-ml/id/entity/")
    ]
    assert max(entities) < min(papers)  # entities first, then the papers


def test_an_independent_store_loads_the_turtle(built):
    import pyoxigraph

    store = pyoxigraph.Store()
    store.bulk_load(path=str(built / "kg.ttl"), format=pyoxigraph.RdfFormat.TURTLE)
    assert len(store) == len(Graph().parse(built / "kg.ttl"))
    query = (
        "PREFIX kg: <https://w3id.org/kg-ml/ontology#> "
        "SELECT (COUNT(*) AS ?n) WHERE { ?p a kg:Paper }"
    )
    assert int(next(iter(store.query(query)))["n"].value) == SEED_PAPERS


def test_void_describes_the_export(built):
    void = Graph().parse(built / "void.ttl")
    graph = Graph().parse(built / "kg.ttl")
    ns = URIRef("http://rdfs.org/ns/void#")
    (triples,) = void.objects(None, URIRef(f"{ns}triples"))
    assert int(triples) == len(graph)
    # no licence is claimed over abstracts that are their authors': a statement of rights
    assert not list(void.objects(None, URIRef("http://purl.org/dc/terms/license")))
    (rights,) = void.objects(None, URIRef("http://purl.org/dc/terms/rights"))
    assert "their authors'" in str(rights)
    # the creator is an agent (DCMI: dcterms:creator's range), the one assertions name
    (creator,) = void.objects(None, URIRef("http://purl.org/dc/terms/creator"))
    assert isinstance(creator, URIRef)
    prov = "http://www.w3.org/ns/prov#"
    assert set(graph.objects(None, URIRef(prov + "wasAttributedTo"))) == {creator}
    # every vocabulary whose terms the export uses (but RDF's and RDFS's own) is listed
    listed = {str(v) for v in void.objects(None, URIRef(f"{ns}vocabulary"))}
    used = {str(p) for _, p, _ in graph} | {str(c) for c in graph.objects(None, RDF.type)}
    spaces = {re.match(r".*[#/]", term).group() for term in used}
    assert spaces - {str(RDF), str(RDFS)} <= listed, spaces
    # void:entities is VoID's: the resources described, every subject
    dataset = URIRef("https://w3id.org/kg-ml/id/dataset")
    (entities,) = void.objects(dataset, URIRef(f"{ns}entities"))
    assert int(entities) == len(set(graph.subjects())) > SEED_PAPERS


def test_provenance_reaches_the_sentence_and_offsets(built):
    graph = Graph().parse(built / "kg.ttl")
    rows = list(
        graph.query(
            """
        SELECT ?sentence ?start ?end ?agent WHERE {
          ?a a kg:Assertion ; rdf:subject entity:adaptivesequentialmontecarlo ;
             rdf:predicate kg:evaluatedOn ; rdf:object entity:math500 ;
             prov:wasAttributedTo ?agent ;
             kg:evidence [ kg:text ?sentence ; oa:hasSelector [ oa:start ?start ; oa:end ?end ] ;
                           oa:hasSource ?paper ] .
          ?paper dcterms:abstract ?abstract .
        }""",
            initNs=PREFIXES,
        )
    )
    assert len(rows) == 1
    sentence, start, end, agent = rows[0]
    assert "MATH500" in str(sentence) and "ASMC" in str(sentence)
    assert int(end) - int(start) == len(str(sentence))
    assert "kg-extractor" in str(agent)


def test_results_form_a_leaderboard(built):
    graph = Graph().parse(built / "kg.ttl")
    rows = list(
        graph.query(
            """
        SELECT ?who ?value WHERE {
          ?r a kg:Result ; kg:onBenchmark entity:math500 ; kg:value ?value ;
             kg:resultOf/skos:prefLabel ?who } ORDER BY DESC(?value)""",
            initNs=PREFIXES,
        )
    )
    assert [(str(w), str(v)) for w, v in rows] == [("Adaptive Sequential Monte Carlo", "80.6")]
    assert rows[0][1].datatype == URIRef(PREFIXES["xsd"] + "decimal")


def test_papers_using_a_qwen_model_with_evidence(built):
    import json

    from kg.query.library import find_query
    from kg.query.sparql import Term, run_query

    query = find_query("papers-using-family")
    assert query is not None
    family = {"family": Term("uri", "https://w3id.org/kg-ml/id/entity/qwen")}
    answer = run_query(query.text, [built], bindings=family)
    found = {row[0].value.rsplit("/", 1)[1] for row in answer.rows if row[0]}
    assert all(row[3] and "Qwen" in row[3].value for row in answer.rows)
    expected = set()
    for line in (built / "extractions.jsonl").open():
        record = json.loads(line)
        if any(
            r["relation"] == "uses" and r["tail"].startswith("Qwen") for r in record["relations"]
        ):
            expected.add(record["paper"])
    assert found == expected and len(found) >= 4
