"""The NetworkX graph's attributes, declared once: what `kg.graph` writes on each node and
edge and what the views, `kg stats` and readers of kg.graphml read.

Values are strings and integers only, so the graph writes to GraphML as is. Read a node or
an edge through `node`, `nodes` or `edges`: mypy then checks every attribute name.
"""

# no `from __future__ import annotations`: TypedDict reads NotRequired at run time
from collections.abc import Iterator
from typing import Final, Literal, NotRequired, TypedDict, cast

import networkx as nx

#: the `kind` of a paper's node and of an entity's
PAPER: Final = "paper"
ENTITY: Final = "entity"
#: the `relation` of the edges that are not a stated relation (those are `RelationType`s)
MENTIONS: Final = "mentions"
VARIANT_OF: Final = "variant_of"


class PaperNode(TypedDict):
    """A paper's node."""

    kind: Literal["paper"]
    type: str  #: "Paper" (the entities' is their type: one colour legend for both)
    label: str  #: the title, or the abstract's opening
    title: str
    authors: str  #: joined by "; "
    text: str
    source: str
    line: int
    venue: str
    year: int  #: 0 when unknown


class EntityNode(TypedDict):
    """An entity's node."""

    kind: Literal["entity"]
    type: str  #: an `EntityType` value
    label: str
    aliases: str  #: joined by "|"
    papers: int  #: how many papers mention it
    concept: str  #: its lexicon concept, or ""
    broader: str  #: its family, or ""


NodeData = PaperNode | EntityNode


class EdgeData(TypedDict):
    """An edge: a mention, a family link, or a relation a paper states (with its sentence)."""

    relation: str
    paper: str  #: the paper that states it ("" for a family link)
    evidence: NotRequired[str]  #: the sentence (stated relations only)


def node(graph: nx.MultiDiGraph, name: str) -> NodeData:
    """The attributes of node `name`."""
    return cast(NodeData, graph.nodes[name])


def nodes(graph: nx.MultiDiGraph) -> Iterator[tuple[str, NodeData]]:
    """Each node with its attributes."""
    return iter(graph.nodes(data=True))


def edges(graph: nx.MultiDiGraph) -> Iterator[tuple[str, str, EdgeData]]:
    """Each edge (head, tail) with its attributes."""
    return iter(graph.edges(data=True))


def entity_nodes(graph: nx.MultiDiGraph) -> Iterator[tuple[str, EntityNode]]:
    """Each entity's node with its attributes."""
    return ((n, cast(EntityNode, d)) for n, d in graph.nodes(data=True) if d.get("kind") == ENTITY)


def paper_nodes(graph: nx.MultiDiGraph) -> Iterator[tuple[str, PaperNode]]:
    """Each paper's node with its attributes."""
    return ((n, cast(PaperNode, d)) for n, d in graph.nodes(data=True) if d.get("kind") == PAPER)
