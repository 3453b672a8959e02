"""Interactive HTML views: the overview, a page per paper, per entity in two or more
papers and per benchmark with a result (its leaderboard). What each draws is vis-network
data as pyvis would assemble it, made from the graph's adjacency (`data`, `encode`), kg's
template renders it, vis-network (as pyvis ships it) and the pages' own script ship once
in lib/, and every page opens from disk with no network. A page's `View` has a digest of
all it shows, by which a rebuild draws again only the pages whose view changed
(`kg.builder.pages`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial

import networkx as nx

from kg import graph_schema as schema
from kg.export.views.data import COLOURS, page_of, vis_library
from kg.export.views.leaderboard import board_page, boards, leaderboard_view
from kg.export.views.overview import overview_view
from kg.export.views.pages import Signatures, Site, View, entity_view, paper_view
from kg.export.views.trends import has_trends, trends_page
from kg.graph import entity_node, paper_node
from kg.model import KnowledgeGraph

__all__ = [
    "COLOURS",
    "VIEWS",
    "Page",
    "Pages",
    "Signatures",
    "View",
    "render_views",
    "vis_library",
]

#: which pages `render_views` writes
VIEWS = ("all", "overview", "none")

#: a page's path under exports/ and what gathers its view (or gives a file as it is)
Page = tuple[str, Callable[[], View | bytes]]


class Pages(list[Page]):
    """The pages of the views, in order; the `Signatures` the pages of papers, entities and
    leaderboards share (None when there are none of those pages); the node each paper's
    and entity's page is of (`about`, by page), and what a paper's page reads of it beside
    the graph (`extras`, by node: a digest of its record), for a rebuild to tell which
    pages may have changed (`kg.builder.page_scope`: a page's view must read nothing
    further from its node than that module's `HOPS` edges)."""

    def __init__(
        self,
        pages: Iterable[Page] = (),
        signatures: Signatures | None = None,
        about: dict[str, str] | None = None,
        extras: dict[str, str] | None = None,
    ) -> None:
        super().__init__(pages)
        self.signatures = signatures
        self.about = about or {}
        self.extras = extras or {}


def render_views(
    kg: KnowledgeGraph, graph: nx.MultiDiGraph, title: str, extractor: str, views: str = "all"
) -> Pages:
    """The pages of the views, each with its path under exports/ (vis-network in lib/) and
    a function that gathers its `View` (see `draw`): a build draws and writes one page at a
    time (25,000 pages held at once took 2 GB) and knows how many there are.

    `views` is "all" (the overview, a page per paper, per entity in two or more papers and
    per benchmark with a reported result: its leaderboard; trends.html when the papers
    span two or more years),
    "overview" (index.html alone, for large builds) or "none".
    """
    if views == "none":
        return Pages()
    results = boards(kg.results) if views == "all" else {}
    figures = {key: len(rows) for key, rows in results.items()}
    trends = has_trends(graph)
    pages: list[Page] = [
        ("index.html", partial(overview_view, graph, title, figures, trends, views == "all")),
        *((name, partial(_as_is, data)) for name, data in vis_library().items()),
    ]
    if trends:
        pages.append(("trends.html", partial(trends_page, graph, title)))
    if views == "overview":
        return Pages(pages)
    site = Site.of(kg, graph)
    about: dict[str, str] = {}
    extras: dict[str, str] = {}
    for key, rows in results.items():
        pages.append((board_page(key), partial(leaderboard_view, key, rows, site)))
    for ex in kg.extractions:
        name = f"papers/{ex.paper.id}.html"
        pages.append((name, partial(paper_view, ex, site, extractor)))
        about[name] = paper_node(ex.paper.id)
        # the whole record (identifiers, source and line are in no node), as a digest
        extras[about[name]] = ex.paper.digest[:20]
    for entity in kg.entities:
        node = entity_node(entity.key)
        page = page_of(node, schema.node(graph, node))
        if page is not None:
            pages.append((page, partial(entity_view, entity, site)))
            about[page] = node
    return Pages(pages, site.signatures, about, extras)


def _as_is(data: bytes) -> bytes:
    """A file that needs no rendering (vis-network)."""
    return data
