"""The RDF view of the graph (rdflib), described by ontology/kg.ttl.

Every node has a content-derived IRI (no blank nodes), so the Turtle is deterministic and
two builds of the same input compare equal line by line.
"""

from __future__ import annotations

import hashlib

from rdflib import RDF, RDFS, XSD, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, PROV, SKOS

from kg.model import KnowledgeGraph, Paper, RelationType, Sentence
from kg.namespaces import AGENT, ASSERTION, COLLECTION, ENTITY, KG, OA, PAPER, PREFIXES, RESULT

#: the ontology property of each relation type
PREDICATES: dict[RelationType, URIRef] = {
    RelationType.PROPOSES: KG.proposes,
    RelationType.USES: KG.uses,
    RelationType.EVALUATED_ON: KG.evaluatedOn,
    RelationType.OUTPERFORMS: KG.outperforms,
    RelationType.PART_OF: KG.partOf,
}
#: entity-level relations that also hold of the paper that states them
_PAPER_LEVEL = (RelationType.USES, RelationType.EVALUATED_ON)


def new_graph() -> Graph:
    """An empty rdflib graph with kg's prefixes bound."""
    graph = Graph(bind_namespaces="none")
    for prefix, iri in PREFIXES.items():
        graph.bind(prefix, iri)
    return graph


def _digest(*parts: object) -> str:
    return hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).hexdigest()[:16]


def collection_iri(paper: Paper) -> URIRef | None:
    """The collection a paper's input file names (icml-2026 for both seed files)."""
    if paper.venue and paper.year:
        return COLLECTION[f"{paper.venue.lower()}-{paper.year}"]
    if paper.collection:
        return COLLECTION[_digest(paper.collection)]
    return None


def _span(graph: Graph, paper: Paper, start: int, end: int) -> URIRef:
    """A kg:TextSpan of the paper with its oa:TextPositionSelector."""
    span = PAPER[f"{paper.id}/span/{start}-{end}"]
    selector = PAPER[f"{paper.id}/span/{start}-{end}/selector"]
    graph.add((span, RDF.type, KG.TextSpan))
    graph.add((span, OA.hasSource, PAPER[paper.id]))
    graph.add((span, OA.hasSelector, selector))
    graph.add((span, KG.text, Literal(paper.text[start:end])))
    graph.add((selector, RDF.type, OA.TextPositionSelector))
    graph.add((selector, OA.start, Literal(start, datatype=XSD.nonNegativeInteger)))
    graph.add((selector, OA.end, Literal(end, datatype=XSD.nonNegativeInteger)))
    return span


def to_rdf(kg: KnowledgeGraph, extractor: str) -> Graph:
    """Papers, entities, mentions, assertions with provenance, and results as RDF.

    Args:
        kg: the linked graph.
        extractor: the extractor version recorded as the agent of every assertion.

    Returns:
        An rdflib `Graph` whose terms the ontology (ontology/kg.ttl) defines.
    """
    graph = new_graph()
    agent = AGENT[extractor.replace("/", "-")]
    graph.add((agent, RDF.type, KG.Extractor))
    graph.add((agent, RDFS.label, Literal(extractor)))
    papers = {p.id: p for p in kg.papers}
    for p in kg.papers:
        node = PAPER[p.id]
        graph.add((node, RDF.type, KG.Paper))
        graph.add((node, DCTERMS.identifier, Literal(p.id)))
        graph.add((node, DCTERMS.abstract, Literal(p.text)))
        graph.add((node, KG.sourceFile, Literal(p.source)))
        graph.add((node, KG.sourceLine, Literal(p.line, datatype=XSD.integer)))
        if p.venue:
            graph.add((node, KG.venue, Literal(p.venue)))
        if p.year:
            graph.add((node, DCTERMS.date, Literal(str(p.year), datatype=XSD.gYear)))
        collection = collection_iri(p)
        if collection is not None:
            graph.add((node, DCTERMS.isPartOf, collection))
            graph.add((collection, RDF.type, KG.Collection))
            graph.add((collection, RDFS.label, Literal(p.collection)))
    for e in kg.entities:
        node = ENTITY[e.key]
        graph.add((node, RDF.type, KG[e.type.value]))
        graph.add((node, SKOS.prefLabel, Literal(e.name)))
        graph.add((node, RDFS.label, Literal(e.name)))
        for alias in e.aliases:
            graph.add((node, SKOS.altLabel, Literal(alias)))
        if e.broader:
            graph.add((node, KG.variantOf, ENTITY[e.broader]))
        for pid in e.papers:
            graph.add((PAPER[pid], KG.mentions, node))
        for ref in e.mentions:
            m = ref.mention
            paper = papers[ref.paper]
            mention = PAPER[f"{paper.id}/mention/{m.start}-{m.end}"]
            graph.add((mention, RDF.type, KG.Mention))
            graph.add((mention, OA.hasBody, node))
            graph.add((mention, OA.hasTarget, _span(graph, paper, m.start, m.end)))
    for a in kg.assertions:
        predicate = PREDICATES[a.relation]
        head = PAPER[a.head] if a.relation is RelationType.PROPOSES else ENTITY[a.head]
        tail = ENTITY[a.tail]
        graph.add((head, predicate, tail))
        if a.relation in _PAPER_LEVEL:
            graph.add((PAPER[a.paper], predicate, tail))
        node = ASSERTION[_digest(a.paper, a.head, a.relation.value, a.tail)]
        graph.add((node, RDF.type, KG.Assertion))
        graph.add((node, RDF.subject, head))
        graph.add((node, RDF.predicate, predicate))
        graph.add((node, RDF.object, tail))
        graph.add((node, PROV.wasDerivedFrom, PAPER[a.paper]))
        graph.add((node, PROV.wasAttributedTo, agent))
        graph.add((node, KG.evidence, _sentence(graph, papers[a.paper], a.sentence)))
    for r in kg.results:
        node = RESULT[_digest(r.paper, r.sentence.start, r.text, r.value)]
        graph.add((node, RDF.type, KG.Result))
        graph.add((node, KG.value, Literal(r.value, datatype=XSD.decimal)))
        if r.unit:
            graph.add((node, KG.unit, Literal(r.unit)))
        if r.metric:
            graph.add((node, KG.metricName, Literal(r.metric)))
        if r.subject:
            graph.add((node, KG.resultOf, ENTITY[r.subject]))
        if r.benchmark:
            graph.add((node, KG.onBenchmark, ENTITY[r.benchmark]))
        graph.add((node, PROV.wasDerivedFrom, PAPER[r.paper]))
        graph.add((node, PROV.wasAttributedTo, agent))
        graph.add((node, KG.evidence, _sentence(graph, papers[r.paper], r.sentence)))
    return graph


def _sentence(graph: Graph, paper: Paper, sentence: Sentence) -> URIRef:
    return _span(graph, paper, sentence.start, sentence.end)
