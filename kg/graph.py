"""The NetworkX view of the graph: a MultiDiGraph of papers and entities."""

from __future__ import annotations

import networkx as nx

from kg.graph_schema import (
    ENTITY,
    MENTIONS,
    PAPER,
    VARIANT_OF,
    EdgeData,
    EntityNode,
    PaperNode,
)
from kg.model import KnowledgeGraph, RelationType


def paper_node(paper_id: str) -> str:
    """Node id of a paper."""
    return f"paper:{paper_id}"


def entity_node(key: str) -> str:
    """Node id of an entity."""
    return f"entity:{key}"


def to_networkx(kg: KnowledgeGraph) -> nx.MultiDiGraph:
    """Papers and entities as nodes; mentions and typed relations as keyed edges.

    The attributes are those `kg.graph_schema` declares: strings and integers only, so the
    graph writes to GraphML as is. Entity-to-entity edges carry the paper that states them
    and the evidence sentence.
    """
    graph = nx.MultiDiGraph()
    texts = {p.id: p.text for p in kg.papers}
    for p in kg.papers:
        paper = PaperNode(
            kind=PAPER,
            type="Paper",
            label=_short(p.title or p.text),
            title=p.title,
            authors="; ".join(p.authors),
            text=p.text,
            source=p.source,
            line=p.line,
            venue=p.venue or "",
            year=p.year or 0,
        )
        graph.add_node(paper_node(p.id), **paper)
    keys = {e.key for e in kg.entities}
    for e in kg.entities:
        entity = EntityNode(
            kind=ENTITY,
            type=e.type.value,
            label=e.name,
            aliases="|".join(e.aliases),
            papers=len(e.papers),
            concept=e.concept or "",
            broader=e.broader or "",
        )
        graph.add_node(entity_node(e.key), **entity)
    proposed = {(a.paper, a.tail) for a in kg.assertions if a.relation is RelationType.PROPOSES}
    for e in kg.entities:
        for pid in e.papers:
            if (pid, e.key) not in proposed:
                mention = EdgeData(relation=MENTIONS, paper=pid)
                graph.add_edge(paper_node(pid), entity_node(e.key), key=MENTIONS, **mention)
        if e.broader in keys:
            variant = EdgeData(relation=VARIANT_OF, paper="")
            graph.add_edge(entity_node(e.key), entity_node(e.broader), key=VARIANT_OF, **variant)
    for a in kg.assertions:
        head = paper_node(a.head) if a.relation is RelationType.PROPOSES else entity_node(a.head)
        stated = EdgeData(
            relation=a.relation.value,
            paper=a.paper,
            evidence=texts[a.paper][a.sentence.start : a.sentence.end],
        )
        graph.add_edge(head, entity_node(a.tail), key=f"{a.relation.value}:{a.paper}", **stated)
    return graph


def _short(text: str, limit: int = 36) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
