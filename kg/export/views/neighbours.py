"""The papers a paper's page draws beside it: those sharing the most of its entities.

Counting every paper of every shared entity cost the sum of the entities' paper counts, and a
hub entity ("large language models") is in thousands of papers: N^1.5 over a build. The
most mentioned of a paper's entities, when it is such a hub, is not counted: the papers the
others reach are looked up in it (a set intersection), and every other paper of the hub
shares the hub alone (a count of 1), so of those the first `limit` by id are enough, taken
from its papers sorted once a build. The same ranking, at 25,000 abstracts 43 → 21 µs a
paper (`bench/pages.py`).
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Collection, Iterable

import networkx as nx

#: a paper's most mentioned entity is not counted when more than this many nodes link to it
HUB = 24


class Neighbours:
    """Ranks the papers of one graph that share entities with a paper.

    Args:
        graph: the linked graph.
        papers: its paper nodes.
    """

    def __init__(self, graph: nx.MultiDiGraph, papers: set[str]) -> None:
        self.graph = graph
        self.papers = papers
        self._hubs: dict[str, tuple[set[str], list[str]]] = {}  #: a hub's papers, and sorted

    def of(self, me: str, entities: Iterable[str], limit: int) -> list[str]:
        """At most `limit` papers other than `me` with an edge to one of `entities`, those
        with edges to the most of them first, then by node id: what counting each entity's
        papers gives (`by_count`)."""
        pred, papers = self.graph.pred, self.papers
        names = list(set(entities))
        linked = [pred[e] for e in names]  # each entity's predecessors
        hub = max(range(len(linked)), key=lambda i: len(linked[i]), default=-1)
        if hub >= 0 and len(linked[hub]) <= HUB:
            hub = -1
        counts: Counter[str] = Counter()
        for i, nodes in enumerate(linked):
            if i != hub:
                counts.update(papers.intersection(nodes))
        counts.pop(me, None)
        if hub < 0:
            return _best(counts, limit)
        members, in_order = self._members(names[hub], linked[hub])
        counts.update(members.intersection(counts))  # their scores are exact
        alone: list[str] = []  # the hub's other papers share it alone: the first by id are enough
        for paper in in_order:
            if len(alone) == limit:
                break
            if paper not in counts and paper != me:
                alone.append(paper)
        counts.update(alone)
        return _best(counts, limit)

    def _members(self, entity: str, linked: Iterable[str]) -> tuple[set[str], list[str]]:
        """The papers among an entity's predecessors (`linked`), as a set and sorted (made
        once an entity)."""
        found = self._hubs.get(entity)
        if found is None:
            members = self.papers.intersection(linked)
            found = self._hubs[entity] = (members, sorted(members))
        return found


def _best(counts: Counter[str], limit: int) -> list[str]:
    """The `limit` papers of the highest counts, then by node id."""
    if len(counts) <= 4 * limit:  # sorting them all is faster then
        return [paper for paper, _ in sorted(counts.items(), key=_order)[:limit]]
    return [paper for paper, _ in heapq.nsmallest(limit, counts.items(), key=_order)]


def _order(item: tuple[str, int]) -> tuple[int, str]:
    """The most shared entities first, then by node id."""
    return -item[1], item[0]


def by_count(
    graph: nx.MultiDiGraph,
    me: str,
    entities: Iterable[str],
    papers: Collection[str],
    limit: int,
) -> list[str]:
    """`Neighbours.of` by counting every paper of every entity (what it replaces)."""
    pool = papers if isinstance(papers, set | frozenset) else set(papers)
    others: Counter[str] = Counter()
    for entity in set(entities):
        others.update(pool.intersection(graph.predecessors(entity)))
    del others[me]
    return [n for n, _ in sorted(others.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]]
