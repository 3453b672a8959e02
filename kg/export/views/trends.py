"""exports/trends.html, when papers carry years: the most mentioned entities of each type
by year, as the share of that year's papers that mention each, drawn as inline SVG (no
script, nothing to fetch)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from html import escape

import networkx as nx

from kg import bidi
from kg import graph_schema as schema
from kg.export.views.data import counted, page_of

#: the entities charted per type, the most mentioned first
TREND_LINES = 8
#: the types charted, in this order
TREND_TYPES = ("Benchmark", "Model", "Dataset", "Method", "Task")
#: one colour per line (the categorical palette of the legend, then more)
PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf",
)  # fmt: skip
#: the chart's size and margins, in SVG units
WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 720, 260, 48, 24, 12, 28


@dataclass(frozen=True)
class Line:
    """One entity's share of each year's papers."""

    name: str
    url: str | None
    colour: str
    counts: tuple[int, ...]  #: papers mentioning it, per year of `Chart.years`
    total: int


@dataclass(frozen=True)
class Chart:
    kind: str
    years: tuple[int, ...]
    papers: tuple[int, ...]  #: papers of each year
    lines: tuple[Line, ...]


def year_of(graph: nx.MultiDiGraph) -> dict[str, int]:
    """The year of each paper that carries one."""
    return {n: int(d["year"]) for n, d in schema.paper_nodes(graph) if int(d["year"]) > 0}


def has_trends(graph: nx.MultiDiGraph) -> bool:
    """Whether the papers span two or more years: the trends page is written then."""
    return len(set(year_of(graph).values())) >= 2


def charts(graph: nx.MultiDiGraph) -> list[Chart]:
    """A chart per type: its most mentioned entities among papers with a year."""
    years_of = year_of(graph)
    per_year = Counter(years_of.values())
    years = tuple(sorted(per_year))
    found: dict[str, list[tuple[int, str, Counter[int], schema.EntityNode]]] = {
        k: [] for k in TREND_TYPES
    }
    for node, data in schema.entity_nodes(graph):
        if data["type"] not in found:
            continue
        by = Counter(years_of[p] for p in set(graph.predecessors(node)) if p in years_of)
        if by:
            found[data["type"]].append((sum(by.values()), node, by, data))
    out = []
    for kind, members in found.items():
        members.sort(key=lambda m: (-m[0], m[1]))  # nodes are unique: data never compared
        lines = tuple(
            Line(
                data["label"],
                page_of(node, data),
                PALETTE[i % len(PALETTE)],
                tuple(by[y] for y in years),
                total,
            )
            for i, (total, node, by, data) in enumerate(members[:TREND_LINES])
        )
        if lines:
            out.append(Chart(kind, years, tuple(per_year[y] for y in years), lines))
    return out


def _grid(top: float) -> tuple[float, int]:
    """The gridlines' step and how many steps reach `top`: a step of 1, 2, 2.5 or 5 times a
    power of ten, three to six of them, the axis ending as close above `top` as they allow
    (a top of 15% had four lines at 3.75%, labelled "4%")."""
    power = 10 ** math.floor(math.log10(top / 6))
    steps = [m * power * 10**k for k in range(3) for m in (1, 2, 2.5, 5)]
    fits = [
        (step * n, n, step) for step in steps if 3 <= (n := math.ceil(top / step * (1 - 1e-9))) <= 6
    ]
    _, n, step = min(fits)
    return step, n


def svg(chart: Chart) -> str:
    """The chart as an SVG element: a polyline per entity, a point per year with its
    figures as a tooltip, a percentage axis."""
    share = [
        [c / n if n else 0.0 for c, n in zip(ln.counts, chart.papers, strict=True)]
        for ln in chart.lines
    ]
    step, steps = _grid(max(0.01, max(max(s) for s in share)))
    top = steps * step  # gridlines above zero, each at a round share its label names
    first, span = chart.years[0], max(1, chart.years[-1] - chart.years[0])
    # as many decimals as the step needs: 5%, 2.5%, 0.25%
    places = next(d for d in range(4) if abs(round(step * 100, d) - step * 100) < 1e-9)
    axis = f"{{:.{places}%}}"

    def x(i: int) -> float:  # by the year, not its index: gaps between years show
        return LEFT + (WIDTH - LEFT - RIGHT) * (chart.years[i] - first) / span

    def y(v: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (1 - v / top)

    parts = [
        f'<svg class="trend" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        f'role="img" aria-label="{escape(chart.kind)} by year">'
    ]
    for k in range(steps + 1):
        v = step * k
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
            f'stroke="#e4e4e4"/><text x="{LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end">'
            f"{axis.format(v)}</text>"
        )
    step = max(1, len(chart.years) // 12)
    for i, year in enumerate(chart.years):
        if i % step == 0 or i == len(chart.years) - 1:
            parts.append(
                f'<text x="{x(i):.1f}" y="{HEIGHT - 8}" text-anchor="middle">{year}</text>'
            )
    for line, values in zip(chart.lines, share, strict=True):
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        parts.append(
            f'<polyline fill="none" stroke="{line.colour}" stroke-width="2" points="{points}"/>'
        )
        for i, (v, c) in enumerate(zip(values, line.counts, strict=True)):
            of = counted(chart.papers[i], "paper")
            tip = f"{line.name}, {chart.years[i]}: {c} of {of} ({v:.1%})"
            parts.append(
                f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{line.colour}">'
                f"<title>{escape(tip)}</title></circle>"
            )
    parts.append("</svg>")
    return "".join(parts)


def trends_page(graph: nx.MultiDiGraph, title: str) -> bytes:
    """exports/trends.html."""
    from kg.export.views.pages import templates

    drawn = [{"chart": c, "svg": svg(c)} for c in charts(graph)]
    html = templates().get_template("trends.html").render(title=title, charts=drawn)
    return (bidi.visible(html) + "\n").encode("utf-8")
