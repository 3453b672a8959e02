"""The overview's communities: groups of nodes more joined to each other than to the rest
(Louvain modularity, networkx), which the page can fold into one node each, so a large
graph shows its structure before its names."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import networkx as nx

#: a community of fewer nodes is not folded (two nodes read as well as one)
MIN_SIZE = 3
#: Louvain starts from a random order: one seed, so the same graph gives the same groups
SEED = 0


def communities(nodes: Iterable[str], edges: Iterable[tuple[str, str, int]]) -> dict[str, int]:
    """Each node of a community of at least `MIN_SIZE` with its community's number (0 for
    the largest; ties by the smallest node id); edges are (node, node, weight), any
    direction, repeated edges adding up."""
    weights: Counter[tuple[str, str]] = Counter()
    for a, b, weight in edges:
        if a != b:
            weights[min(a, b), max(a, b)] += weight
    graph = nx.Graph()
    graph.add_nodes_from(sorted(nodes))
    for (a, b), weight in sorted(weights.items()):
        if a in graph and b in graph:
            graph.add_edge(a, b, weight=weight)
    found = nx.community.louvain_communities(graph, weight="weight", seed=SEED)
    groups = sorted((sorted(c) for c in found if len(c) >= MIN_SIZE), key=lambda c: (-len(c), c[0]))
    return {node: k for k, members in enumerate(groups) for node in members}
