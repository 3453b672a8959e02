"""The RDF view of the graph, described by ontology/kg.ttl.

Triples are rdflib terms collected in a plain set (`Triples`): kg only adds and writes, so
rdflib's indexes (about 1 KB a triple, and most of the time at a million triples) are
skipped. The N-Triples are written by kg, sorted; Oxigraph turns them into Turtle and
JSON-LD. Every node has a content-derived IRI (no blank nodes), so two builds of the same
input are byte-identical.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import BinaryIO
from urllib.parse import quote

from rdflib import RDF, RDFS, XSD, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, PROV, SKOS

from kg.lexicon import Concept, default_lexicon
from kg.model import KnowledgeGraph, Paper, RelationType, Sentence
from kg.namespaces import (
    AGENT,
    ASSERTION,
    COLLECTION,
    DATASET,
    ENTITY,
    KG,
    LEXICON,
    OA,
    PAPER,
    PREFIXES,
    RESULT,
    SCHEMA,
    VOID,
)

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


Term = URIRef | Literal
Triple = tuple[URIRef, URIRef, Term]


class Triples:
    """A set of triples kept as N-Triples lines: what kg writes, with none of an rdflib
    graph's indexes (about 150 bytes a triple instead of 1 KB)."""

    def __init__(self) -> None:
        self._lines: set[str] = set()
        #: subjects of rdf:type triples by class, gathered as they are added (for VoID)
        self.typed: dict[URIRef, set[URIRef]] = {}

    def add(self, triple: Triple) -> None:
        """Add one (subject, predicate, object) triple."""
        s, p, o = triple
        self._lines.add(f"{_nt(s)} {_nt(p)} {_nt(o)} .")
        if p == RDF.type:
            self.typed.setdefault(o, set()).add(s)  # type: ignore[arg-type]

    def __len__(self) -> int:
        return len(self._lines)

    def lines(self) -> list[str]:
        """The N-Triples lines, sorted."""
        return sorted(self._lines)

    def graph(self) -> Graph:
        """The triples in an rdflib graph with kg's prefixes (for SPARQL or rdflib users)."""
        graph = new_graph()
        graph.parse(data="\n".join(self._lines), format="nt")
        return graph


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


def _span(graph: Triples, paper: Paper, start: int, end: int) -> URIRef:
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


def _concept(graph: Triples, concept: Concept) -> None:
    node = ENTITY[concept.key]
    graph.add((node, RDF.type, KG[concept.type.value]))
    graph.add((node, SKOS.prefLabel, Literal(concept.label)))
    graph.add((node, RDFS.label, Literal(concept.label)))
    graph.add((node, SKOS.inScheme, LEXICON))
    for alias in concept.alt_labels:
        graph.add((node, SKOS.altLabel, Literal(alias)))
    if concept.broader:
        graph.add((node, KG.variantOf, ENTITY[concept.broader]))


def _iri(text: str) -> URIRef | None:
    """An http(s) IRI with unsafe characters escaped, or None when `text` is not one."""
    if not re.match(r"https?://[^\s/]+", text):
        return None
    return URIRef(quote(text, safe=":/?#[]@!$&'()*+,;=%-._~"))


def _metadata(graph: Triples, node: URIRef, p: Paper) -> None:
    """Title, authors, links and identifiers a structured input gave."""
    if p.title:
        graph.add((node, DCTERMS.title, Literal(p.title)))
    for author in p.authors:
        graph.add((node, DCTERMS.creator, Literal(author)))
    if p.url and (url := _iri(p.url)) is not None:
        graph.add((node, SCHEMA.url, url))
    if p.arxiv_id:
        graph.add((node, DCTERMS.identifier, Literal(f"arXiv:{p.arxiv_id}")))
        graph.add((node, SCHEMA.sameAs, URIRef(f"https://arxiv.org/abs/{quote(p.arxiv_id)}")))
    if p.doi:
        graph.add((node, DCTERMS.identifier, Literal(f"doi:{p.doi}")))
        graph.add((node, SCHEMA.sameAs, URIRef(f"https://doi.org/{quote(p.doi, safe='/:;()')}")))
    if p.external_id:
        graph.add((node, DCTERMS.identifier, Literal(p.external_id)))


def to_rdf(
    kg: KnowledgeGraph, extractor: str, lexicon: tuple[Concept, ...] | None = None
) -> Triples:
    """Papers, entities, mentions, assertions with provenance, and results as RDF.

    Args:
        kg: the linked graph.
        extractor: the extractor version recorded as the agent of every assertion.
        lexicon: the concepts entities were linked to (default: the bundled lexicon); the
            families above a used entity are written too, so that `kg:variantOf*` reaches
            the top of its family (every Qwen model is a variant of entity:qwen).

    Returns:
        The `Triples`, whose terms the ontology (ontology/kg.ttl) defines; `.graph()` gives
        an rdflib graph.
    """
    graph = Triples()
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
        _metadata(graph, node, p)
        collection = collection_iri(p)
        if collection is not None:
            graph.add((node, DCTERMS.isPartOf, collection))
            graph.add((collection, RDF.type, KG.Collection))
            label = p.collection or f"{p.venue} {p.year}"
            graph.add((collection, RDFS.label, Literal(label)))
    concepts = {c.key: c for c in (lexicon if lexicon is not None else default_lexicon())}
    keys = {e.key for e in kg.entities}
    for e in kg.entities:
        family = e.broader
        while family and family not in keys and family in concepts:
            keys.add(family)
            _concept(graph, concepts[family])
            family = concepts[family].broader
    for e in kg.entities:
        node = ENTITY[e.key]
        graph.add((node, RDF.type, KG[e.type.value]))
        if e.concept:
            graph.add((node, SKOS.inScheme, LEXICON))
        for note in e.merge_reasons:
            graph.add((node, SKOS.editorialNote, Literal(note)))
        votes = ", ".join(f"{t} {n}" for t, n in sorted(e.type_votes, key=lambda v: (-v[1], v[0])))
        graph.add((node, KG.typeVotes, Literal(votes)))
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
        graph.add((node, KG.value, _decimal(r.value)))
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


