"""The pages: the overview, one per paper and one per entity in two or more papers."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

import networkx as nx
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from kg import bidi
from kg import graph_schema as schema
from kg.digest import digest
from kg.export.views.abstract import LinksOf, Marked, meta_line
from kg.export.views.data import PROPOSES, SHAPES, counted, options, page_of, proposals
from kg.export.views.encode import Encoded, Encoder, tojson
from kg.export.views.leaderboard import board_page, boards
from kg.export.views.neighbours import Neighbours
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

#: a paper's page draws at most this many other papers that share its entities ...
PAPER_NEIGHBOURS = 25
#: ... and this many of its entities (what it proposes first, then the most mentioned):
#: an abstract that lists 5,000 names made a 543 MB page
PAPER_ENTITIES = 60
#: an entity's page draws at most this many of its papers and related entities
ENTITY_PAPERS = 150
ENTITY_RELATED = 100
#: how a page one folder down (papers/, entities/, leaderboards/) links to the others
SUB = "../"


@dataclass
class Site:
    """What the pages look up, indexed once: texts, assertions, results, links."""

    kg: KnowledgeGraph
    graph: nx.MultiDiGraph
    texts: dict[str, str] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    extractions: dict[str, Extraction] = field(default_factory=dict)
    said: dict[tuple[str, str], list[Assertion]] = field(default_factory=dict)
    results: dict[str, list[LinkedResult]] = field(default_factory=dict)
    links: dict[tuple[str, str], str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    paper_nodes: set[str] = field(default_factory=set)
    boards: dict[str, list[LinkedResult]] = field(default_factory=dict)  #: by benchmark
    signatures: Signatures = field(init=False)

    def __post_init__(self) -> None:
        self.signatures = Signatures(self.graph)

    @classmethod
    def of(cls, kg: KnowledgeGraph, graph: nx.MultiDiGraph) -> Site:
        """Index a linked graph for its pages."""
        site = cls(kg, graph)
        site.texts = {p.id: p.text for p in kg.papers}
        site.titles = {p.id: p.title for p in kg.papers if p.title}
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
        site.paper_nodes = {paper_node(p.id) for p in kg.papers}
        site.boards = boards(kg.results)
        return site

    @cached_property
    def neighbours(self) -> Neighbours:
        """Ranks the papers that share a paper's entities (made once, for every page)."""
        return Neighbours(self.graph, self.paper_nodes)

    def paper_name(self, pid: str, limit: int = 90) -> str:
        """How a table names a paper: its title, or what it proposes and its first words."""
        title = self.titles.get(pid)
        if title:
            return title
        opening = first_words(self.texts[pid], limit)
        proposed = proposals(self.graph, paper_node(pid))
        return f"{' / '.join(proposed[:2])}: {opening}" if proposed else opening


class Signatures:
    """A digest of each node as a view reads it: its attributes, its out-edges with
    theirs, and the names of what it proposes (a paper's name may be those). The edges
    among a set of nodes are out-edges of its members, so the set and its members'
    signatures determine everything a view draws from the graph. Each signature is made
    once, for every page that draws the node."""

    def __init__(self, graph: nx.MultiDiGraph) -> None:
        self.graph = graph
        self._made: dict[str, str] = {}
        self.encoder = Encoder(graph)  #: each node's JSON, once, for every page drawing it

    def made_with_json(self, node: str) -> tuple[str, tuple[str, str]]:
        """The node's signature, and its type and JSON as a page one folder down draws it
        (`Encoder.node`, linked to its page): what a page worker needs of nearly every
        node, made once for all of them (`kg.builder.pages.sign_all`)."""
        return self(node), self.encoder.node(node, SUB, True)

    def adopt_with_json(self, made: dict[str, tuple[str, tuple[str, str] | None]]) -> None:
        """Take signatures and, where given, the JSON that `made_with_json` made in another
        process."""
        self._made.update((node, signature) for node, (signature, _) in made.items())
        encoded = {(node, SUB, True): json for node, (_, json) in made.items() if json}
        self.encoder.adopt(encoded)

    def __call__(self, node: str) -> str:
        found = self._made.get(node)
        if found is None:
            graph = self.graph
            edges = []
            proposed = set()  # a paper's label may be what it proposes (`proposals`)
            for v, keyed in graph.adj[node].items():
                for k, data in keyed.items():
                    edges.append((v, k, sorted(data.items())))
                    if data["relation"] == PROPOSES:
                        proposed.add(schema.node(graph, v)["label"])
            edges.sort()
            seen = (sorted(graph.nodes[node].items()), edges, sorted(proposed))
            found = self._made[node] = digest(seen)
        return found


