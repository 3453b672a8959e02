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
        papers=sum(1 for _ in paper_nodes(graph)),
        entities_by_type=dict(sorted(types.items())),
        relations_by_type=dict(sorted(relations.items())),
        top_entities=tuple(entities[:top]),
    )