def _decimal(value: Decimal) -> Literal:
    """An xsd:decimal in canonical form ("70.0", not "70"), the same in every syntax."""
    lexical = format(value, "f")
    return Literal(lexical if "." in lexical else lexical + ".0", datatype=XSD.decimal)


def _sentence(graph: Triples, paper: Paper, sentence: Sentence) -> URIRef:
    return _span(graph, paper, sentence.start, sentence.end)


def void_description(graph: Triples, version: str) -> Graph:
    """A VoID description of the export: size, classes, licence and the kg that wrote it."""
    void = new_graph()
    void.add((DATASET, RDF.type, VOID.Dataset))
    void.add((DATASET, DCTERMS.title, Literal("kg knowledge graph of ML papers")))
    void.add((DATASET, DCTERMS.license, URIRef("https://opensource.org/licenses/MIT")))
    void.add((DATASET, DCTERMS.creator, Literal(f"kg {version}")))
    void.add((DATASET, VOID.vocabulary, URIRef(str(KG._NS))))
    void.add((DATASET, VOID.uriSpace, Literal(str(ENTITY)[: -len("entity/")])))
    void.add((DATASET, VOID.triples, Literal(len(graph), datatype=XSD.integer)))
    entity = str(ENTITY)
    entities = {s for members in graph.typed.values() for s in members if s.startswith(entity)}
    void.add((DATASET, VOID.entities, Literal(len(entities), datatype=XSD.integer)))
    counts = {cls: len(members) for cls, members in graph.typed.items()}
    void.add((DATASET, VOID.classes, Literal(len(counts), datatype=XSD.integer)))
    for cls, n in sorted(counts.items()):
        local = str(cls).rsplit("#", 1)[-1].rsplit("/", 1)[-1]
        part = URIRef(f"{DATASET}/class/{local}")
        void.add((DATASET, VOID.classPartition, part))
        void.add((part, VOID["class"], cls))
        void.add((part, VOID.entities, Literal(n, datatype=XSD.integer)))
    return void


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_CONTROL = re.compile(r'[\\"\x00-\x1f\x7f]')


def _escape(match: re.Match[str]) -> str:
    char = match.group(0)
    return _ESCAPES.get(char) or f"\\u{ord(char):04X}"


def _nt(term: Term) -> str:
    if isinstance(term, URIRef):
        return f"<{term}>"
    text = '"' + _CONTROL.sub(_escape, str(term)) + '"'
    if term.language:
        return f"{text}@{term.language}"
    if term.datatype and str(term.datatype) != str(XSD.string):
        return f"{text}^^<{term.datatype}>"
    return text


def ntriples(graph: Triples) -> str:
    """The triples as N-Triples, one a line, sorted: diffable, streamable, deterministic."""
    lines = graph.lines()
    return "\n".join(lines) + "\n" if lines else ""


def write_ntriples(graph: Triples, handle: BinaryIO) -> None:
    """Write the triples as sorted N-Triples, in UTF-8, a chunk at a time."""
    lines = graph.lines()
    for i in range(0, len(lines), 10_000):
        handle.write("".join(line + "\n" for line in lines[i : i + 10_000]).encode("utf-8"))


def convert_file(nt: Path, fmt: str, handle: BinaryIO) -> None:
    """Stream an N-Triples file to Turtle (with kg's prefixes) or JSON-LD, by Oxigraph.

    Oxigraph writes the triples in the order given, so sorted input gives the same bytes;
    the prefix lines are put in a fixed order, whatever the writer's map does.
    """
    import pyoxigraph as ox

    target = {"turtle": ox.RdfFormat.TURTLE, "jsonld": ox.RdfFormat.JSON_LD}[fmt]
    triples = ox.parse(path=str(nt), format=ox.RdfFormat.N_TRIPLES)
    if fmt != "turtle":
        ox.serialize(triples, output=handle, format=target)
        handle.write(b"\n")
        return
    with tempfile.TemporaryFile() as body:
        ox.serialize(triples, output=body, format=target, prefixes=dict(sorted(PREFIXES.items())))
        body.seek(0)
        head = []
        while (line := body.readline()).startswith(b"@prefix"):
            head.append(line)
        handle.write(b"".join(sorted(head)))
        handle.write(line)
        shutil.copyfileobj(body, handle)
