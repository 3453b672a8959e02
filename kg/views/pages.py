"""The pages: the overview, one per paper and one per entity in two or more papers."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

import networkx as nx
from jinja2 import Environment, PackageLoader, select_autoescape
from spacy.displacy.render import EntityRenderer

from kg.graph import entity_node, paper_node
from kg.model import (
    Assertion,
    Entity,
    Extraction,
    KnowledgeGraph,
    LinkedResult,
    Mention,
    RelationType,
)
from kg.views.data import COLOURS, elements, legend, options, page_of, relations

#: the overview draws everything up to this many nodes ...
OVERVIEW_MAX_NODES = 400
#: ... and past it, the most mentioned entities and their co-mentions
OVERVIEW_TOP_ENTITIES = 250
OVERVIEW_TOP_EDGES = 600
#: a paper's page draws at most this many other papers that share its entities
PAPER_NEIGHBOURS = 25
#: an entity's page draws at most this many of its papers
ENTITY_PAPERS = 150


@dataclass
class Site:
    """What the pages look up, indexed once: texts, assertions, results, links."""

    kg: KnowledgeGraph
    graph: nx.MultiDiGraph
    texts: dict[str, str] = field(default_factory=dict)
    extractions: dict[str, Extraction] = field(default_factory=dict)
    said: dict[tuple[str, str], list[Assertion]] = field(default_factory=dict)
    results: dict[str, list[LinkedResult]] = field(default_factory=dict)
    links: dict[tuple[str, str], str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, kg: KnowledgeGraph, graph: nx.MultiDiGraph) -> Site:
        """Index a linked graph for its pages."""
        site = cls(kg, graph)
        site.texts = {p.id: p.text for p in kg.papers}
        site.extractions = {ex.paper.id: ex for ex in kg.extractions}
        for a in kg.assertions:
            for end in {a.head, a.tail}:
                site.said.setdefault((a.paper, end), []).append(a)
        for r in kg.results:
            for key in {r.subject, r.benchmark}:
                if key is not None:
                    site.results.setdefault(key, []).append(r)
        site.links = kg.entity_key_of()
        site.names = {e.key: e.name for e in kg.entities}
        return site


@cache
def _env() -> Environment:
    """One environment for every page: Jinja compiles each template once (a new environment
    per page spent 84% of a page's time compiling again)."""
    return Environment(
        loader=PackageLoader("kg", "templates"), autoescape=select_autoescape(["html"])
    )


def _page(
    title: str,
    vis: tuple[list[dict], list[dict]],
    *,
    lib: str,
    home: str | None,
    note: str,
    height: str,
    content: str = "",
) -> str:
    nodes, edges = vis
    return (
        _env()
        .get_template("graph.html")
        .render(
            title=title,
            lib=lib,
            home=home,
            nodes=nodes,
            edges=edges,
            options=options(),
            legend=legend(nodes),
            relations=relations(edges),
            note=note,
            height=height,
            content=content,
        )
        + "\n"
    )


def _subpage(title: str, vis: tuple[list[dict], list[dict]], note: str, content: str) -> str:
    """A paper's or an entity's page: one folder down, its graph above its content."""
    return _page(
        title, vis, lib="../lib", home="../index.html", note=note, height="55vh", content=content
    )


def first_words(text: str, limit: int = 90) -> str:
    """The opening of an abstract, as a paper's title."""
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + " …"


def overview(graph: nx.MultiDiGraph, title: str) -> str:
    """exports/index.html: every paper and entity, or past 400 nodes the 250 most mentioned
    entities joined by how many papers mention both."""
    if graph.number_of_nodes() <= OVERVIEW_MAX_NODES:
        vis = elements(graph, graph.nodes)
        note = f"{graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges"
        return _page(title, vis, lib="lib", home=None, note=note, height="calc(100vh - 60px)")
    entities = [(n, d) for n, d in graph.nodes(data=True) if d["kind"] == "entity"]
    top = sorted(entities, key=lambda nd: (-int(nd[1]["papers"]), nd[0]))[:OVERVIEW_TOP_ENTITIES]
    chosen = {n for n, _ in top}
    pairs: Counter[tuple[str, str]] = Counter()
    for paper in (n for n, d in graph.nodes(data=True) if d["kind"] == "paper"):
        mentioned = sorted(set(graph.successors(paper)) & chosen)
        pairs.update(combinations(mentioned, 2))
    links = [
        (
            a,
            b,
            {
                "relation": "co-mentioned",
                "paper": "",
                "value": n,
                "evidence": f"mentioned together in {n} papers",
            },
        )
        for (a, b), n in sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))[:OVERVIEW_TOP_EDGES]
    ]
    vis = elements(graph, chosen, extra_edges=links)
    papers = graph.number_of_nodes() - len(entities)
    note = (
        f"Showing the {len(chosen)} most mentioned of {len(entities)} entities from "
        f"{papers} papers, joined when papers mention both; click one for its papers."
    )
    return _page(title, vis, lib="lib", home=None, note=note, height="calc(100vh - 60px)")