@dataclass(frozen=True, eq=False)
class View:
    """What one page shows, gathered from the graph, and how to draw it.

    Gathering is cheap; drawing (the vis data, its JSON, the marked abstract and Jinja
    writing the page) is most of a page's cost. `render` reads only what `digest` covers: the nodes'
    attributes and the edges among them (`Signatures`), and the fields here. So two views
    with one digest render the same page (with the same code: `kg.builder.memo.fingerprint`),
    and a rebuild redraws only the pages whose digest changed; the view of a paper or entity
    reads the graph no further than two edges from its node (`kg.builder.page_scope`), so
    a rebuild does not even gather the views of pages farther from every change.
    """

    signatures: Signatures
    nodes: tuple[str, ...]  #: sorted
    title: str
    note: str
    sub: bool  #: a page one folder down (papers/, entities/), not the overview
    extra_edges: tuple[tuple[str, str, dict], ...] = ()
    template: str | None = None  #: the content under the graph, with `context`
    context: dict[str, Any] = field(default_factory=dict)
    spread: bool = False  #: nodes pushed apart (`kg.export.views.data.options`)
    linked: bool = True  #: nodes link to their pages (False: the build writes none)
    #: (node, community) of the nodes the page can fold together (`communities`), sorted
    communities: tuple[tuple[str, int], ...] = ()

    def digest(self) -> str:
        """A digest of everything `render` reads."""
        parts = (
            self.title,
            self.note,
            self.sub,
            [(n, self.signatures(n)) for n in self.nodes],
            self.extra_edges,
            self.template,
            self.context,
            self.spread,
            self.linked,
            self.communities,
        )
        return hashlib.sha256(repr(parts).encode()).hexdigest()

    def render(self) -> str:
        """The page's HTML."""
        prefix = SUB if self.sub else ""
        attrs = {node: {"community": k} for node, k in self.communities}
        vis = self.signatures.encoder.encode(
            self.nodes, prefix, self.extra_edges, self.linked, attrs
        )
        template = templates().get_template(self.template) if self.template else None
        content = template.render(**self.context) if template else ""
        if not self.sub:
            return _page(
                self.title,
                vis,
                lib="lib",
                home=None,
                note=self.note,
                content=content,
                spread=self.spread,
                communities=len({k for _, k in self.communities}),
            )
        return _page(
            self.title, vis, lib="../lib", home="../index.html", note=self.note, content=content
        )


@cache
def templates() -> Environment:
    """One environment for every page: Jinja compiles each template once (a new environment
    per page spent 84% of a page's time compiling again)."""
    return Environment(
        loader=PackageLoader("kg.export.views", "templates"),
        autoescape=select_autoescape(["html"]),
        # the templates are package data, the same all build long: no stat of the template
        # on every page to see whether it changed
        auto_reload=False,
    )


#: the types drawn as squares (papers), whose mark in the legend is square too
_SQUARES = frozenset(kind for kind, shape in SHAPES.items() if shape == "square")


@cache
def _options(spread: bool) -> tuple[dict, Markup]:
    """The vis-network options and their JSON, encoded once a build (not on every page)."""
    chosen = options(spread)
    return chosen, Markup(tojson(chosen))


def _page(
    title: str,
    vis: Encoded,
    *,
    lib: str,
    home: str | None,
    note: str,
    content: str = "",
    spread: bool = False,
    communities: int = 0,
) -> str:
    chosen, encoded = _options(spread)
    html = (
        templates()
        .get_template("graph.html")
        .render(
            title=title,
            lib=lib,
            home=home,
            nodes=Markup(vis.nodes),
            edges=Markup(vis.edges),
            node_count=vis.node_count,
            edge_count=vis.edge_count,
            font=chosen["nodes"]["font"]["size"],
            options=encoded,
            legend=vis.legend,
            relations=vis.relations,
            note=note,
            content=content,
            communities=communities,
            squares=_SQUARES,
        )
    )
    # what the page shows is what the input says: no control reorders it (`kg.bidi`)
    return bidi.visible(html) + "\n"


def first_words(text: str, limit: int = 90) -> str:
    """The opening of an abstract, as a paper's title."""
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + " …"


