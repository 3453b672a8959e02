"""Interactive HTML views: the overview, a page per paper, per entity in two or more
papers and per benchmark with a result (its leaderboard). pyvis assembles what each draws,
kg's template renders it, vis-network and the pages' own script ship once in lib/, and
every page opens from disk with no network. A rebuild draws again only the pages whose
view changed (`kg.export.views.memo`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial

import networkx as nx

from kg import graph_schema as schema
from kg.export.views.data import COLOURS, page_of, vis_library
from kg.export.views.leaderboard import board_page, boards, leaderboard_view
from kg.export.views.memo import PageMemo
from kg.export.views.overview import overview_view
from kg.export.views.pages import Site, View, entity_view, paper_view
from kg.export.views.trends import has_trends, trends_page
from kg.graph import entity_node
from kg.model import KnowledgeGraph
from kg.processes import can_fork, fork_map

__all__ = [
    "COLOURS",
    "VIEWS",
    "PageMemo",
    "View",
    "draw",
    "draw_all",
    "render_views",
    "vis_library",
]

#: which pages `render_views` writes
VIEWS = ("all", "overview", "none")

#: a page's path under exports/ and what gathers its view (or gives a file as it is)
Page = tuple[str, Callable[[], View | bytes]]
#: a page's digest (None for a file given as it is) and content (None: the file is current)
Drawn = tuple[str | None, bytes | None]


def render_views(
    kg: KnowledgeGraph, graph: nx.MultiDiGraph, title: str, extractor: str, views: str = "all"
) -> list[Page]:
    """The pages of the views, each with its path under exports/ (vis-network in lib/) and
    a function that gathers its `View` (see `draw`): a build draws and writes one page at a
    time (25,000 pages held at once took 2 GB) and knows how many there are.

    `views` is "all" (the overview, a page per paper, per entity in two or more papers and
    per benchmark with a reported result: its leaderboard; trends.html when the papers
    span two or more years),
    "overview" (index.html alone, for large builds) or "none".
    """
    if views == "none":
        return []
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
        return pages
    site = Site.of(kg, graph)
    for key, rows in results.items():
        pages.append((board_page(key), partial(leaderboard_view, key, rows, site)))
    for ex in kg.extractions:
        pages.append((f"papers/{ex.paper.id}.html", partial(paper_view, ex, site, extractor)))
    for entity in kg.entities:
        node = entity_node(entity.key)
        page = page_of(node, schema.node(graph, node))
        if page is not None:
            pages.append((page, partial(entity_view, entity, site)))
    return pages


def _as_is(data: bytes) -> bytes:
    """A file that needs no rendering (vis-network)."""
    return data


def draw(name: str, page: Callable[[], View | bytes], memo: PageMemo) -> Drawn:
    """The page `name`: its view's digest (None for a file given as it is) and its content,
    or None for content when the file in the exports is already what the view draws
    (`memo`): gathering a view costs a fifth of drawing it."""
    view = page()
    if not isinstance(view, View):
        return None, view
    digest = view.digest()
    if memo.current(name, digest):
        return digest, None
    return digest, view.render().encode("utf-8")


def draw_all(
    pages: Sequence[Page], memo: PageMemo, workers: int = 1
) -> Iterator[tuple[str, bytes | None]]:
    """Each page's name and content, in order (None: keep the file as it is), drawn in this
    process or, with `workers` > 1 where processes can fork, in that many worker
    processes, which inherit the graph instead of receiving it. Remembers each digest in
    `memo`."""
    if workers > 1 and can_fork():
        drawn: Iterator[Drawn] = fork_map(_draw_index, (pages, memo), len(pages), workers)
    else:
        drawn = (draw(name, page, memo) for name, page in pages)
    for (name, _), (digest, content) in zip(pages, drawn, strict=True):
        if digest is not None:
            memo.remember(name, digest, kept=content is None)
        yield name, content


def _draw_index(shared: tuple[Sequence[Page], PageMemo], index: int) -> Drawn:
    """Run in a worker (`kg.processes.fork_map`): draw page `index` of the pages it inherited."""
    pages, memo = shared
    name, page = pages[index]
    return draw(name, page, memo)
