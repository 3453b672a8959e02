"""What a view draws: vis-network nodes and edges, assembled with pyvis, kept apart from
the page that renders them."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import networkx as nx
import pyvis
from pyvis.network import Network

from kg import graph_schema as schema
from kg.graph_schema import ENTITY, MENTIONS, PAPER, NodeData
from kg.names import fold

#: colours by node type (also the legend)
COLOURS: dict[str, str] = {
    "Paper": "#9e9e9e",
    "Method": "#1f77b4",
    "Model": "#ff7f0e",
    "Dataset": "#2ca02c",
    "Benchmark": "#d62728",
    "Task": "#9467bd",
    "Metric": "#8c564b",
}
SHAPES = {"Paper": "square"}
#: stabilisation iterations: 150 draws 300 nodes in ~4 s in Chromium, 1,000 took 24 s
ITERATIONS = 150
#: an entity gets its own page when this many papers mention it
ENTITY_PAGE_PAPERS = 2
_VIS = Path(pyvis.__file__).parent / "templates" / "lib" / "vis-9.1.2"


def vis_library() -> dict[str, bytes]:
    """vis-network's script and stylesheet as shipped by pyvis, for exports/lib/."""
    return {
        "lib/vis-network.min.js": (_VIS / "vis-network.min.js").read_bytes(),
        "lib/vis-network.min.css": (_VIS / "vis-network.css").read_bytes(),
    }


def page_of(node: str, data: NodeData) -> str | None:
    """The page of a node, relative to exports/: papers and well-mentioned entities."""
    if data["kind"] == PAPER:
        return f"papers/{node.removeprefix('paper:')}.html"
    if int(data["papers"]) >= ENTITY_PAGE_PAPERS:
        # keys are folded names: no "_" in them, so "%" → "_" is a safe file name
        return f"entities/{node.removeprefix('entity:').replace('%', '_')}.html"
    return None


def options() -> dict:
    """vis-network options shared by every view."""
    return {
        "physics": {
            "solver": "forceAtlas2Based",
            "stabilization": {"enabled": True, "iterations": ITERATIONS},
        },
        "nodes": {"scaling": {"min": 8, "max": 40}, "font": {"size": 12}},
        "edges": {"smooth": False},
        "groups": {
            kind: {"color": colour, "shape": SHAPES.get(kind, "dot")}
            for kind, colour in COLOURS.items()
        },
        "interaction": {"hover": True, "tooltipDelay": 150},
    }


def _title(node: str, data: NodeData) -> str:
    if data["kind"] == PAPER:
        head = f"{data['title']}\n" if data.get("title") else ""
        by = f"{data['authors']}\n" if data.get("authors") else ""
        return f"{head}{by}Paper ({data['source']}, line {data['line']})\n\n{data['text']}"
    aliases = data["aliases"].replace("|", ", ")
    also = f"also: {aliases}\n" if aliases else ""
    return f"{data['type']}: {data['label']}\n{also}papers: {data['papers']}"


def _search_key(data: NodeData) -> str:
    """Every name of a node, folded (the page folds the query the same way)."""
    aliases = data["aliases"] if data["kind"] == ENTITY else ""
    names = [data["label"], *aliases.split("|")]
    return " ".join(dict.fromkeys(fold(n) for n in names if n))


def elements(
    graph: nx.MultiDiGraph,
    nodes: Iterable[str],
    prefix: str = "",
    extra_edges: Iterable[tuple[str, str, dict]] = (),
) -> tuple[list[dict], list[dict]]:
    """vis nodes and edges for `nodes` and the edges among them; urls relative to `prefix`."""
    keep = sorted(set(nodes))
    net = Network(directed=True, cdn_resources="local")
    for node in keep:
        data = schema.node(graph, node)
        kind = data["type"]
        page = page_of(node, data)
        extra = {"url": prefix + page} if page else {}
        net.add_node(
            node,
            label=data["label"],
            title=_title(node, data),
            group=kind,
            shape=SHAPES.get(kind, "dot"),
            value=1 if data["kind"] == PAPER else int(data["papers"]),
            search=_search_key(data),
            **extra,
        )
    sub = graph.subgraph(keep)
    rows = sorted(sub.edges(data=True), key=lambda e: (e[0], e[1], e[2]["relation"], e[2]["paper"]))
    for head, tail, data in [*rows, *extra_edges]:
        relation = data["relation"]
        if relation == MENTIONS:
            net.add_edge(head, tail, color="#d0d0d0", title=MENTIONS, relation=relation)
        else:
            net.add_edge(
                head,
                tail,
                label=relation,
                title=data.get("evidence", relation),
                arrows="to",
                font={"size": 10},
                relation=relation,
                **({"value": data["value"]} if "value" in data else {}),
            )
    vis_nodes, vis_edges, *_ = net.get_network_data()
    for i, edge in enumerate(vis_edges):
        edge["id"] = i  # stable ids: the filters update edges by id
    return vis_nodes, vis_edges


def legend(vis_nodes: list[dict]) -> list[tuple[str, str, int]]:
    """(type, colour, count) of the types drawn, in the legend's order."""
    counts: dict[str, int] = {}
    for node in vis_nodes:
        counts[node["group"]] = counts.get(node["group"], 0) + 1
    return [(kind, colour, counts[kind]) for kind, colour in COLOURS.items() if kind in counts]


def relations(vis_edges: list[dict]) -> list[str]:
    """The relation names drawn, sorted."""
    return sorted({edge["relation"] for edge in vis_edges})
