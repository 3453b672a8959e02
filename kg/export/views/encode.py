"""A view's vis-network data as the page's script holds it: JSON, with each node encoded once
a build for every page that draws it (a paper is drawn on the pages of its neighbours, and
its tooltip re-encoded on each took a fifth of a page's time)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx
from jinja2.utils import htmlsafe_json_dumps

from kg import bidi
from kg.export.views.data import COLOURS, vis_edge, vis_node

#: the fields of a vis node or edge that show the input's text (`kg.bidi`)
SHOWN = ("label", "title", "search")


@dataclass(frozen=True)
class Encoded:
    """A view's nodes and edges as JSON arrays (`tojson`), and what the page says of them."""

    nodes: str
    edges: str
    node_count: int
    edge_count: int
    legend: list[tuple[str, str, int]]  #: (type, colour, count) of the types drawn
    relations: list[str]  #: the relation names drawn, sorted


def tojson(value: object) -> str:
    """`value` as Jinja's `tojson` filter writes it (keys sorted, <, >, & and ' escaped)."""
    return str(htmlsafe_json_dumps(value, sort_keys=True))


def visible(item: dict) -> dict:
    """A vis node or edge whose label, tooltip and search key show bidirectional controls as
    marks (the page's JSON escapes them, out of reach of `bidi.visible` on the whole page):
    `item` itself when none holds one (nearly every node and edge: a page encodes dozens)."""
    marked = {
        k: shown
        for k in SHOWN
        if isinstance(text := item.get(k), str) and (shown := bidi.visible(text)) is not text
    }
    return {**item, **marked} if marked else item


class Encoder:
    """Encodes views of one graph, keeping each node's JSON (by node, url prefix and whether
    it links to its page) for the next page that draws it, and each node's out-edges. Edges
    are encoded per page: a page numbers its edges, and keeping all of them encoded would
    hold the graph again as text."""

    def __init__(self, graph: nx.MultiDiGraph) -> None:
        self.graph = graph
        self._nodes: dict[tuple[str, str, bool], tuple[str, str]] = {}
        self._out: dict[str, list[tuple[str, dict]]] = {}

    def out_edges(self, node: str) -> list[tuple[str, dict]]:
        """A node's out-edges (tail, attributes), by tail, relation and paper: made once a
        node (walking networkx's adjacency views took a third of a page's time)."""
        found = self._out.get(node)
        if found is None:
            edges = [
                (tail, d) for tail, keyed in self.graph.adj[node].items() for d in keyed.values()
            ]
            edges.sort(key=lambda e: (e[0], e[1]["relation"], e[1]["paper"]))
            found = self._out[node] = edges
        return found

    def edges_among(self, keep: Sequence[str]) -> list[tuple[str, str, dict]]:
        """`kg.export.views.data.edges_among` of the sorted nodes `keep`, from `out_edges`."""
        among = set(keep)
        return [
            (head, tail, data)
            for head in keep
            for tail, data in self.out_edges(head)
            if tail in among
        ]

    def adopt(self, encoded: Mapping[tuple[str, str, bool], tuple[str, str]]) -> None:
        """Take nodes' `node` made by another process (the same function of the same graph)."""
        self._nodes.update(encoded)

    def node(self, node: str, prefix: str, linked: bool) -> tuple[str, str]:
        """A node's type and JSON."""
        key = (node, prefix, linked)
        found = self._nodes.get(key)
        if found is None:
            data = vis_node(self.graph, node, prefix, linked, {})
            found = self._nodes[key] = (data["group"], tojson(visible(data)))
        return found

    def encode(
        self,
        nodes: Sequence[str],
        prefix: str = "",
        extra_edges: Iterable[tuple[str, str, dict]] = (),
        linked: bool = True,
        attrs: Mapping[str, dict] | None = None,
    ) -> Encoded:
        """The JSON of `kg.export.views.data.elements` for these arguments, through `visible`."""
        keep = sorted(set(nodes))
        drawn = []
        for node in keep:
            extra = (attrs or {}).get(node)
            if extra:  # a community: this page's own
                data = vis_node(self.graph, node, prefix, linked, extra)
                drawn.append((data["group"], tojson(visible(data))))
            else:
                drawn.append(self.node(node, prefix, linked))
        rows = [*self.edges_among(keep), *extra_edges]
        edges = [
            visible({**vis_edge(head, tail, data), "id": i})
            for i, (head, tail, data) in enumerate(rows)
        ]
        counts = Counter(group for group, _ in drawn)
        return Encoded(
            nodes="[" + ", ".join(text for _, text in drawn) + "]",
            edges=tojson(edges),
            node_count=len(drawn),
            edge_count=len(edges),
            legend=[
                (kind, colour, counts[kind]) for kind, colour in COLOURS.items() if kind in counts
            ],
            relations=sorted({edge["relation"] for edge in edges}),
        )
