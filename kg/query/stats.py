"""Counts over the exported graph: entities by type, relations, most connected entities.

Read from kg.graphml where the exports hold it, else from the RDF graph (kg.ttl: `kg build
--rdf` leaves GraphML out of large graphs) by SPARQL, which counts the same: a test keeps
the two equal.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import networkx as nx

from kg.errors import InputError
from kg.export.outputs import GRAPHML, RDF_SYNTAXES, graph_in, listed
from kg.graph_schema import MENTIONS, VARIANT_OF, edges, entity_nodes, paper_nodes


@dataclass(frozen=True)
class Stats:
    """Counts of a built graph."""

    papers: int
    entities_by_type: dict[str, int]
    relations_by_type: dict[str, int]
    top_entities: tuple[tuple[str, str, int], ...]  #: (name, type, papers)
    triples: int | None = None  #: `void:triples` of the export's void.ttl, if there is one

    @property
    def entities(self) -> int:
        """The entities (what abstracts name): as the build summary and VoID count them."""
        return sum(self.entities_by_type.values())


def read_graph(exports: Path) -> nx.MultiDiGraph:
    """Read exports/kg.graphml."""
    path = exports / GRAPHML if exports.is_dir() else exports
    if not path.is_file():
        raise InputError(path, "no such file; run `kg build` first")
    try:
        return nx.read_graphml(path, force_multigraph=True)
    except Exception as error:  # networkx raises parser-specific errors
        raise InputError(path, f"not a GraphML file kg wrote: {error}") from None


def stats(exports: Path, top: int = 10) -> Stats:
    """Counts by type and the `top` entities mentioned by the most papers, from the
    exports' kg.graphml, else from their RDF graph (or from the GraphML or RDF file given).

    Raises:
        InputError: there is no such file, or the directory holds neither.
    """
    if exports.is_dir() and not (exports / GRAPHML).is_file():
        if graph_in(exports) is None:
            names = listed([GRAPHML, *(s.file for s in RDF_SYNTAXES)], "or")
            raise InputError(exports, f"holds no {names}; run `kg build` first")
        return _rdf_stats(exports, top)
    if exports.is_file() and exports.suffix != ".graphml":
        return _rdf_stats(exports, top)
    graph = read_graph(exports)
    try:
        found = [d for _, d in entity_nodes(graph)]
        types = Counter(d["type"] for d in found)
        relations = Counter(d["relation"] for *_, d in edges(graph))
        entities = sorted(
            ((d["label"], d["type"], int(d["papers"])) for d in found),
            key=lambda item: (-item[2], item[0]),
        )
    except (KeyError, TypeError, ValueError) as error:  # GraphML of another tool
        path = exports / GRAPHML if exports.is_dir() else exports
        raise InputError(
            path, f"not a GraphML file kg wrote (no {error} on its nodes or edges)"
        ) from None
    return Stats(
        triples=_void_triples(exports),
        papers=sum(1 for _ in paper_nodes(graph)),
        entities_by_type=dict(sorted(types.items())),
        relations_by_type=dict(sorted(relations.items())),
        top_entities=tuple(entities[:top]),
    )


def _void_triples(exports: Path) -> int | None:
    """The triples the export's VoID description counts (None without one)."""
    from rdflib import Graph

    from kg.namespaces import VOID

    path = (exports if exports.is_dir() else exports.parent) / "void.ttl"
    if not path.is_file():
        return None
    value = next(Graph().parse(path).objects(None, VOID.triples), None)
    return int(str(value)) if value is not None else None


_PAPERS = "SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Paper }"
_ENTITIES = """SELECT ?type ?label (COUNT(DISTINCT ?p) AS ?papers) WHERE {
  ?e a kg:Entity, ?type ; skos:prefLabel ?label . FILTER (?type != kg:Entity)
  OPTIONAL { ?p kg:mentions ?e } } GROUP BY ?e ?type ?label"""
#: the graph's edges of each kind: a mention is an edge unless the paper proposes the
#: entity (that is its edge); a family link joins two entities; a stated relation is one
#: edge per paper that states it
_EDGES = {
    MENTIONS: "SELECT (COUNT(*) AS ?n) WHERE { ?p kg:mentions ?e "
    "FILTER NOT EXISTS { ?p kg:proposes ?e } }",
    VARIANT_OF: "SELECT (COUNT(*) AS ?n) WHERE { ?e a kg:Entity ; kg:variantOf ?b . "
    "?b a kg:Entity }",
}
_STATED = """SELECT ?relation (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?h ?relation ?t ?p
  WHERE { ?a a kg:Assertion ; rdf:subject ?h ; rdf:predicate ?relation ; rdf:object ?t ;
  prov:wasDerivedFrom ?p } } GROUP BY ?relation"""


def _rdf_stats(exports: Path, top: int) -> Stats:
    """`stats` of the exports' RDF graph (the store `kg build` wrote, else the files)."""
    from kg.query.load import load_store
    from kg.query.sparql import run_query
    from kg.rdf.terms import PREDICATES

    store = load_store([exports])

    def rows(query: str) -> list[list[str]]:
        answer = run_query(query, [exports], store=store)
        return [[term.value if term else "" for term in row] for row in answer.rows]

    relation = {iri[1:-1]: r.value for r, iri in PREDICATES.items()}
    found = [(label, kind.rsplit("#", 1)[-1], int(n)) for kind, label, n in rows(_ENTITIES)]
    relations = Counter({name: int(rows(query)[0][0]) for name, query in _EDGES.items()})
    relations.update({relation[iri]: int(n) for iri, n in rows(_STATED)})
    return Stats(
        triples=_void_triples(exports),
        papers=int(rows(_PAPERS)[0][0]),
        entities_by_type=dict(sorted(Counter(kind for _, kind, _ in found).items())),
        relations_by_type=dict(sorted((k, n) for k, n in relations.items() if n)),
        top_entities=tuple(sorted(found, key=lambda item: (-item[2], item[0]))[:top]),
    )
