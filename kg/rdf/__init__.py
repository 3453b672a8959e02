"""The RDF view of the graph, described by ontology/kg.ttl.

Triples are N-Triples lines collected in sets (`Triples`): kg only adds and writes, so
rdflib's terms and indexes (about 1 KB a triple, and most of the time at a million triples)
are skipped. The N-Triples are written by kg, paper by paper; Oxigraph turns them into
Turtle and JSON-LD (`kg.export.convert`). Every node has a content-derived IRI (no blank nodes),
so two builds of the same input are byte-identical.

`to_rdf` assembles the parts, each in a module of its own: `iris` (what kg mints),
`terms` (the vocabulary, checked), `syntax` (N-Triples), `triples` (the blocks),
`entities`, `papers` (with mentions and assertions), `results` and `void` (the VoID
description of an export).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from kg.lexicon import Concept, default_lexicon
from kg.links import Links, links
from kg.model import Assertion, KnowledgeGraph, LinkedResult, Mention, Paper, RelationType
from kg.rdf import terms as t
from kg.rdf.entities import add_entity, add_families, add_relation
from kg.rdf.iris import agent_nt, collection_iri, entity_nt, paper_nt
from kg.rdf.papers import add_assertion, add_collections, add_links, add_mention, add_paper
from kg.rdf.results import add_result
from kg.rdf.syntax import block_ntriples, iri, literal, ntriples
from kg.rdf.triples import Block, Counts, Triple, Triples, new_graph
from kg.rdf.void import void_description

__all__ = [
    "Block",
    "block_ntriples",
    "Counts",
    "Triple",
    "Triples",
    "collection_iri",
    "iri",
    "literal",
    "new_graph",
    "ntriples",
    "PaperBlocks",
    "shared_rdf",
    "to_rdf",
    "void_description",
]


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
    graph, papers = shared_rdf(kg, extractor, lexicon)
    for p in kg.papers:
        papers.add(graph, p)
    return graph


def shared_rdf(
    kg: KnowledgeGraph, extractor: str, lexicon: tuple[Concept, ...] | None = None
) -> tuple[Triples, PaperBlocks]:
    """The block of what papers share (the extractor, collections, entities and the
    relations between them), and what makes each paper's block (`PaperBlocks.add`).
    `to_rdf` adds every paper's block; a caller may add only some (see `to_rdf` for the
    arguments)."""
    graph = Triples()
    agent = agent_nt(extractor)
    graph.add_nt(agent, t.A, t.EXTRACTOR)
    graph.add_nt(agent, t.LABEL, literal(extractor))
    add_collections(graph, kg.papers)
    concepts = {c.key: c for c in (lexicon if lexicon is not None else default_lexicon())}
    add_families(graph, kg.entities, concepts)
    mentions: dict[str, list[tuple[Mention, str]]] = defaultdict(list)
    for e in kg.entities:
        add_entity(graph, e)
        for ref in e.mentions:
            mentions[ref.paper].append((ref.mention, e.key))
    assertions: dict[str, list[Assertion]] = defaultdict(list)
    found = FoundLinks({p.id: p.text for p in kg.papers})
    for a in kg.assertions:
        add_relation(graph, a)
        assertions[a.paper].append(a)
    for key, paper in sole_proposers(kg.assertions).items():  # shared: the entity's
        add_links(graph, entity_nt(key), found[paper])
    results: dict[str, list[LinkedResult]] = defaultdict(list)
    for r in kg.results:
        results[r.paper].append(r)
    return graph, PaperBlocks(agent, mentions, assertions, results, found)


class FoundLinks(Mapping[str, Links]):
    """The code and project links of each abstract (`kg.links.links`), by paper id, each
    found when first asked for: a rebuild makes the blocks of a few papers only (the others
    are copied: `kg.builder.blocks`), and reading every abstract for links was a tenth of
    it."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self._texts = texts
        self._found: dict[str, Links] = {}

    def __getitem__(self, paper: str) -> Links:
        found = self._found.get(paper)
        if found is None:
            found = self._found[paper] = links(self._texts[paper])
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)


@dataclass(frozen=True)
class PaperBlocks:
    """What each paper's block is made from, gathered once over the linked graph."""

    agent: str  #: the extractor's IRI in N-Triples syntax
    mentions: Mapping[str, list[tuple[Mention, str]]]  #: by paper: mention, entity key
    assertions: Mapping[str, list[Assertion]]
    results: Mapping[str, list[LinkedResult]]
    found: Mapping[str, Links]  #: the code and project links of each abstract

    def add(self, graph: Triples, p: Paper) -> None:
        """Add the block of paper `p` to `graph`: the paper, its links, mentions,
        assertions and results."""
        graph.new_block(p.id)
        add_paper(graph, p)
        add_links(graph, paper_nt(p.id), self.found[p.id])
        for m, key in self.mentions.get(p.id, ()):
            add_mention(graph, p, m, key)
        for a in self.assertions.get(p.id, ()):
            add_assertion(graph, p, a, self.agent)
        for r in self.results.get(p.id, ()):
            add_result(graph, p, r, self.agent)


def sole_proposers(assertions: Iterable[Assertion]) -> dict[str, str]:
    """The paper of each entity that one paper alone proposes: a paper's code links go on
    what it proposes only then, never on a thing several papers claim ("spiking neural
    networks")."""
    by: dict[str, set[str]] = defaultdict(set)
    for a in assertions:
        if a.relation is RelationType.PROPOSES:
            by[a.tail].add(a.paper)
    return {key: next(iter(papers)) for key, papers in sorted(by.items()) if len(papers) == 1}
