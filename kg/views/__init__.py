"""Interactive HTML views: the overview, a page per paper and per entity in two or more
papers. pyvis assembles what each draws, kg's template renders it, vis-network ships once
in lib/, and every page opens from disk with no network. A rebuild draws again only the
pages whose view changed (`kg.views.memo`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import networkx as nx

from kg.graph import entity_node
from kg.model import KnowledgeGraph
from kg.views.data import COLOURS, page_of, vis_library
from kg.views.memo import PageMemo
from kg.views.pages import Site, View, entity_view, overview_view, paper_view

__all__ = ["COLOURS", "VIEWS", "PageMemo", "View", "draw", "render_views", "vis_library"]

#: which pages `render_views` writes
VIEWS = ("all", "overview", "none")

#: a page's path under exports/ and what gathers its view (or gives a file as it is)
Page = tuple[str, Callable[[], View | bytes]]


def render_views(
    kg: KnowledgeGraph, graph: nx.MultiDiGraph, title: str, extractor: str, views: str = "all"
) -> list[Page]:
    """The pages of the views, each with its path under exports/ (vis-network in lib/) and
    a function that gathers its `View` (see `draw`): a build draws and writes one page at a
    time (25,000 pages held at once took 2 GB) and knows how many there are.

    `views` is "all" (the overview, a page per paper and per entity in two or more papers),
    "overview" (index.html alone, for large builds) or "none".
    """
    if views == "none":
        return []
    pages: list[Page] = [
        ("index.html", partial(overview_view, graph, title)),
        *((name, partial(_as_is, data)) for name, data in vis_library().items()),
    ]
    if views == "overview":
        return pages
    site = Site.of(kg, graph)
    for ex in kg.extractions:
        pages.append((f"papers/{ex.paper.id}.html", partial(paper_view, ex, site, extractor)))
    for entity in kg.entities:
        node = entity_node(entity.key)
        page = page_of(node, graph.nodes[node])
        if page is not None:
            pages.append((page, partial(entity_view, entity, site)))
    return pages


def _as_is(data: bytes) -> bytes:
    """A file that needs no rendering (vis-network)."""
    return data


def draw(name: str, page: Callable[[], View | bytes], memo: PageMemo) -> str | bytes | None:
    """The content of the page `name`, or None when the file in the exports is already what
    its view draws (`memo`): gathering a view costs a fifth of drawing it."""
    view = page()
    if not isinstance(view, View):
        return view
    if memo.unchanged(name, view.digest()):
        return None
    return view.render()
