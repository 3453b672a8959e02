"""Interactive HTML views: the overview, a page per paper and per entity in two or more
papers. pyvis assembles what each draws, kg's template renders it, vis-network ships once
in lib/, and every page opens from disk with no network."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import networkx as nx

from kg.graph import entity_node
from kg.model import KnowledgeGraph
from kg.views.data import COLOURS, page_of, vis_library
from kg.views.pages import Site, entity_page, overview, paper_page

__all__ = ["COLOURS", "VIEWS", "render_views", "vis_library"]

#: which pages `render_views` writes
VIEWS = ("all", "overview", "none")


def render_views(
    kg: KnowledgeGraph, graph: nx.MultiDiGraph, title: str, extractor: str, views: str = "all"
) -> list[tuple[str, Callable[[], str | bytes]]]:
    """The pages of the views, each with its path under exports/ (vis-network in lib/) and
    a function that renders it: a build renders and writes one page at a time (25,000 pages
    held at once took 2 GB) and knows how many there are.

    `views` is "all" (the overview, a page per paper and per entity in two or more papers),
    "overview" (index.html alone, for large builds) or "none".
    """
    if views == "none":
        return []
    pages: list[tuple[str, Callable[[], str | bytes]]] = [
        ("index.html", partial(overview, graph, title)),
        *((name, partial(_as_is, data)) for name, data in vis_library().items()),
    ]
    if views == "overview":
        return pages
    site = Site.of(kg, graph)
    for ex in kg.extractions:
        pages.append((f"papers/{ex.paper.id}.html", partial(paper_page, ex, site, extractor)))
    for entity in kg.entities:
        node = entity_node(entity.key)
        page = page_of(node, graph.nodes[node])
        if page is not None:
            pages.append((page, partial(entity_page, entity, site)))
    return pages


def _as_is(data: str | bytes) -> str | bytes:
    """A file that needs no rendering (vis-network)."""
    return data
