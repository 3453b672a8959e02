"""The views' vis data, made from the adjacency directly and encoded once a node, is what
pyvis's `Network` assembles and Jinja's `tojson` writes; paper pages rank their neighbours
as a count over every shared entity would."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest
from conftest import SEEDS
from jinja2.utils import htmlsafe_json_dumps
from pyvis.network import Network

import kg
from kg import bidi
from kg import graph_schema as schema
from kg.export.views import neighbours
from kg.export.views.abstract import MARK, highlight
from kg.export.views.data import (
    COLOURS,
    EVIDENCE_CHARS,
    SHAPES,
    _clip,
    _title,
    elements,
    page_of,
    paper_label,
    search_key,
)
from kg.export.views.encode import Encoder
from kg.extract import extract
from kg.graph import to_networkx
from kg.ingest import read_inputs
from kg.link import link
from kg.model import KnowledgeGraph


@pytest.fixture(scope="module")
def linked(nlp) -> tuple[KnowledgeGraph, nx.MultiDiGraph]:
    kg = link(extract(read_inputs([SEEDS]), nlp))
    return kg, to_networkx(kg)


def with_pyvis(graph, nodes, prefix="", extra_edges=(), linked=True, attrs=None):
    """The vis data as pyvis assembled it before (a Network, a subgraph view)."""
    keep = sorted(set(nodes))
    net = Network(directed=True, cdn_resources="local")
    for node in keep:
        data = schema.node(graph, node)
        page = page_of(node, data) if linked else None
        label = paper_label(graph, node, data)
        net.add_node(
            node,
            label=label,
            title=_title(graph, node, data),
            group=data["type"],
            shape=SHAPES.get(data["type"], "dot"),
            value=1 if data["kind"] == schema.PAPER else int(data["papers"]),
            search=search_key(data, label),
            **({"url": prefix + page} if page else {}),
            **(attrs or {}).get(node, {}),
        )
    sub = graph.subgraph(keep)
    rows = sorted(sub.edges(data=True), key=lambda e: (e[0], e[1], e[2]["relation"], e[2]["paper"]))
    for head, tail, data in [*rows, *extra_edges]:
        if data["relation"] == schema.MENTIONS:
            net.add_edge(head, tail, color="#d0d0d0", relation=data["relation"])
        else:
            evidence = data.get("evidence")
            title = f"{data['relation']}: {_clip(evidence, EVIDENCE_CHARS)}" if evidence else None
            net.add_edge(
                head,
                tail,
                title=title or data["relation"],
                arrows="to",
                relation=data["relation"],
                **({"value": data["value"]} if "value" in data else {}),
            )
    vis_nodes, vis_edges, *_ = net.get_network_data()
    for i, edge in enumerate(vis_edges):
        edge["id"] = i
    return vis_nodes, vis_edges


def neighbourhoods(graph: nx.MultiDiGraph) -> list[list[str]]:
    """Node sets a page might draw: each paper with its entities and their other papers."""
    sets = []
    for paper, _ in list(schema.paper_nodes(graph))[:12]:
        entities = list(graph.successors(paper))
        others = {p for e in entities for p in graph.predecessors(e)}
        sets.append([paper, *entities, *sorted(others)[:10]])
    return sets


def test_vis_data_from_the_adjacency_is_pyvis_s(linked):
    _, graph = linked
    for nodes in neighbourhoods(graph):
        for prefix, linked_ in (("../", True), ("", False)):
            assert elements(graph, nodes, prefix, (), linked_) == with_pyvis(
                graph, nodes, prefix, (), linked_
            )
    nodes = sorted(n for n, _ in schema.entity_nodes(graph))[:30]
    extra = ((nodes[0], nodes[1], {"relation": "co-mentioned", "paper": "", "value": 3}),)
    attrs = {nodes[2]: {"community": 4}}
    direct = elements(graph, nodes, "", extra, True, attrs)
    assert direct == with_pyvis(graph, nodes, "", extra, True, attrs)
    assert direct[1][-1]["value"] == 3 and direct[0][2]["community"] == 4


def tojson(items):
    shown = [
        {k: bidi.visible(v) if k in ("label", "title", "search") else v for k, v in d.items()}
        for d in items
    ]
    return str(htmlsafe_json_dumps(shown, sort_keys=True))


def test_nodes_encoded_once_are_what_tojson_writes_of_pyvis_s_data(linked):
    _, graph = linked
    graph = graph.copy()
    paper = next(n for n, _ in schema.paper_nodes(graph))
    graph.nodes[paper]["label"] = "Tro\u202ejan <b> & 'quoted'"  # escaped and marked
    encoder = Encoder(graph)
    for nodes in [*neighbourhoods(graph), *neighbourhoods(graph)]:  # the second: from the cache
        vis_nodes, vis_edges = with_pyvis(graph, nodes, "../")
        encoded = encoder.encode(nodes, "../")
        assert encoded.nodes == tojson(vis_nodes)
        assert encoded.edges == tojson(vis_edges)
        assert (encoded.node_count, encoded.edge_count) == (len(vis_nodes), len(vis_edges))
        counts = Counter(n["group"] for n in vis_nodes)
        assert encoded.legend == [(k, c, counts[k]) for k, c in COLOURS.items() if k in counts]
        assert encoded.relations == sorted({e["relation"] for e in vis_edges})
    assert "[U+202E]" in encoder.encode([paper]).nodes


def with_displacy(ex) -> str:
    """A paper's abstract as displaCy's entity renderer marked it (the views' code before)."""
    from spacy.displacy.render import EntityRenderer

    spans = sorted(
        ((m.start, m.end, e.type.value) for e in ex.entities for m in e.mentions),
        key=lambda s: (s[0], -s[1]),
    )
    kept, last_end = [], -1
    for start, end, label in spans:
        if start >= last_end:
            kept.append({"start": start, "end": end, "label": label})
            last_end = end
    colours = {kind.upper(): colour for kind, colour in COLOURS.items()}
    renderer = EntityRenderer(options={"colors": colours, "template": MARK})
    page = {"text": ex.paper.text, "ents": kept, "title": None}
    return str(renderer.render([page], page=False, minify=False)).strip()


def test_abstracts_are_marked_as_displacy_marks_them(linked):
    kg, _ = linked
    odd = next(ex for ex in kg.extractions if len(ex.entities) >= 2)
    text = odd.paper.text
    cut = min(m.start for e in odd.entities for m in e.mentions)
    # markup, quotes and line breaks before and inside the marks, a mention over another
    changed = text[:cut].replace(" ", " <&>\"'\n", 2) + text[cut:]
    shift = len(changed) - len(text)
    first = odd.entities[0]
    inner = dataclasses.replace(first.mentions[0], end=first.mentions[0].end - 1)
    entities = [
        dataclasses.replace(
            e,
            mentions=tuple(
                dataclasses.replace(m, start=m.start + shift, end=m.end + shift)
                for m in [*e.mentions, *([inner] if e is first else [])]
            ),
        )
        for e in odd.entities
    ]
    edited = dataclasses.replace(
        odd, paper=dataclasses.replace(odd.paper, text=changed), entities=entities
    )
    for ex in [*kg.extractions, edited]:
        assert highlight(ex) == with_displacy(ex)
    assert "<br>" in highlight(edited) and "&lt;&amp;&gt;&quot;'" in highlight(edited)


def test_a_rebuild_from_the_cache_loads_no_spacy(tmp_path):
    out, cache = tmp_path / "out", tmp_path / "cache"
    script = (
        "import sys; from pathlib import Path; from kg.builder.pipeline import build; "
        f"s = build([Path({str(SEEDS)!r})], Path({str(out)!r}), cache_dir=Path({str(cache)!r})); "
        "print(s.cached, s.pages_kept, 'spacy' in sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(kg.__file__).parent.parent)}

    def run() -> list[str]:
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True)
        return done.stdout.decode().split()

    papers = len(list(SEEDS.glob("*.txt")))
    first, again = run(), run()
    assert first[2] == "True" and first[0] == "0"  # read by spaCy
    assert int(again[0]) >= papers and int(again[1]) > 0  # all from the cache
    assert again[2] == "False"


@pytest.mark.parametrize("hub", [0, 1, 2, 4, 1000])
def test_paper_pages_rank_neighbours_as_counting_every_entity_does(linked, monkeypatch, hub):
    kg, graph = linked
    monkeypatch.setattr(neighbours, "HUB", hub)  # 0: every entity a hub; 1000: none
    papers = {n for n, _ in schema.paper_nodes(graph)}
    drawn = 0
    ranker = neighbours.Neighbours(graph, papers)
    for me in sorted(papers):
        entities = set(graph.successors(me))
        for limit in (1, 3, 25):
            got = ranker.of(me, entities, limit)
            assert got == neighbours.by_count(graph, me, entities, papers, limit), (me, limit)
            drawn += len(got)
    assert drawn > 10  # papers share entities: the rankings compared are not empty


def test_the_controls_looked_for_one_by_one_are_those_of_the_pattern():
    matched = {chr(c) for c in range(0x110000) if bidi.CONTROLS.match(chr(c))}
    assert set(bidi.CHARACTERS) == matched and len(matched) == 9
    text = "a \u2067b\u2069 c"
    assert bidi.visible(text) == "a [U+2067]b[U+2069] c" and bidi.visible("a · b") == "a · b"


def test_a_paper_view_marks_its_abstract_only_when_drawn(linked, monkeypatch):
    from kg.export.views import abstract
    from kg.export.views.pages import Site, paper_view

    kg, graph = linked
    ex = next(ex for ex in kg.extractions if ex.entities)
    site = Site.of(kg, graph)
    drawn = paper_view(ex, site, "x").render()
    found = []
    monkeypatch.setattr(abstract, "links", lambda text: found.append(text) or abstract.Links())
    view = paper_view(ex, site, "x")
    digest = view.digest()
    assert found == []  # gathered and digested: no link looked for
    assert view.render() == drawn and found == [ex.paper.text]
    assert abstract.highlight(ex) in drawn
    edited = dataclasses.replace(ex, paper=dataclasses.replace(ex.paper, text=ex.paper.text + "!"))
    assert paper_view(edited, site, "x").digest() != digest
