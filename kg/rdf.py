"""The RDF view of the graph, described by ontology/kg.ttl.

Triples are N-Triples lines collected in sets (`Triples`): kg only adds and writes, so
rdflib's terms and indexes (about 1 KB a triple, and most of the time at a million triples)
are skipped. The N-Triples are written by kg, paper by paper; Oxigraph turns them into
Turtle and JSON-LD (`kg.convert`). Every node has a content-derived IRI (no blank nodes),
so two builds of the same input are byte-identical.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import BinaryIO
from urllib.parse import quote

from rdflib import RDF, RDFS, XSD, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, SKOS

from kg.lexicon import Concept, default_lexicon
from kg.model import (
    Assertion,
    Entity,
    KnowledgeGraph,
    LinkedResult,
    Mention,
    Paper,
    RelationType,
    Sentence,
)
from kg.namespaces import (
    AGENT,
    ASSERTION,
    COLLECTION,
    DATASET,
    ENTITY,
    KG,
    LEXICON,
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


@dataclass
class Block:
    """The triples of one part of the graph: what papers share (id ""), or one paper's."""

    id: str
    lines: set[str] = field(default_factory=set)
    #: typed subjects by class IRI (a subject is in one block only)
    types: Counter[str] = field(default_factory=Counter)
    #: left out of this build's triples: its bytes are the last build's (`kg.blocks`)
    reused: bool = False


@dataclass
class Counts:
    """How many triples, typed subjects by class IRI, and entities a graph holds (VoID)."""

    triples: int = 0
    classes: Counter[str] = field(default_factory=Counter)
    entities: int = 0

    def add(self, triples: int, classes: Mapping[str, int]) -> None:
        """Count a block of the last build's."""
        self.triples += triples
        self.classes.update(classes)


class Triples:
    """Triples kept as N-Triples lines: what kg writes, with none of an rdflib graph's terms
    and indexes (about 150 bytes a triple instead of 1 KB).

    The lines are kept in blocks and written block by block, each block sorted: first what
    papers share (the extractor, collections, entities and the relations between them),
    then one block per paper (the paper, its mentions and their text spans, its assertions
    and results). Sorting within a block keeps each subject's triples together (Turtle's
    `;` lists) and costs a fraction of sorting a million lines. No triple is in two blocks:
    a paper's block holds only nodes of that paper, so a rebuild can reuse the blocks of
    papers that did not change (`kg.blocks`).

    `add` takes rdflib terms; `add_nt` takes terms already in N-Triples syntax (`iri`,
    `literal`), the fast path for the million triples of a large build.
    """

    def __init__(self) -> None:
        self.blocks: list[Block] = [Block("")]
        self._block = self.blocks[0]
        self._entities: set[str] = set()  #: typed subjects that are entities

    def new_block(self, block: str, reused: bool = False) -> None:
        """Start the block of paper `block`: triples added from now on go there; a block
        `reused` from the last build gets none."""
        self._block = Block(block, reused=reused)
        self.blocks.append(self._block)

    def add(self, triple: Triple) -> None:
        """Add one (subject, predicate, object) triple of rdflib terms."""
        s, p, o = triple
        self.add_nt(_nt(s), _nt(p), _nt(o))

    def add_nt(self, s: str, p: str, o: str) -> None:
        """Add one triple whose terms are already written in N-Triples syntax."""
        line = f"{s} {p} {o} ."
        if p == _A and line not in self._block.lines:
            self._block.types[o[1:-1]] += 1
            if s.startswith(_ENTITY_NT):
                self._entities.add(s)
        self._block.lines.add(line)

    def extend(self, lines: Iterable[str]) -> None:
        """Add N-Triples lines as they are; none may be an rdf:type triple (see `add_nt`)."""
        self._block.lines.update(lines)

    def __len__(self) -> int:
        return sum(len(block.lines) for block in self.blocks)

    def counts(self) -> Counts:
        """The counts of the triples held (not of reused blocks)."""
        counts = Counts(len(self), Counter(), len(self._entities))
        for block in self.blocks:
            counts.classes.update(block.types)
        return counts

    def lines(self) -> Iterator[str]:
        """The N-Triples lines, block by block, each block sorted."""
        for block in self.blocks:
            yield from sorted(block.lines)

    def graph(self) -> Graph:
        """The triples in an rdflib graph with kg's prefixes (for SPARQL or rdflib users)."""
        graph = new_graph()
        graph.parse(data="\n".join(self.lines()), format="nt")
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


