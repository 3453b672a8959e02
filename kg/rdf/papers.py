"""Papers: each paper's node, collection and metadata, its mentions with their text spans,
and the assertions it states with their provenance (one block per paper)."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import quote

from rdflib import RDF, RDFS, XSD, Literal, URIRef
from rdflib.namespace import DC, DCTERMS

from kg.links import Links
from kg.model import Assertion, Mention, Paper, RelationType, Sentence
from kg.namespaces import KG, PAPER, SCHEMA
from kg.rdf import terms as t
from kg.rdf.iris import (
    assertion_nt,
    collection_iri,
    entity_nt,
    http_iri,
    mention_nt,
    paper_nt,
    selector_nt,
    span_nt,
)
from kg.rdf.syntax import count, iri, literal
from kg.rdf.triples import Triples

#: entity-level relations that also hold of the paper that states them
_PAPER_LEVEL = (RelationType.USES, RelationType.EVALUATED_ON)


def add_collections(graph: Triples, papers: Iterable[Paper]) -> None:
    """The collections the papers are part of (shared: each paper's block links to one)."""
    for p in papers:
        collection = collection_iri(p)
        if collection is not None:
            graph.add((collection, RDF.type, KG.Collection))
            graph.add((collection, RDFS.label, Literal(p.collection or f"{p.venue} {p.year}")))


def add_paper(graph: Triples, p: Paper) -> None:
    """The paper node: identifier, abstract, where it was read, venue and metadata."""
    node = PAPER[p.id]
    add, s = graph.add_nt, iri(node)
    add(s, t.A, t.PAPER)
    add(s, t.IDENTIFIER, literal(p.id))
    add(s, t.ABSTRACT, literal(p.text))
    add(s, t.SOURCE_FILE, literal(p.source))
    add(s, t.SOURCE_LINE, literal(str(p.line), XSD.integer))
    if p.venue:
        add(s, t.VENUE, literal(p.venue))
    if p.year:
        add(s, t.DATE, literal(str(p.year), XSD.gYear))
    _metadata(graph, node, p)
    collection = collection_iri(p)
    if collection is not None:  # the collection's own triples are shared: add_collections
        graph.add((node, DCTERMS.isPartOf, collection))


def _metadata(graph: Triples, node: URIRef, p: Paper) -> None:
    """Title, authors, links and identifiers a structured input gave."""
    if p.title:
        graph.add((node, DCTERMS.title, Literal(p.title)))
    for author in p.authors:  # a name, not an agent: DCMI's dc:creator, not dcterms:creator
        graph.add((node, DC.creator, Literal(author)))
    if p.url and (url := http_iri(p.url)) is not None:
        graph.add((node, SCHEMA.url, url))
    if p.arxiv_id:
        graph.add((node, DCTERMS.identifier, Literal(f"arXiv:{p.arxiv_id}")))
        graph.add((node, SCHEMA.sameAs, URIRef(f"https://arxiv.org/abs/{quote(p.arxiv_id)}")))
    if p.doi:
        graph.add((node, DCTERMS.identifier, Literal(f"doi:{p.doi}")))
        graph.add((node, SCHEMA.sameAs, URIRef(f"https://doi.org/{quote(p.doi, safe='/:;()')}")))
    if p.external_id:
        graph.add((node, DCTERMS.identifier, Literal(p.external_id)))


def add_links(graph: Triples, node: str, found: Links) -> None:
    """The code repositories (`schema:codeRepository`) and project pages (`schema:url`) an
    abstract links to, on `node` (N-Triples IRI): the paper, or what it proposes."""
    for predicate, urls in ((t.CODE_REPOSITORY, found.code), (t.URL, found.pages)):
        for url in urls:
            if (link := http_iri(url)) is not None:
                graph.add_nt(node, predicate, iri(link))


def add_mention(graph: Triples, p: Paper, m: Mention, key: str) -> None:
    """A mention of entity `key` in the paper, with the text span it annotates."""
    add = graph.add_nt
    entity = entity_nt(key)
    add(paper_nt(p.id), t.MENTIONS, entity)
    mention = mention_nt(p.id, m.start, m.end)
    add(mention, t.A, t.MENTION)
    add(mention, t.HAS_BODY, entity)
    add(mention, t.HAS_TARGET, span(graph, p, m.start, m.end))


def span(graph: Triples, paper: Paper, start: int, end: int) -> str:
    """A kg:TextSpan of the paper with its oa:TextPositionSelector (N-Triples IRI)."""
    node = span_nt(paper.id, start, end)
    selector = selector_nt(paper.id, start, end)
    graph.add_nt(node, t.A, t.TEXT_SPAN)
    graph.add_nt(selector, t.A, t.TEXT_POSITION_SELECTOR)
    graph.extend(  # the hot path of a large build: 7 triples for each of 100,000 spans
        (
            f"{node} {t.HAS_SOURCE} {paper_nt(paper.id)} .",
            f"{node} {t.HAS_SELECTOR} {selector} .",
            f"{node} {t.TEXT} {literal(paper.text[start:end])} .",
            f"{selector} {t.START} {count(start)} .",
            f"{selector} {t.END} {count(end)} .",
        )
    )
    return node


def sentence_span(graph: Triples, paper: Paper, sentence: Sentence) -> str:
    """The text span of a sentence of the paper (N-Triples IRI)."""
    return span(graph, paper, sentence.start, sentence.end)


def add_assertion(graph: Triples, p: Paper, a: Assertion, agent: str) -> None:
    """A relation the paper states, reified with its provenance and evidence sentence."""
    add = graph.add_nt
    predicate = t.PREDICATES[a.relation]
    paper = paper_nt(p.id)
    head = paper if a.relation is RelationType.PROPOSES else entity_nt(a.head)
    tail = entity_nt(a.tail)
    if a.relation is RelationType.PROPOSES or a.relation in _PAPER_LEVEL:
        add(paper, predicate, tail)
    node = assertion_nt(a)
    add(node, t.A, t.ASSERTION)
    add(node, t.SUBJECT, head)
    add(node, t.PREDICATE, predicate)
    add(node, t.OBJECT, tail)
    add(node, t.DERIVED_FROM, paper)
    add(node, t.ATTRIBUTED_TO, agent)
    add(node, t.EVIDENCE, sentence_span(graph, p, a.sentence))