def paper_page(ex: Extraction, site: Site, extractor: str) -> str:
    """A paper's page: its graph neighbourhood, the abstract with every mention highlighted
    (displaCy), and what was read from it."""
    p, graph = ex.paper, site.graph
    me = paper_node(p.id)
    mine = set(graph.successors(me))
    others: Counter[str] = Counter()
    for entity in mine:
        for other in graph.predecessors(entity):
            if other != me and graph.nodes[other]["kind"] == "paper":
                others[other] += 1
    near = [n for n, _ in sorted(others.items(), key=lambda kv: (-kv[1], kv[0]))[:PAPER_NEIGHBOURS]]
    vis = elements(graph, [me, *mine, *near], prefix="../")
    keys = {
        e.name: entity_node(site.links[(p.id, e.name)])
        for e in ex.entities
        if (p.id, e.name) in site.links
    }
    content = (
        _env()
        .get_template("paper.html")
        .render(
            meta=_meta(ex),
            abstract=_highlight(ex),
            extractor=extractor,
            entities=[
                {
                    "name": e.name,
                    "type": e.type.value,
                    "aliases": e.aliases,
                    "proposed": e.proposed,
                    "evidence": e.evidence,
                    "url": _url(graph, keys.get(e.name)),
                }
                for e in ex.entities
            ],
            relations=[
                {
                    "head": r.head if r.relation is not RelationType.PROPOSES else "this paper",
                    "relation": r.relation.value,
                    "tail": r.tail,
                    "sentence": p.text[
                        ex.sentences[r.sentence].start : ex.sentences[r.sentence].end
                    ],
                }
                for r in ex.relations
            ],
            results=ex.results,
        )
    )
    note = f"this paper, its {len(mine)} entities and {len(near)} papers that share them"
    return _subpage(p.title or first_words(p.text), vis, note, content)


def _url(graph: nx.MultiDiGraph, node: str | None) -> str | None:
    if node is None or node not in graph:
        return None
    page = page_of(node, graph.nodes[node])
    return "../" + page if page else None


def _meta(ex: Extraction) -> str:
    p = ex.paper
    parts = ["; ".join(p.authors)] if p.authors else []
    venue = f"{p.venue} {p.year}" if p.venue and p.year else (p.venue or p.collection)
    parts += [venue] if venue else []
    parts += [f"arXiv:{p.arxiv_id}"] if p.arxiv_id else []
    parts += [f"doi:{p.doi}"] if p.doi else []
    parts.append(f"{p.source}, line {p.line} · paper {p.id}")
    return " · ".join(parts)


def _highlight(ex: Extraction) -> str:
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
    page = {"text": ex.paper.text, "ents": kept, "title": None}
    return str(_displacy().render([page], page=False, minify=False)).strip()


@cache
def _displacy() -> EntityRenderer:
    """displaCy's entity renderer, made once: `displacy.render` makes one per call, and each
    reads every installed package's entry points for colours (40% of a paper page's time)."""
    return EntityRenderer(
        options={"colors": {kind.upper(): colour for kind, colour in COLOURS.items()}}
    )


def entity_page(entity: Entity, site: Site) -> str:
    """An entity's page: the papers around it and their relations, and reported figures."""
    graph = site.graph
    me = entity_node(entity.key)
    papers = sorted(entity.papers)[:ENTITY_PAPERS]
    related = {n for n in nx.all_neighbors(graph, me) if graph.nodes[n]["kind"] == "entity"}
    vis = elements(graph, [me, *(paper_node(p) for p in papers), *related], prefix="../")
    first_mention: dict[str, Mention] = {}
    for ref in entity.mentions:
        first_mention.setdefault(ref.paper, ref.mention)
    rows = []
    for pid in papers:
        said = site.said.get((pid, entity.key), [])
        if said:
            sentence = said[0].sentence
        else:
            sentence = site.extractions[pid].sentences[first_mention[pid].sentence]
        rows.append(
            {
                "url": f"../papers/{pid}.html",
                "title": first_words(site.texts[pid], 70),
                "relations": sorted({a.relation.value for a in said}) or ["mentions"],
                "sentence": site.texts[pid][sentence.start : sentence.end],
            }
        )
    results = [
        {
            "subject": site.names.get(r.subject or "", ""),
            "metric": r.metric or "",
            "value": f"{r.value}{r.unit or ''}",
            "benchmark": site.names.get(r.benchmark or "", ""),
            "paper": first_words(site.texts[r.paper], 40),
            "url": f"../papers/{r.paper}.html",
        }
        for r in site.results.get(entity.key, [])
    ]
    content = _env().get_template("entity.html").render(entity=entity, papers=rows, results=results)
    shown = (
        f"{len(papers)} of {len(entity.papers)}"
        if len(papers) < len(entity.papers)
        else f"all {len(papers)}"
    )
    note = f"{entity.type.value}: {shown} papers and {len(related)} related entities"
    return _subpage(f"{entity.name} ({entity.type.value})", vis, note, content)