def paper_view(ex: Extraction, site: Site, extractor: str) -> View:
    """What a paper's page shows: its graph neighbourhood, the abstract with every mention
    highlighted (displaCy), and what was read from it."""
    p, graph = ex.paper, site.graph
    me = paper_node(p.id)
    every = set(graph.successors(me))
    mine = _most_mentioned(graph, me, every, PAPER_ENTITIES)
    near = site.neighbours.of(me, mine, PAPER_NEIGHBOURS)
    keys = {
        e.name: entity_node(site.links[(p.id, e.name)])
        for e in ex.entities
        if (p.id, e.name) in site.links
    }
    context = {
        "meta": meta_line(ex),
        "links": LinksOf(p.text),  # code and project pages (kg.links), when drawn
        "abstract": Marked.of(ex),  # the mentions marked, when drawn
        "extractor": extractor,
        "entities": [
            {
                "name": e.name,
                "type": e.type.value,
                "aliases": e.aliases,
                "proposed": e.proposed,
                "evidence": e.evidence,
                "url": entity_url(graph, keys.get(e.name)),
            }
            for e in ex.entities
        ],
        "relations": [
            {
                "head": r.head if r.relation is not RelationType.PROPOSES else "this paper",
                "relation": r.relation.value,
                "tail": r.tail,
                "sentence": p.text[ex.sentences[r.sentence].start : ex.sentences[r.sentence].end],
            }
            for r in ex.relations
        ],
        "results": ex.results,
    }
    drawn = (
        f"{len(mine)} of its {counted(len(every), 'entity')}"
        if mine != every
        else f"its {counted(len(mine), 'entity')}"
    )
    note = f"this paper, {drawn} and {counted(len(near), 'paper')} that share them"
    return View(
        site.signatures,
        tuple(sorted({me, *mine, *near})),
        site.paper_name(p.id),
        note,
        sub=True,
        template="paper.html",
        context=context,
    )


def _most_mentioned(graph: nx.MultiDiGraph, me: str, entities: set[str], limit: int) -> set[str]:
    """At most `limit` of `entities`: those `me` proposes first, then the most mentioned."""
    if len(entities) <= limit:
        return entities
    proposed = {
        tail
        for tail, keyed in graph.adj[me].items()
        if any(d["relation"] == RelationType.PROPOSES.value for d in keyed.values())
    }
    ranked = sorted(
        entities,
        key=lambda n: (n not in proposed, -_papers(schema.node(graph, n)), n),
    )
    return set(ranked[:limit])


def _papers(data: schema.NodeData) -> int:
    """How many papers mention an entity (a paper: 0)."""
    return int(data["papers"]) if data["kind"] == schema.ENTITY else 0


def entity_url(graph: nx.MultiDiGraph, node: str | None) -> str | None:
    if node is None or node not in graph:
        return None
    page = page_of(node, schema.node(graph, node))
    return "../" + page if page else None


def entity_view(entity: Entity, site: Site) -> View:
    """What an entity's page shows."""
    graph = site.graph
    me = entity_node(entity.key)
    papers = sorted(entity.papers)[:ENTITY_PAPERS]
    neighbours = {
        n for n in nx.all_neighbors(graph, me) if schema.node(graph, n)["kind"] == schema.ENTITY
    }
    related = _most_mentioned(graph, me, neighbours, ENTITY_RELATED)
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
                "title": site.paper_name(pid, 70),
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
            "paper": site.paper_name(r.paper, 40),
            "url": f"../papers/{r.paper}.html",
        }
        for r in site.results.get(entity.key, [])
    ]
    shown = (
        f"{len(papers)} of {counted(len(entity.papers), 'paper')}"
        if len(papers) < len(entity.papers)
        else ("its one paper" if len(papers) == 1 else f"all {len(papers)} papers")
    )
    note = f"{entity.type.value}: {shown} and {counted(len(related), 'related entity')}"
    return View(
        site.signatures,
        tuple(sorted({me, *(paper_node(p) for p in papers), *related})),
        f"{entity.name} ({entity.type.value})",
        note,
        sub=True,
        template="entity.html",
        context={
            "entity": {  # what the template reads: all the mentions would only slow `digest`
                "key": entity.key,
                "name": entity.name,
                "type": entity.type.value,
                "aliases": entity.aliases,
                "papers": entity.papers,
            },
            "papers": rows,
            "results": results,
            "leaderboard": "../" + board_page(entity.key) if entity.key in site.boards else None,
        },
    )