class _Terms(dict[str, str]):
    """Ontology terms by CURIE in N-Triples syntax: `_T["oa:hasSource"]` is
    "<http://www.w3.org/ns/oa#hasSource>". A kg: name the ontology does not define fails."""

    def __missing__(self, curie: str) -> str:
        prefix, local = curie.split(":", 1)
        term = KG[local] if prefix == "kg" else URIRef(PREFIXES[prefix] + local)
        self[curie] = iri(term)
        return self[curie]


def iri(term: str) -> str:
    """An IRI (already valid, as kg mints them) in N-Triples syntax."""
    return f"<{term}>"


def literal(text: str, datatype: str | None = None) -> str:
    """A literal in N-Triples syntax: `text` escaped, then the datatype IRI if any."""
    quoted = '"' + _CONTROL.sub(_escape, text) + '"'
    return f"{quoted}^^<{datatype}>" if datatype else quoted


_NON_NEGATIVE = str(XSD.nonNegativeInteger)


def _count(n: int) -> str:
    return f'"{n}"^^<{_NON_NEGATIVE}>'


_T = _Terms()
_A = _T["rdf:type"]
_PAPER, _ENTITY, _ASSERTION, _RESULT = (str(ns) for ns in (PAPER, ENTITY, ASSERTION, RESULT))
_ENTITY_NT = f"<{_ENTITY}"


def _span(graph: Triples, paper: Paper, start: int, end: int) -> str:
    """A kg:TextSpan of the paper with its oa:TextPositionSelector (N-Triples IRI)."""
    span = f"<{_PAPER}{paper.id}/span/{start}-{end}>"
    selector = f"<{_PAPER}{paper.id}/span/{start}-{end}/selector>"
    graph.add_nt(span, _A, _T["kg:TextSpan"])
    graph.add_nt(selector, _A, _T["oa:TextPositionSelector"])
    graph.extend(  # the hot path of a large build: 7 triples for each of 100,000 spans
        (
            f"{span} {_T['oa:hasSource']} <{_PAPER}{paper.id}> .",
            f"{span} {_T['oa:hasSelector']} {selector} .",
            f"{span} {_T['kg:text']} {literal(paper.text[start:end])} .",
            f"{selector} {_T['oa:start']} {_count(start)} .",
            f"{selector} {_T['oa:end']} {_count(end)} .",
        )
    )
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


def _paper(graph: Triples, p: Paper) -> None:
    """The paper node: identifier, abstract, where it was read, venue and metadata."""
    node = PAPER[p.id]
    add, s = graph.add_nt, iri(node)
    add(s, _A, _T["kg:Paper"])
    add(s, _T["dcterms:identifier"], literal(p.id))
    add(s, _T["dcterms:abstract"], literal(p.text))
    add(s, _T["kg:sourceFile"], literal(p.source))
    add(s, _T["kg:sourceLine"], literal(str(p.line), XSD.integer))
    if p.venue:
        add(s, _T["kg:venue"], literal(p.venue))
    if p.year:
        add(s, _T["dcterms:date"], literal(str(p.year), XSD.gYear))
    _metadata(graph, node, p)
    collection = collection_iri(p)
    if collection is not None:  # the collection's own triples are shared: see to_rdf
        graph.add((node, DCTERMS.isPartOf, collection))


