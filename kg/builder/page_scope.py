"""Which pages a rebuild gathers again: those of the nodes near a node that changed.

A page's view (`kg.export.views`) reads the graph around its own node and no further than
`HOPS` edges away, either way: a paper's page reads its entities and their papers (to rank
the papers that share them), an entity's page its papers, its related entities and what
those papers propose. What it reads of a node is the node's state (`node_states`): its
signature (attributes and out-edges, `Signatures`), the nodes with edges to it, and what the
page reads beside the graph (a paper's record: its identifiers and where it was read). So a
page whose node is more than `HOPS` edges from every node whose state changed (or that is
new) shows what it showed in the last build, and is kept without gathering its view: at
25,000 abstracts, gathering and digesting every page to redraw the 30 that one new abstract
changes took 5 s of a 12 s rebuild. A node that left changes the state of every node it
had an edge with (its out-edges are their in-edges; its in-edges their out-edges), so what
it was near is found from them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping

import networkx as nx

#: how far from its own node, in edges either way, a page's view reads the graph
HOPS = 2


def node_states(
    graph: nx.MultiDiGraph, signature: Callable[[str], str], extras: Mapping[str, str]
) -> dict[str, str]:
    """Each node's state: a digest of its signature, the nodes with edges to it and what
    its page reads beside the graph (`extras`, by node)."""
    out = {}
    for node in graph.nodes:
        seen = repr((signature(node), sorted(graph.pred[node]), extras.get(node, "")))
        out[node] = hashlib.sha1(seen.encode()).hexdigest()[:20]
    return out


def near_changes(
    graph: nx.MultiDiGraph, before: Mapping[str, str], now: Mapping[str, str]
) -> set[str]:
    """The nodes within `HOPS` edges of a node whose state is not the one it had `before`
    (or that is new): those whose pages may show something else."""
    changed = [node for node, state in now.items() if before.get(node) != state]
    return within(graph, changed, HOPS)


def within(graph: nx.MultiDiGraph, nodes: Iterable[str], hops: int) -> set[str]:
    """`nodes` and every node at most `hops` edges from one of them, either way."""
    seen = set(nodes)
    frontier = set(seen)
    for _ in range(hops):
        reached: set[str] = set()
        for node in frontier:
            reached.update(graph.succ[node])
            reached.update(graph.pred[node])
        frontier = reached - seen
        seen |= frontier
    return seen
