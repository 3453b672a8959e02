"""How long the overview of a large build takes to draw in headless Chromium.

    python bench/views.py [--papers 25000]

Builds the graph from N abstracts (../shared/data/ml_abstracts when present), writes the
overview (index.html and lib/) and opens it from file:// in Debian's chromium with the
network blocked, timing from navigation to the end of the layout (`window.kgDrawnAt`).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import papers  # noqa: E402

from kg.export.views.data import vis_library  # noqa: E402
from kg.export.views.overview import overview  # noqa: E402
from kg.export.writer import write_files  # noqa: E402
from kg.extract import extract  # noqa: E402
from kg.graph import to_networkx  # noqa: E402
from kg.link import link  # noqa: E402


def draw_seconds(page_path: Path) -> tuple[float, int]:
    """Seconds until the layout settles, and the number of nodes drawn."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium",
            headless=True,
            args=["--no-sandbox", "--disable-background-networking"],
        )
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.route("http*://**/*", lambda route: route.abort())
        page.goto(page_path.as_uri())
        page.wait_for_function("typeof window.kgDrawnAt === 'number'", timeout=300_000)
        drawn = page.evaluate("window.kgDrawnAt") / 1000
        nodes = page.evaluate("network.body.data.nodes.length")
        browser.close()
    return drawn, nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=25_000)
    args = parser.parse_args()
    t = time.perf_counter()
    graph = to_networkx(link(extract(papers(args.papers))))
    built = time.perf_counter() - t
    t = time.perf_counter()
    html = overview(graph, f"kg: {args.papers} papers")
    rendered = time.perf_counter() - t
    with tempfile.TemporaryDirectory() as tmp:
        write_files(Path(tmp), {"index.html": html, **vis_library()})
        seconds, nodes = draw_seconds(Path(tmp) / "index.html")
    print(
        f"papers {args.papers}: graph {graph.number_of_nodes()} nodes in {built:.1f} s; "
        f"overview rendered in {rendered:.2f} s, {len(html) / 1e6:.2f} MB, {nodes} nodes drawn; "
        f"drawn in Chromium in {seconds:.1f} s (target < 10 s)"
    )


if __name__ == "__main__":
    main()