def to_rdf(
    kg: KnowledgeGraph,
    extractor: str,
    lexicon: tuple[Concept, ...] | None = None,
    *,
    reuse: Container[str] = frozenset(),
) -> Triples:
    """Papers, entities, mentions, assertions with provenance, and results as RDF.

    Args:
        kg: the linked graph.
        extractor: the extractor version recorded as the agent of every assertion.
        lexicon: the concepts entities were linked to (default: the bundled lexicon); the
            families above a used entity are written too, so that `kg:variantOf*` reaches
            the top of its family (every Qwen model is a variant of entity:qwen).
        reuse: ids of papers whose blocks the last build wrote and this one reuses: their
            blocks are left empty, marked `reused`.

    Returns:
        The `Triples`, whose terms the ontology (ontology/kg.ttl) defines; `.graph()` gives
        an rdflib graph.
    """
    graph = Triples()
    add = graph.add_nt
    agent = iri(AGENT[extractor.replace("/", "-")])
    add(agent, _A, _T["kg:Extractor"])
    add(agent, _T["rdfs:label"], literal(extractor))
    for p in kg.papers:
        collection = collection_iri(p)
        if collection is not None:
            graph.add((collection, RDF.type, KG.Collection))
            graph.add((collection, RDFS.label, Literal(p.collection or f"{p.venue} {p.year}")))
    concepts = {c.key: c for c in (lexicon if lexicon is not None else default_lexicon())}
    keys = {e.key for e in kg.entities}
    for e in kg.entities:
        family = e.broader
        while family and family not in keys and family in concepts:
            keys.add(family)
            _concept(graph, concepts[family])
            family = concepts[family].broader
    mentions: dict[str, list[tuple[Mention, str]]] = defaultdict(list)
    for e in kg.entities:
        _entity(graph, e)
        for ref in e.mentions:
            mentions[ref.paper].append((ref.mention, e.key))
    assertions: dict[str, list[Assertion]] = defaultdict(list)
    for a in kg.assertions:
        if a.relation is not RelationType.PROPOSES:  # a relation between entities
            add(f"<{_ENTITY}{a.head}>", iri(PREDICATES[a.relation]), f"<{_ENTITY}{a.tail}>")
        assertions[a.paper].append(a)
    results: dict[str, list[LinkedResult]] = defaultdict(list)
    for r in kg.results:
        results[r.paper].append(r)
    for p in kg.papers:
        graph.new_block(p.id, reused=p.id in reuse)
        if p.id in reuse:
            continue
        _paper(graph, p)
        paper = f"<{_PAPER}{p.id}>"
        for m, key in mentions[p.id]:
            entity = f"<{_ENTITY}{key}>"
            add(paper, _T["kg:mentions"], entity)
            mention = f"<{_PAPER}{p.id}/mention/{m.start}-{m.end}>"
            add(mention, _A, _T["kg:Mention"])
            add(mention, _T["oa:hasBody"], entity)
            add(mention, _T["oa:hasTarget"], _span(graph, p, m.start, m.end))
        for a in assertions[p.id]:
            _assertion(graph, p, a, agent)
        for r in results[p.id]:
            _result(graph, p, r, agent)
    return graph


def _entity(graph: Triples, e: Entity) -> None:
    """A linked entity: its type, names, family and how it was linked."""
    add = graph.add_nt
    node = f"<{_ENTITY}{e.key}>"
    add(node, _A, _T[f"kg:{e.type.value}"])
    if e.concept:
        add(node, _T["skos:inScheme"], iri(LEXICON))
    for note in e.merge_reasons:
        add(node, _T["skos:editorialNote"], literal(note))
    votes = ", ".join(f"{t} {n}" for t, n in sorted(e.type_votes, key=lambda v: (-v[1], v[0])))
    add(node, _T["kg:typeVotes"], literal(votes))
    add(node, _T["skos:prefLabel"], literal(e.name))
    add(node, _T["rdfs:label"], literal(e.name))
    for alias in e.aliases:
        add(node, _T["skos:altLabel"], literal(alias))
    if e.broader:
        add(node, _T["kg:variantOf"], f"<{_ENTITY}{e.broader}>")


def _assertion(graph: Triples, p: Paper, a: Assertion, agent: str) -> None:
    """A relation the paper states, reified with its provenance and evidence sentence."""
    add = graph.add_nt
    predicate = iri(PREDICATES[a.relation])
    paper = f"<{_PAPER}{p.id}>"
    head = paper if a.relation is RelationType.PROPOSES else f"<{_ENTITY}{a.head}>"
    tail = f"<{_ENTITY}{a.tail}>"
    if a.relation is RelationType.PROPOSES or a.relation in _PAPER_LEVEL:
        add(paper, predicate, tail)
    node = f"<{_ASSERTION}{_digest(a.paper, a.head, a.relation.value, a.tail)}>"
    add(node, _A, _T["kg:Assertion"])
    add(node, _T["rdf:subject"], head)
    add(node, _T["rdf:predicate"], predicate)
    add(node, _T["rdf:object"], tail)
    add(node, _T["prov:wasDerivedFrom"], paper)
    add(node, _T["prov:wasAttributedTo"], agent)
    add(node, _T["kg:evidence"], _sentence(graph, p, a.sentence))


