"""Counts over the exported graph: entities by type, relations, most connected entities."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import networkx as nx

from kg.errors import InputError
from kg.graph_schema import edges, entity_nodes, paper_nodes


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
    path = exports / "kg.graphml" if exports.is_dir() else exports
    if not path.is_file():
        raise InputError(path, "no such file; run `kg build` first")
    try:
        return nx.read_graphml(path, force_multigraph=True)
    except Exception as error:  # networkx raises parser-specific errors
        raise InputError(path, f"not a GraphML file kg wrote: {error}") from None


def stats(exports: Path, top: int = 10) -> Stats:
    """Counts by type and the `top` entities mentioned by the most papers."""
    graph = read_graph(exports)
    found = [d for _, d in entity_nodes(graph)]
    types = Counter(d["type"] for d in found)
    relations = Counter(d["relation"] for *_, d in edges(graph))
    entities = sorted(
        ((d["label"], d["type"], int(d["papers"])) for d in found),
        key=lambda item: (-item[2], item[0]),
    )
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
