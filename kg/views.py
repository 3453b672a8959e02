"""Interactive HTML views of the graph: pyvis assembles the vis-network data, our own
template renders it, and vis-network itself is shipped once in exports/lib/."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pyvis
from jinja2 import Environment, PackageLoader, select_autoescape
from pyvis.network import Network
from spacy import displacy

from kg.model import Extraction, RelationType
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
_VIS = Path(pyvis.__file__).parent / "templates" / "lib" / "vis-9.1.2"


def vis_library() -> dict[str, bytes]:
    """vis-network's script and stylesheet as shipped by pyvis, for exports/lib/."""
    return {
        "lib/vis-network.min.js": (_VIS / "vis-network.min.js").read_bytes(),
        "lib/vis-network.min.css": (_VIS / "vis-network.css").read_bytes(),
    }


def _network(graph: nx.MultiDiGraph) -> Network:
    net = Network(directed=True, cdn_resources="local")
    for node, data in sorted(graph.nodes(data=True)):
        kind = data["type"]
        if data["kind"] == "paper":
            title = f"Paper ({data['source']}, line {data['line']})\n\n{data['text']}"
            value = 1
            extra = {"url": paper_page(node.removeprefix("paper:"))}
        else:
            aliases = data["aliases"].replace("|", ", ")
            title = (
                f"{kind}: {data['label']}\n"
                + (f"also: {aliases}\n" if aliases else "")
                + f"papers: {data['papers']}"
            )
            value = data["papers"]
            extra = {}
        net.add_node(
            node,
            label=data["label"],
            title=title,
            value=value,
            group=kind,
            shape=SHAPES.get(kind, "dot"),
            **extra,
            search=fold(data["label"]) + " " + data["label"].lower(),
        )
    for head, tail, data in sorted(
        graph.edges(data=True), key=lambda e: (e[0], e[1], e[2]["relation"], e[2]["paper"])
    ):
        relation = data["relation"]
        if relation == "mentions":
            net.add_edge(head, tail, color="#d0d0d0", title="mentions")
        else:
            net.add_edge(
                head,
                tail,
                label=relation,
                title=data.get("evidence", relation),
                arrows="to",
                font={"size": 10},
            )
    net.set_options(
        json.dumps(
            {
                "physics": {
                    "solver": "forceAtlas2Based",
                    "stabilization": {"enabled": True, "iterations": ITERATIONS},
                },
                "nodes": {"scaling": {"min": 8, "max": 40}, "font": {"size": 12}},
                "groups": {
                    kind: {"color": colour, "shape": SHAPES.get(kind, "dot")}
                    for kind, colour in COLOURS.items()
                },
                "edges": {"smooth": False},
                "interaction": {"hover": True, "tooltipDelay": 150},
            }
        )
    )
    return net


def _environment() -> Environment:
    return Environment(
        loader=PackageLoader("kg", "templates"), autoescape=select_autoescape(["html"])
    )


def paper_page(paper_id: str) -> str:
    """Path of a paper's page, relative to the exports directory."""
    return f"papers/{paper_id}.html"


def render_paper(ex: Extraction, extractor: str) -> str:
    """A paper's page: its abstract with every mention highlighted (displaCy), what was
    extracted from it and from which sentence."""
    p = ex.paper
    spans = sorted(
        ((m.start, m.end, e.type.value) for e in ex.entities for m in e.mentions),
        key=lambda s: (s[0], -s[1]),
    )
    kept: list[dict[str, object]] = []
    last_end = -1
    for start, end, label in spans:  # displaCy draws no overlapping spans
        if start >= last_end:
            kept.append({"start": start, "end": end, "label": label})
            last_end = end
    abstract = displacy.render(
        {"text": p.text, "ents": kept, "title": None},
        style="ent",
        manual=True,
        page=False,
        jupyter=False,
        options={"colors": {kind.upper(): colour for kind, colour in COLOURS.items()}},
    )
    sentences = [p.text[s.start : s.end] for s in ex.sentences]
    where = f"{p.source}, line {p.line}"
    venue = f"{p.venue} {p.year}" if p.venue and p.year else p.collection
    return (
        _environment()
        .get_template("paper.html")
        .render(
            title=_first_words(p.text),
            meta=f"{venue} · {where} · paper {p.id}" if venue else f"{where} · paper {p.id}",
            abstract=abstract,
            entities=ex.entities,
            relations=[
                {
                    "head": r.head if r.relation is not RelationType.PROPOSES else "this paper",
                    "relation": r.relation.value,
                    "tail": r.tail,
                    "sentence": sentences[r.sentence],
                }
                for r in ex.relations
            ],
            results=ex.results,
            extractor=extractor,
        )
        + "\n"
    )


def _first_words(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + " …"


def render_overview(graph: nx.MultiDiGraph, title: str) -> str:
    """exports/index.html: every paper and entity, coloured by type, offline."""
    net = _network(graph)
    nodes, edges, _, _, _, options = net.get_network_data()
    env = _environment()
    counts: dict[str, int] = {}
    for _, data in graph.nodes(data=True):
        counts[data["type"]] = counts.get(data["type"], 0) + 1
    legend = [
        (f"{kind} ({counts[kind]})", colour) for kind, colour in COLOURS.items() if kind in counts
    ]
    return (
        env.get_template("graph.html").render(
            title=title,
            lib="lib",
            nodes=nodes,
            edges=edges,
            options=json.loads(options),
            legend=legend,
            note=f"{graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges",
        )
        + "\n"
    )
