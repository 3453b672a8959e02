"""exports/index.html: the graph where it helps, and beside it what a researcher came for:
the most mentioned entities of each type, with paper counts, in tables one can sort, search
and click, and the leaderboards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import combinations

import networkx as nx

from kg import graph_schema as schema
from kg.export.views.communities import communities
from kg.export.views.data import counted, page_of, search_key
from kg.export.views.leaderboard import board_page
from kg.export.views.pages import Signatures, View
from kg.graph import entity_node
from kg.model import EntityType
from kg.names import fold

#: the overview draws everything up to this many nodes ...
OVERVIEW_MAX_NODES = 400
#: ... and past it, the most mentioned entities and their co-mentions (250 entities drew
#: labels too small to read and on top of each other; every entity is in the lists)
OVERVIEW_TOP_ENTITIES = 80
OVERVIEW_TOP_EDGES = 200
#: the lists under the graph: this many entities of each type, the most mentioned first
LIST_ROWS = 100
#: the types listed, in this order
LIST_TYPES = (
    EntityType.BENCHMARK,
    EntityType.MODEL,
    EntityType.DATASET,
    EntityType.METHOD,
    EntityType.TASK,
    EntityType.METRIC,
)


def overview(graph: nx.MultiDiGraph, title: str, boards: Mapping[str, int] | None = None) -> str:
    """exports/index.html: every paper and entity, or past 400 nodes the 80 most mentioned
    entities joined by how many papers mention both; under the graph, the lists."""
    return overview_view(graph, title, boards).render()


def overview_view(
    graph: nx.MultiDiGraph,
    title: str,
    boards: Mapping[str, int] | None = None,
    trends: bool = False,
    linked: bool = True,
) -> View:
    """What the overview shows (see `overview`); `boards`: how many figures each
    benchmark's leaderboard holds, by entity key; `trends`: whether trends.html is written;
    `linked`: whether the paper and entity pages are (`kg build --views overview` writes
    none, so nothing links to them)."""
    signatures = Signatures(graph)
    context = {
        "lists": top_lists(graph, boards or {}, linked),
        "boards": _board_rows(graph, boards or {}),
        "trends": trends,
    }
    if graph.number_of_nodes() <= OVERVIEW_MAX_NODES:
        note = "Every paper and entity; click one for its page, or see the lists below."
        nodes = tuple(sorted(graph.nodes))
        links: tuple[tuple[str, str, dict], ...] = ()
        weighted = [(a, b, 1) for a, b in graph.edges()]
    else:
        entities = list(schema.entity_nodes(graph))
        ranked = sorted(entities, key=lambda nd: (-int(nd[1]["papers"]), nd[0]))
        chosen = {n for n, _ in ranked[:OVERVIEW_TOP_ENTITIES]}
        papers = graph.number_of_nodes() - len(entities)
        note = (
            f"The {len(chosen)} most mentioned of {len(entities)} entities from "
            f"{papers} papers, joined when papers mention both; every type is listed below."
        )
        nodes = tuple(sorted(chosen))
        links = _co_mentions(graph, chosen)
        weighted = [(a, b, int(d["value"])) for a, b, d in links]
    groups = tuple(sorted(communities(nodes, weighted).items()))
    return View(
        signatures, nodes, title, note, False, links, "overview.html", context, True, linked, groups
    )


def _co_mentions(graph: nx.MultiDiGraph, chosen: set[str]) -> tuple[tuple[str, str, dict], ...]:
    """Edges between the chosen entities, weighted by how many papers mention both."""
    pairs: Counter[tuple[str, str]] = Counter()
    for paper, _ in schema.paper_nodes(graph):
        mentioned = sorted(set(graph.successors(paper)) & chosen)
        pairs.update(combinations(mentioned, 2))
    return tuple(
        (
            a,
            b,
            {
                "relation": "co-mentioned",
                "paper": "",
                "value": n,
                "evidence": f"mentioned together in {counted(n, 'paper')}",
            },
        )
        for (a, b), n in sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))[:OVERVIEW_TOP_EDGES]
    )


def top_lists(graph: nx.MultiDiGraph, boards: Mapping[str, int], linked: bool = True) -> list[dict]:
    """For each listed type: its entities, the most mentioned first (at most `LIST_ROWS`),
    with paper counts, their pages (when `linked`) and leaderboards."""
    by_type: dict[str, list[tuple[str, schema.EntityNode]]] = {t.value: [] for t in LIST_TYPES}
    for node, data in schema.entity_nodes(graph):
        if data["type"] in by_type:
            by_type[data["type"]].append((node, data))
    lists = []
    for kind, members in by_type.items():
        members.sort(key=lambda nd: (-int(nd[1]["papers"]), fold(nd[1]["label"]), nd[0]))
        rows = [_row(node, data, boards, linked) for node, data in members[:LIST_ROWS]]
        lists.append({"type": kind, "total": len(members), "rows": rows})
    return [entry for entry in lists if entry["rows"]]


def _row(node: str, data: schema.EntityNode, boards: Mapping[str, int], linked: bool) -> dict:
    key = node.removeprefix("entity:")
    return {
        "name": data["label"],
        "papers": int(data["papers"]),
        "url": page_of(node, data) if linked else None,
        "search": search_key(data, data["label"]),
        "board": board_page(key) if key in boards else None,
        "figures": boards.get(key, 0),
    }


def _board_rows(graph: nx.MultiDiGraph, boards: Mapping[str, int]) -> list[dict]:
    """The leaderboards, the most figures first."""
    rows = []
    for key, figures in boards.items():
        node = entity_node(key)
        name = schema.node(graph, node)["label"] if node in graph else key
        rows.append(
            {"name": name, "figures": figures, "url": board_page(key), "search": fold(name)}
        )
    return sorted(rows, key=lambda r: (-r["figures"], fold(r["name"]), r["url"]))
