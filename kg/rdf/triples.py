"""`Triples`: the triples kg writes, kept as N-Triples lines in blocks, with their counts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from rdflib import Graph, URIRef

from kg.namespaces import KG, PREFIXES
from kg.rdf import syntax
from kg.rdf.syntax import Term
from kg.rdf.terms import A

Triple = tuple[URIRef, URIRef, Term]

_ENTITY_CLASS = str(KG.Entity)


@dataclass
class Block:
    """The triples of one part of the graph: what papers share (id ""), or one paper's."""

    id: str
    lines: set[str] = field(default_factory=set)
    #: typed subjects by class IRI (a subject is in one block only)
    types: Counter[str] = field(default_factory=Counter)


@dataclass
class Counts:
    """How many triples and typed subjects by class IRI a graph holds (VoID)."""

    triples: int = 0
    classes: Counter[str] = field(default_factory=Counter)

    @property
    def entities(self) -> int:
        """The entities: subjects typed `kg:Entity` (what abstracts name; the lexicon's
        families above them are not), as many as the build summary and GraphML count."""
        return self.classes[_ENTITY_CLASS]

    @property
    def subjects(self) -> int:
        """The subjects: every one is typed, once, but an entity twice (`a kg:Entity,
        kg:Method`), so the typed subjects less the entities (tests/test_interop.py checks
        this against a count of the distinct subjects)."""
        return sum(self.classes.values()) - self.entities

    def add(self, triples: int, classes: Mapping[str, int]) -> None:
        """Count a block that is not among the triples held (one a rebuild copies)."""
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
    papers that did not change (`kg.builder.blocks`).

    `add` takes rdflib terms; `add_nt` takes terms already in N-Triples syntax (`iri`,
    `literal`), the fast path for the million triples of a large build.
    """

    def __init__(self) -> None:
        self.blocks: list[Block] = [Block("")]
        self._block = self.blocks[0]

    def new_block(self, block: str) -> None:
        """Start the block of paper `block`: triples added from now on go there."""
        self._block = Block(block)
        self.blocks.append(self._block)

    def add(self, triple: Triple) -> None:
        """Add one (subject, predicate, object) triple of rdflib terms."""
        s, p, o = triple
        self.add_nt(syntax.term(s), syntax.term(p), syntax.term(o))

    def add_nt(self, s: str, p: str, o: str) -> None:
        """Add one triple whose terms are already written in N-Triples syntax."""
        line = f"{s} {p} {o} ."
        if p == A and line not in self._block.lines:
            self._block.types[o[1:-1]] += 1
        self._block.lines.add(line)

    def extend(self, lines: Iterable[str]) -> None:
        """Add N-Triples lines as they are; none may be an rdf:type triple (see `add_nt`)."""
        self._block.lines.update(lines)

    def __len__(self) -> int:
        return sum(len(block.lines) for block in self.blocks)

    def counts(self) -> Counts:
        """The counts of the triples held."""
        counts = Counts(len(self), Counter())
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
