"""Which pages a rebuild gathers again: those of the nodes near a node that changed.

A page's view (`kg.export.views`) reads the graph around its own node, no further than
`HOPS` edges away either way, and what that part of the graph stands for: a paper's page
reads its entities and their papers (to rank the papers that share them); an entity's page
its papers, its related entities, what those papers propose and state of it and their
results. What it reads of a node is the node's state (`node_states`): its signature
(attributes, out-edges and the names of what it proposes, which lie one edge further:
`Signatures`), the nodes with edges to it, and a paper's record (`extras`: identifiers,
source and line, which the graph does not hold). What an entity's page reads beside the
graph (mentions, the sentences that state a relation, results) follows from the texts and
edges of its papers, one edge away. So a page whose node is more than `HOPS` edges from
every node whose state changed (or that is new) shows what it showed in the last build,
and is kept without gathering its view: at 25,000 abstracts, gathering and digesting every
page to redraw the 30 that one new abstract changes took 5 s of a 12 s rebuild. A node that
left changes the state of every node it had an edge with (its out-edges are their
in-edges; its in-edges their out-edges), so what it was near is found from them. A view
that read more (something site-wide, or further than `HOPS`) would make rebuilds wrong:
tests/test_page_scope.py checks, for each kind of change, that no page far from it
changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import networkx as nx

from kg.digest import digest

#: how far from its own node, in edges either way, a page's view reads the graph
HOPS = 2


def node_states(
    graph: nx.MultiDiGraph, signature: Callable[[str], str], extras: Mapping[str, str]
) -> dict[str, str]:
    """Each node's state: a digest of its signature, the nodes with edges to it and what
    its page reads beside the graph (`extras`, by node: a digest of a paper's record)."""
    return {
        node: digest((signature(node), sorted(graph.pred[node]), extras.get(node, "")))[:20]
        for node in graph.nodes
    }


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