def _result(graph: Triples, p: Paper, r: LinkedResult, agent: str) -> None:
    """A reported result: value, unit, metric, what scored it, on what, and its sentence."""
    add = graph.add_nt
    node = f"<{_RESULT}{_digest(r.paper, r.sentence.start, r.text, r.value)}>"
    add(node, _A, _T["kg:Result"])
    add(node, _T["kg:value"], _decimal(r.value))
    if r.unit:
        add(node, _T["kg:unit"], literal(r.unit))
    if r.metric:
        add(node, _T["kg:metricName"], literal(r.metric))
    if r.subject:
        add(node, _T["kg:resultOf"], f"<{_ENTITY}{r.subject}>")
    if r.benchmark:
        add(node, _T["kg:onBenchmark"], f"<{_ENTITY}{r.benchmark}>")
    add(node, _T["prov:wasDerivedFrom"], f"<{_PAPER}{r.paper}>")
    add(node, _T["prov:wasAttributedTo"], agent)
    add(node, _T["kg:evidence"], _sentence(graph, p, r.sentence))


def _decimal(value: Decimal) -> str:
    """An xsd:decimal in canonical form ("70.0", not "70"), the same in every syntax."""
    lexical = format(value, "f")
    return literal(lexical if "." in lexical else lexical + ".0", XSD.decimal)


def _sentence(graph: Triples, paper: Paper, sentence: Sentence) -> str:
    return _span(graph, paper, sentence.start, sentence.end)


def void_description(counts: Counts, version: str) -> Graph:
    """A VoID description of the export: size, classes, licence and the kg that wrote it."""
    void = new_graph()
    void.add((DATASET, RDF.type, VOID.Dataset))
    void.add((DATASET, DCTERMS.title, Literal("kg knowledge graph of ML papers")))
    void.add((DATASET, DCTERMS.license, URIRef("https://opensource.org/licenses/MIT")))
    void.add((DATASET, DCTERMS.creator, Literal(f"kg {version}")))
    void.add((DATASET, VOID.vocabulary, URIRef(str(KG._NS))))
    void.add((DATASET, VOID.uriSpace, Literal(str(ENTITY)[: -len("entity/")])))
    void.add((DATASET, VOID.triples, Literal(counts.triples, datatype=XSD.integer)))
    void.add((DATASET, VOID.entities, Literal(counts.entities, datatype=XSD.integer)))
    classes = {URIRef(cls): n for cls, n in counts.classes.items() if n}
    void.add((DATASET, VOID.classes, Literal(len(classes), datatype=XSD.integer)))
    for cls, n in sorted(classes.items()):
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
    """The triples as N-Triples, one a line (see `Triples` for the order): diffable,
    streamable, the same bytes for the same input."""
    return "".join(line + "\n" for line in graph.lines())


def write_ntriples(
    graph: Triples, handle: BinaryIO, reused: Callable[[str], bytes | None] | None = None
) -> list[tuple[int, int]]:
    """Write the triples as N-Triples (see `Triples` for the order), in UTF-8, a chunk at a
    time; a block marked reused is written as `reused(paper id)` gives it.

    Returns:
        Each block's byte range in the file, in the order of `graph.blocks`.
    """
    ranges = []
    at = 0
    for block in graph.blocks:
        if block.reused:
            data = reused(block.id) if reused is not None else None
            if data is None:
                raise ValueError(f"block {block.id} is reused but no bytes were given")
            handle.write(data)
            ranges.append((at, at + len(data)))
            at += len(data)
            continue
        start = at
        lines = sorted(block.lines)
        for i in range(0, len(lines), 10_000):
            data = ("\n".join(lines[i : i + 10_000]) + "\n").encode("utf-8")
            handle.write(data)
            at += len(data)
        ranges.append((start, at))
    return ranges
