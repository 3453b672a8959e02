"""The CPU time of the HTML views alone: every page gathered and drawn in this process.

    python bench/pages.py FILE... [--repeat 3] [--profile]

Reads and extracts FILE... (through the extraction cache: KG_CACHE_DIR, so a second run
extracts nothing), links them, then times, per repeat, `render_views` and `draw` of every
page (one process, no workers, nothing written, the cycle collector paused as in a build),
and the ranking of each paper's neighbour papers (`Neighbours.of`) against the count over
every shared entity it replaced (`neighbours.by_count`), checking both give the same
papers. With --profile, the views' stage under cProfile, the 30 costliest functions by
their own time.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import time
from pathlib import Path

from kg.builder.cache import ExtractionCache
from kg.builder.pages import PageMemo, draw
from kg.builder.pipeline import _extract, _graph_of, _link, _no_progress, _read
from kg.export.views import neighbours, render_views
from kg.export.views.pages import PAPER_ENTITIES, PAPER_NEIGHBOURS, Site, _most_mentioned
from kg.extract import EXTRACTOR_VERSION


def views_cpu(kg, graph) -> tuple[int, int, float]:
    """Pages, their bytes, and the CPU seconds to gather and draw them all."""
    memo = PageMemo(None, Path("/nonexistent"))
    start = time.process_time()
    pages = render_views(kg, graph, "bench", EXTRACTOR_VERSION, "all")
    size = sum(len(draw(name, page, memo)[1] or b"") for name, page in pages)
    return len(pages), size, time.process_time() - start


def ranking(kg, graph) -> tuple[float, float, bool]:
    """µs a paper to rank its neighbours: counting every entity's papers, then `Neighbours`;
    and whether both ranked alike."""
    site = Site.of(kg, graph)
    todo = []
    for ex in kg.extractions:
        me = "paper:" + ex.paper.id
        todo.append((me, _most_mentioned(graph, me, set(graph.successors(me)), PAPER_ENTITIES)))
    start = time.process_time()
    old = [neighbours.by_count(graph, me, m, site.paper_nodes, PAPER_NEIGHBOURS) for me, m in todo]
    counted = time.process_time() - start
    ranker = neighbours.Neighbours(graph, site.paper_nodes)
    start = time.process_time()
    new = [ranker.of(me, m, PAPER_NEIGHBOURS) for me, m in todo]
    ranked = time.process_time() - start
    return counted / len(todo) * 1e6, ranked / len(todo) * 1e6, old == new


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    gc.disable()  # as a build runs (`kg.builder.pipeline`)
    papers = _read(args.files, None, False, _no_progress)
    extractions, _ = _extract(papers, "local", None, ExtractionCache(), _no_progress)
    kg = _link(extractions, _no_progress)
    graph = _graph_of(kg)()
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(views_cpu, kg, graph)
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)
        return
    for _ in range(args.repeat):
        pages, size, cpu = views_cpu(kg, graph)
        counted, ranked, same = ranking(kg, graph)
        print(
            f"{len(kg.papers)} papers: {pages} pages, {size / 1e6:.1f} MB in {cpu:.2f} s CPU; "
            f"neighbours {counted:.1f} -> {ranked:.1f} us a paper, same: {same}",
            flush=True,
        )


if __name__ == "__main__":
    main()
