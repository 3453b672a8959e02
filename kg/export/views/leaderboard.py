"""A leaderboard per benchmark with a reported result: the figures abstracts report on it,
best first, with the metric's direction where kg knows it (kg/metrics.py).
The rows are those of `kg query leaderboard` (queries/leaderboard.rq) on the same build."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from kg.export.views.data import counted
from kg.graph import entity_node, paper_node
from kg.metrics import direction
from kg.model import LinkedResult

if TYPE_CHECKING:
    from kg.export.views.pages import Site, View

#: a leaderboard's graph draws the papers and systems of at most this many of its figures
BOARD_DRAWN = 40


def board_page(benchmark: str) -> str:
    """The leaderboard's page of a benchmark's entity key, relative to exports/."""
    return f"leaderboards/{benchmark.replace('%', '_')}.html"


@dataclass(frozen=True)
class Row:
    """One figure on a leaderboard."""

    who: str  #: the method or model's name, "" when the abstract names none
    value: Decimal
    unit: str
    metric: str
    paper: str  #: paper id


def boards(results: tuple[LinkedResult, ...]) -> dict[str, list[LinkedResult]]:
    """The results on each benchmark (by entity key), for benchmarks with one or more."""
    by: dict[str, list[LinkedResult]] = defaultdict(list)
    for r in results:
        if r.benchmark is not None:
            by[r.benchmark].append(r)
    return dict(sorted(by.items()))


def ranked(results: list[LinkedResult], names: dict[str, str]) -> list[tuple[str, list[Row]]]:
    """The rows by metric (the metric with most figures first, figures with no metric
    named last), each best first by its direction (unknown: higher first, as the query
    orders them)."""
    by_metric: dict[str, list[Row]] = defaultdict(list)
    for r in results:
        who = names.get(r.subject or "", "")
        row = Row(who, r.value, r.unit or "", r.metric or "", r.paper)
        by_metric[row.metric].append(row)
    ordered = []
    for metric, rows in sorted(by_metric.items(), key=lambda kv: (not kv[0], -len(kv[1]), kv[0])):
        lower = direction(metric) == "lower"
        rows.sort(key=lambda row: (row.value if lower else -row.value, row.who, row.paper))
        ordered.append((metric, rows))
    return ordered


def leaderboard_view(benchmark: str, results: list[LinkedResult], site: Site) -> View:
    """A benchmark's leaderboard page: its graph (the benchmark, who scored, the papers) and
    a table per metric, best first."""
    from kg.export.views.pages import View, entity_url

    graph = site.graph
    name = site.names.get(benchmark, benchmark)
    tables = [
        {
            "metric": metric or "(no metric named)",
            "direction": direction(metric),
            "rows": [
                {
                    # figures of no metric named may be of different measures (an FID
                    # beside accuracies): listed, not ranked
                    "rank": i if metric else "–",
                    "who": row.who,
                    "value": f"{row.value}{row.unit}",
                    "number": str(row.value),
                    "paper": site.paper_name(row.paper, 70),
                    "url": f"../papers/{row.paper}.html",
                }
                for i, row in enumerate(rows, 1)
            ],
        }
        for metric, rows in ranked(results, site.names)
    ]
    drawn = {entity_node(benchmark)}
    for r in results[:BOARD_DRAWN]:  # a page's graph stays small, however long its table
        drawn |= {paper_node(r.paper), *([entity_node(r.subject)] if r.subject else [])}
    figures, papers = len(results), len({r.paper for r in results})
    return View(
        site.signatures,
        tuple(sorted(n for n in drawn if n in graph)),
        f"Leaderboard: {name}",
        f"{counted(figures, 'figure')} reported on {name} in {counted(papers, 'paper')}",
        sub=True,
        template="leaderboard.html",
        context={
            "benchmark": name,
            "entity_url": entity_url(graph, entity_node(benchmark)),
            "tables": tables,
        },
    )
