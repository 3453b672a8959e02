"""What a view draws: vis-network nodes and edges, as pyvis would assemble them, kept apart from
the page that renders them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from importlib.util import find_spec
from pathlib import Path

import networkx as nx

from kg import graph_schema as schema
from kg.graph_schema import ENTITY, MENTIONS, PAPER, NodeData
from kg.model import RelationType
from kg.names import fold

PROPOSES = RelationType.PROPOSES.value

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
#: node labels' size in screen pixels: the page enlarges them when the layout is zoomed out
FONT_SIZE = 14
#: forceAtlas2Based's forces in the overview of a large build
SPREAD = {"gravitationalConstant": -200, "springLength": 150, "avoidOverlap": 1}
#: stabilisation iterations: 150 draws 300 nodes in ~4 s in Chromium, 1,000 took 24 s
ITERATIONS = 150
#: an untitled paper's tooltip shows this much of its abstract; any, this much of a list of
#: authors or aliases
SNIPPET_CHARS = 220
AUTHORS_CHARS = 120
EVIDENCE_CHARS = 240
#: a paper's label names at most this many characters of what it proposes
LABEL_CHARS = 40
#: an entity gets its own page when this many papers mention it
ENTITY_PAGE_PAPERS = 2
#: the script and stylesheet of every page, shipped once in lib/ (kg/export/views/templates/)
SHARED = ("kg-views.js", "kg-views.css")
_TEMPLATES = Path(__file__).resolve().parent / "templates"
#: vis-network as pyvis ships it, found without importing pyvis (which imports IPython: 0.6 s)
_PYVIS = find_spec("pyvis")
if _PYVIS is None or _PYVIS.origin is None:
    raise ImportError("the views need pyvis (its vis-network)")
_VIS = Path(_PYVIS.origin).parent / "templates" / "lib" / "vis-9.1.2"


def vis_library() -> dict[str, bytes]:
    """exports/lib/: vis-network's script and stylesheet as shipped by pyvis, and the
    script and stylesheet every page shares (written once, not into each of 28,000 pages)."""
    return {
        "lib/vis-network.min.js": (_VIS / "vis-network.min.js").read_bytes(),
        "lib/vis-network.min.css": (_VIS / "vis-network.css").read_bytes(),
        **{f"lib/{name}": (_TEMPLATES / name).read_bytes() for name in SHARED},
    }


def page_of(node: str, data: NodeData) -> str | None:
    """The page of a node, relative to exports/: papers and well-mentioned entities."""
    if data["kind"] == PAPER:
        return f"papers/{node.removeprefix('paper:')}.html"
    if int(data["papers"]) >= ENTITY_PAGE_PAPERS:
        # keys are folded names: no "_" in them, so "%" → "_" is a safe file name
        return f"entities/{node.removeprefix('entity:').replace('%', '_')}.html"
    return None


def options(spread: bool = False) -> dict:
    """vis-network options shared by every view; `spread` pushes nodes further apart and
    off each other (the overview of a large build, whose labels overlapped)."""
    physics: dict = {
        "solver": "forceAtlas2Based",
        "stabilization": {"enabled": True, "iterations": ITERATIONS},
    }
    if spread:
        physics["forceAtlas2Based"] = SPREAD
    return {
        "physics": physics,
        "nodes": {"scaling": {"min": 8, "max": 40}, "font": {"size": FONT_SIZE}},
        "edges": {"smooth": False},
        "groups": {
            kind: {"color": colour, "shape": SHAPES.get(kind, "dot")}
            for kind, colour in COLOURS.items()
        },
        "interaction": {"hover": True, "tooltipDelay": 150},
    }


def _title(graph: nx.MultiDiGraph, node: str, data: NodeData) -> str:
    """A node's tooltip: a paper's title and authors, or without a title its label and the
    opening of its abstract (the whole abstract is on its own page: copied into every
    neighbour's tooltip it was 60% of a paper page); an entity's names and paper count."""
    if data["kind"] == PAPER:
        by = f"{_clip(data['authors'], AUTHORS_CHARS)}\n" if data.get("authors") else ""
        where = f"Paper ({data['source']}, line {data['line']})"
        if data["title"]:
            return f"{data['title']}\n{by}{where}"
        head = paper_label(graph, node, data)
        return f"{head}\n{by}{where}\n\n{_clip(data['text'], SNIPPET_CHARS)}"
    aliases = _clip(data["aliases"].replace("|", ", "), AUTHORS_CHARS)
    also = f"also: {aliases}\n" if aliases else ""
    return f"{data['type']}: {data['label']}\n{also}papers: {data['papers']}"


def counted(n: int, noun: str) -> str:
    """`n` and `noun`, in the plural but for one: "1 paper", "3 papers", "0 entities"."""
    if n == 1:
        return f"1 {noun}"
    return f"{n} {noun[:-1]}ies" if noun.endswith("y") else f"{n} {noun}s"


def _clip(text: str, limit: int) -> str:
    """`text`, or its first `limit` characters to a word's end and an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + " …"


def proposals(graph: nx.MultiDiGraph, node: str) -> list[str]:
    """The names of what a paper proposes, sorted (its `proposes` edges)."""
    return sorted(
        {
            schema.node(graph, tail)["label"]
            for tail, keyed in graph.adj[node].items()
            for data in keyed.values()
            if data["relation"] == PROPOSES
        }
    )


def paper_label(graph: nx.MultiDiGraph, node: str, data: NodeData) -> str:
    """A paper's label: its title; without one, what it proposes ("ReaForest"), then the
    opening of its abstract (many abstracts open alike: "Large Language Models (LLMs) …")."""
    if data["kind"] != PAPER or data["title"]:
        return data["label"]
    proposed = proposals(graph, node)
    if not proposed:
        return data["label"]
    more = f" +{len(proposed) - 2}" if len(proposed) > 2 else ""
    return _clip(" / ".join(proposed[:2]), LABEL_CHARS) + more


def search_key(data: NodeData, label: str) -> str:
    """Every name of a node, folded (the page folds the query the same way)."""
    aliases = data["aliases"] if data["kind"] == ENTITY else ""
    names = [label, data["label"], *aliases.split("|")]
    return " ".join(dict.fromkeys(fold(n) for n in names if n))


def elements(
    graph: nx.MultiDiGraph,
    nodes: Iterable[str],
    prefix: str = "",
    extra_edges: Iterable[tuple[str, str, dict]] = (),
    linked: bool = True,
    attrs: Mapping[str, dict] | None = None,
) -> tuple[list[dict], list[dict]]:
    """vis nodes and edges for `nodes` and the edges among them; urls relative to `prefix`
    (none when not `linked`: a build that writes no paper or entity page); `attrs`: more
    fields of some nodes (their community). The fields and order pyvis's `Network` gives
    (`add_node`, `add_edge`), made from the adjacency directly: pyvis checks each id against a
    list, which made a page's cost quadratic in its size."""
    keep = sorted(set(nodes))
    vis_nodes = [
        vis_node(graph, node, prefix, linked, (attrs or {}).get(node, {})) for node in keep
    ]
    rows = [*edges_among(graph, keep), *extra_edges]
    vis_edges = [
        {**vis_edge(head, tail, data), "id": i} for i, (head, tail, data) in enumerate(rows)
    ]
    return vis_nodes, vis_edges  # ids: stable, the filters update edges by id


def vis_node(graph: nx.MultiDiGraph, node: str, prefix: str, linked: bool, attrs: dict) -> dict:
    """One vis node, as pyvis's `Network.add_node` makes it."""
    data = schema.node(graph, node)
    kind = data["type"]
    page = page_of(node, data) if linked else None
    label = paper_label(graph, node, data)
    return {
        "title": _title(graph, node, data),
        "group": kind,
        "value": 1 if data["kind"] == PAPER else int(data["papers"]),
        "search": search_key(data, label),
        **({"url": prefix + page} if page else {}),
        **attrs,
        "id": node,
        "label": label or node,  # pyvis labels a node by its id when the label is empty
        "shape": SHAPES.get(kind, "dot"),
    }


def edges_among(graph: nx.MultiDiGraph, keep: Sequence[str]) -> list[tuple[str, str, dict]]:
    """The edges among the nodes `keep`, sorted by head, tail, relation and paper (out-edges
    of each member: a subgraph view walked every edge twice)."""
    among = set(keep)
    adj = graph.adj
    rows = [
        (head, tail, data)
        for head in keep
        for tail, keyed in adj[head].items()
        if tail in among
        for data in keyed.values()
    ]
    rows.sort(key=lambda e: (e[0], e[1], e[2]["relation"], e[2]["paper"]))
    return rows


def vis_edge(head: str, tail: str, data: Mapping) -> dict:
    """One vis edge but its id, as pyvis's `Network.add_edge` makes it (directed)."""
    relation = data["relation"]
    if relation == MENTIONS:
        return {"color": "#d0d0d0", "relation": relation, "from": head, "to": tail, "arrows": "to"}
    evidence = data.get("evidence")
    return {  # no label: a label on each edge of a large graph hid the nodes
        "title": f"{relation}: {_clip(evidence, EVIDENCE_CHARS)}" if evidence else relation,
        "arrows": "to",
        "relation": relation,
        **({"value": data["value"]} if "value" in data else {}),
        "from": head,
        "to": tail,
    }
