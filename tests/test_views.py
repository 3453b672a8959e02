from __future__ import annotations

import json
import os
import re
from html import unescape
from pathlib import Path

import pytest
from conftest import write

from kg.builder.pipeline import build

URL_IN_TAG = re.compile(r"<(script|link|img|iframe)[^>]+(src|href)=\"(https?:)?//", re.IGNORECASE)


def pages(directory):
    return sorted(directory.rglob("*.html"))


def test_no_view_links_anything_remote(built):
    for page in pages(built):
        html = page.read_text(encoding="utf-8")
        assert not URL_IN_TAG.search(html), page
        assert "@import" not in html and "fonts.googleapis" not in html, page
    assert (built / "lib" / "vis-network.min.js").stat().st_size > 400_000


def test_vis_network_ships_once_and_exports_stay_small(built):
    copies = [
        p
        for p in built.rglob("*")
        if p.is_file() and b"vis-network" in p.read_bytes() and p.stat().st_size > 400_000
    ]
    assert [p.name for p in copies] == ["vis-network.min.js"]
    total = sum(p.stat().st_size for p in built.rglob("*") if p.is_file())
    assert total < 5_000_000, total


def test_every_paper_and_shared_entity_has_a_page(built):
    records = [json.loads(line) for line in (built / "extractions.jsonl").open()]
    assert {p.stem for p in (built / "papers").glob("*.html")} == {r["paper"] for r in records}
    papers_per_entity: dict[str, set[str]] = {}
    for r in records:
        for e in r["entities"]:
            papers_per_entity.setdefault(e["entity"], set()).add(r["paper"])
    shared = {k.replace("%", "_") for k, v in papers_per_entity.items() if len(v) >= 2}
    assert {p.stem for p in (built / "entities").glob("*.html")} == shared
    assert "math500" in shared


def test_paper_page_highlights_mentions(built):
    records = [json.loads(line) for line in (built / "extractions.jsonl").open()]
    record = next(r for r in records if any(e["proposed"] for e in r["entities"]))
    html = (built / "papers" / f"{record['paper']}.html").read_text(encoding="utf-8")
    assert html.count('<mark class="entity"') >= len(record["entities"])
    proposed = next(e for e in record["entities"] if e["proposed"])
    assert f"{proposed['name']} (proposed)" in html
    assert 'src="../lib/vis-network.min.js"' in html


def test_entity_page_lists_its_papers_and_results(built):
    html = (built / "entities" / "math500.html").read_text(encoding="utf-8")
    assert html.count('href="../papers/') >= 2
    assert "80.6%" in html and "exact-match accuracy" in html


def test_abstract_markup_is_escaped_in_every_view(tmp_path):
    evil = "</script><script>alert(1)</script> <b>bold</b> <img src=x onerror=alert(2)>"
    source = write(
        tmp_path / "evil.txt",
        f"Evil list 2026\n\nWe propose FooNet on MATH500. {evil}\n"
        f"We propose BarNet on MATH500 too. {evil}\n",
    )
    build([source], tmp_path / "out")
    views = pages(tmp_path / "out")
    assert {p.parent.name for p in views} == {"out", "papers", "entities"}
    for page in views:
        html = page.read_text(encoding="utf-8")
        assert "<script>alert(1)" not in html, page
        assert "<b>bold</b>" not in html and "<img src=x" not in html, page


EMBEDDED_NODES = re.compile(r"var nodes = new vis\.DataSet\((.*)\);$", re.MULTILINE)


def drawn_nodes(page) -> dict[str, dict]:
    html = page.read_text(encoding="utf-8")
    return {n["id"]: n for n in json.loads(EMBEDDED_NODES.search(html).group(1))}


def test_untitled_papers_are_labelled_by_what_they_propose(built):
    records = [json.loads(line) for line in (built / "extractions.jsonl").open()]
    nodes = drawn_nodes(built / "index.html")
    proposing = [r for r in records if sum(e["proposed"] for e in r["entities"]) == 1]
    assert len(proposing) >= 5
    for r in proposing:
        proposed = next(e for e in r["entities"] if e["proposed"])
        label = nodes[f"paper:{r['paper']}"]["label"]
        assert proposed["name"].startswith(label.rstrip(" …")), label
    plain = [r for r in records if not any(e["proposed"] for e in r["entities"])]
    for r in plain:
        assert r["text"].startswith(nodes[f"paper:{r['paper']}"]["label"].rstrip("…"))


def test_titled_papers_show_their_title(tmp_path):
    source = write(
        tmp_path / "titled.jsonl",
        json.dumps({"title": "FooNet for Everyone", "abstract": "We propose FooNet on MATH500."})
        + "\n",
    )
    build([source], tmp_path / "out")
    node = next(
        n for n in drawn_nodes(tmp_path / "out" / "index.html").values() if n["group"] == "Paper"
    )
    assert node["label"] == "FooNet for Everyone"


def test_tooltips_hold_no_whole_abstract_and_edges_no_label(built):
    records = {r["paper"]: r for r in map(json.loads, (built / "extractions.jsonl").open())}
    longest = max(records.values(), key=lambda r: len(r["text"]))
    assert len(longest["text"]) > 600
    for page in pages(built):
        titles = [n["title"] for n in drawn_nodes(page).values()]
        assert max(map(len, titles)) < 600, page
        assert not any(longest["text"][:400] in t for t in titles), page
    html = (built / "index.html").read_text(encoding="utf-8")
    edges = json.loads(re.search(r"var edges = new vis\.DataSet\((.*)\);$", html, re.M).group(1))
    assert edges and not any("label" in e for e in edges)
    assert any(e.get("title", "").startswith("evaluated_on: ") for e in edges)


def test_overview_lists_the_most_mentioned_of_each_type(built):
    html = (built / "index.html").read_text(encoding="utf-8")
    records = [json.loads(line) for line in (built / "extractions.jsonl").open()]
    papers: dict[tuple[str, str], set[str]] = {}
    for r in records:
        for e in r["entities"]:
            papers.setdefault((e["type"], e["entity"]), set()).add(r["paper"])
    tables = re.findall(r'<table class="sortable" data-type="(\w+)">(.*?)</table>', html, re.S)
    listed = {kind: body for kind, body in tables}
    assert {"Benchmark", "Model", "Method", "leaderboards"} <= set(listed)
    counts = [int(n) for n in re.findall(r"</a></td><td>(\d+)</td>", listed["Benchmark"])]
    assert counts == sorted(counts, reverse=True) and counts[0] >= 3
    top = max((len(v), k) for (t, k), v in papers.items() if t == "Benchmark")
    assert f'href="entities/{top[1]}.html"' in listed["Benchmark"]
    for target in re.findall(r'href="([^"]+)"', "".join(listed.values())):
        assert (built / target).is_file(), target


def leaderboard_tables(page) -> dict[str, list[tuple[str, float, str]]]:
    """(who, value, paper id) of each row of each table of a leaderboard page, by metric
    ("" for figures with no metric named), in the page's order."""
    html = page.read_text(encoding="utf-8")
    tables = {}
    for metric, body in re.findall(
        r'<table class="leaderboard" data-metric="([^"]*)"(.*?)</table>', html, re.S
    ):
        rows = re.findall(
            r'<tr data-value="([^"]+)"><td>(?:\d+|–)</td><td>([^<]*)</td><td>[^<]*</td>'
            r'<td><a href="\.\./papers/(\w+)\.html">',
            body,
        )
        name = "" if metric == "(no metric named)" else unescape(metric)
        tables[name] = [
            (unescape(w) if w != "(not named)" else "", float(v), p) for v, w, p in rows
        ]
    return tables


def test_every_leaderboard_is_what_the_query_answers(built, runner):
    from kg.cli import main

    boards = sorted((built / "leaderboards").glob("*.html"))
    records = [json.loads(line) for line in (built / "extractions.jsonl").open()]
    assert len(boards) == len({r["benchmark"] for rec in records for r in rec["results"]} - {None})
    for page in boards:
        name = re.search(r"<title>Leaderboard: (.*)</title>", page.read_text("utf-8")).group(1)
        args = [
            "query",
            "leaderboard",
            str(built),
            "-p",
            f"benchmark={unescape(name)}",
            "-f",
            "json",
        ]
        result = runner.invoke(main, args)
        assert result.exit_code == 0, result.output
        expected: dict[str, list[tuple[str, float, str]]] = {}
        for b in json.loads(result.output)["results"]["bindings"]:
            row = (
                b.get("who", {}).get("value", ""),
                float(b["value"]["value"]),
                b["paper"]["value"].rsplit("/", 1)[1],
            )
            expected.setdefault(b.get("metric", {}).get("value", ""), []).append(row)
        shown = leaderboard_tables(page)
        assert shown and shown == expected, page  # the same rows, best first in both
    math = (built / "entities" / "math500.html").read_text("utf-8")
    assert 'href="../leaderboards/math500.html"' in math


def test_lower_is_better_is_stated_and_ranks_lowest_first():
    from decimal import Decimal

    from kg.export.views.leaderboard import ranked
    from kg.metrics import direction, metric_name
    from kg.model import LinkedResult, Sentence
    from kg.rdf.results import add_result

    assert metric_name("model achieves FID") == "FID" and metric_name("achieving FID") == "FID"
    assert (
        metric_name("reduce FID score") == "FID score"
        and metric_name("top-1 accuracy") == "top-1 accuracy"
    )
    assert metric_name("the") is None and metric_name(None) is None
    # what stands before the verb of a score, and words that judge the figure, are no name
    assert metric_name("samplers achieve FID scores") == "FID scores"
    assert metric_name("approach achieves classification accuracies") == "classification accuracies"
    assert metric_name("near perfect accuracy") == "accuracy"
    assert metric_name("comparable execution accuracy") == "execution accuracy"
    assert direction(metric_name("improve FID")) == "lower"
    rows = [
        LinkedResult("p", s, "FID", Decimal(v), None, "b", Sentence(0, 1), "")
        for s, v in (("a", "9.1"), ("b", "2.5"), ("c", "4.0"))
    ]
    ((metric, ordered),) = ranked(rows, {"a": "A", "b": "B", "c": "C"})
    assert metric == "FID" and [r.who for r in ordered] == ["B", "C", "A"]
    from kg.model import Paper
    from kg.rdf.triples import Triples

    graph = Triples()
    paper = Paper(id="p", text="FID 2.5", source="x.txt", line=1, index=1)
    add_result(graph, paper, rows[1], "<urn:agent>")
    assert any("lowerIsBetter" in line and '"true"' in line for line in graph.lines()), graph


def test_metric_directions_and_best_first():
    from decimal import Decimal

    from kg.export.views.leaderboard import direction, ranked
    from kg.model import LinkedResult, Sentence

    assert direction("top-1 error") == "lower" and direction("FID score") == "lower"
    assert direction("Perplexity") == "lower" and direction("exact-match accuracy") == "higher"
    assert direction("widgets") is None and direction(None) is None
    # A metric at a cut-off reads as the metric; newer text metrics and FPR95 have a direction.
    assert direction("nDCG@10") == "higher" and direction("Recall@20") == "higher"
    assert direction("FPR95") == "lower" and direction("BERTScore") == "higher"
    assert direction("chrF++") == "higher" and direction("BLEURT") == "higher"
    assert direction("P@10") == "higher" and direction("R@100") == "higher"
    assert direction("AP@50") == "higher"
    assert direction("TPR at 1% FPR") is None  # a true-positive rate, at a false-positive one

    def result(metric: str, value: str, who: str) -> LinkedResult:
        return LinkedResult("p", who, metric, Decimal(value), None, "b", Sentence(0, 1), "")

    rows = [result("FID", "3.1", "a"), result("FID", "2.0", "b"), result("accuracy", "70", "c")]
    rows += [result("accuracy", "90", "d"), result("accuracy", "80", "e")]
    rows += [result("", "1", "x"), result("", "5", "y"), result("", "3", "z")]
    names = {k: k.upper() for k in "abcdexyz"}
    assert [(m, [r.who for r in rs]) for m, rs in ranked(rows, names)] == [
        ("accuracy", ["D", "E", "C"]),
        ("FID", ["B", "A"]),
        ("", ["Y", "Z", "X"]),
    ]


def test_no_page_grows_with_an_abstract_that_lists_thousands_of_names(tmp_path):
    from kg.export.views.pages import PAPER_ENTITIES, PAPER_NEIGHBOURS

    names = ", ".join(f"Zork{i}Net" for i in range(1, 1201))
    text = f"We propose MegaNet. We compare MegaNet with {names} on MATH500."
    lines = "\n".join([text, f"We propose OtherNet and compare it with {names[:4000]}."])
    source = write(tmp_path / "many.txt", "Lists 2026\n\n" + lines + "\n")
    build([source], tmp_path / "out")
    paper = max((tmp_path / "out" / "papers").glob("*.html"), key=lambda p: p.stat().st_size)
    record = json.loads((tmp_path / "out" / "extractions.jsonl").open().readline())
    assert len(record["entities"]) > 2 * PAPER_ENTITIES  # the cap is what keeps it small
    assert len(drawn_nodes(paper)) <= 1 + PAPER_ENTITIES + PAPER_NEIGHBOURS
    sizes = [p.stat().st_size for p in pages(tmp_path / "out")]
    assert max(sizes) < 1_500_000, max(sizes)


def records_by_year(path):
    """Six JSON Lines records over three years; MATH500 in all, AIME 2024 from 2023."""
    lines = []
    for i, year in enumerate([2022, 2022, 2023, 2023, 2024, 2024]):
        bench = "MATH500 and AIME 2024" if year > 2022 else "MATH500"
        text = f"We propose Foo{i}Net, which reaches 70.{i}% accuracy on {bench}."
        lines.append(json.dumps({"year": year, "title": f"Paper {i}", "abstract": text}))
    return write(path, "\n".join(lines) + "\n")


def test_trends_chart_each_year_share_when_papers_carry_years(built, tmp_path):
    build([records_by_year(tmp_path / "years.jsonl")], tmp_path / "out")
    html = (tmp_path / "out" / "trends.html").read_text(encoding="utf-8")
    assert html.count("<polyline") >= 2 and "<script src" not in html
    assert "MATH500, 2022: 2 of 2 papers (100.0%)" in html
    assert "AIME 2024, 2022: 0 of 2 papers (0.0%)" in html
    assert 'href="trends.html"' in (tmp_path / "out" / "index.html").read_text("utf-8")
    assert not (built / "trends.html").exists()  # the seeds are of one year
    assert 'href="trends.html"' not in (built / "index.html").read_text("utf-8")


ML_ABSTRACTS = Path(
    os.environ.get("KG_ML_ABSTRACTS")
    or Path(__file__).resolve().parents[2] / "shared" / "data" / "ml_abstracts"
)


@pytest.mark.slow
@pytest.mark.skipif(
    not (ML_ABSTRACTS / "icml2024_openreview.jsonl").is_file(),
    reason="needs ../shared/data/ml_abstracts (or KG_ML_ABSTRACTS)",
)
def test_the_views_of_a_conference_stay_within_10x_their_input(tmp_path):
    source = ML_ABSTRACTS / "icml2024_openreview.jsonl"
    out = tmp_path / "icml2024"
    build([source], out)
    views = [p for p in out.rglob("*") if p.suffix == ".html" or p.parent.name == "lib"]
    sizes = [p.stat().st_size for p in views]
    assert len(views) > 2_610 and sum(sizes) < 10 * source.stat().st_size, sum(sizes)
    assert max(sizes) < 1_000_000, max(zip(sizes, views, strict=True))
    assert len(list((out / "leaderboards").glob("*.html"))) >= 10


def test_an_overview_alone_links_only_to_pages_it_writes(tmp_path):
    from conftest import SEEDS

    out = tmp_path / "overview"
    build([SEEDS], out, views="overview")
    html = (out / "index.html").read_text("utf-8")
    assert not (out / "papers").exists() and not (out / "entities").exists()
    targets = re.findall(r'href="([^"#:]+)"', html) + re.findall(r'"url": "([^"]+)"', html)
    assert all((out / t).is_file() for t in targets), [
        t for t in targets if not (out / t).is_file()
    ]
    assert "<td>" in html  # the lists are there, names without links
    built_all = tmp_path / "all"
    build([SEEDS], built_all)
    assert re.search(r'href="entities/[^"]+\.html"', (built_all / "index.html").read_text("utf-8"))


def test_communities_are_the_groups_louvain_finds_the_same_every_time():
    from kg.export.views.communities import MIN_SIZE, communities

    # two triangles joined by one light edge, and a pair too small to fold
    edges = [("a", "b", 3), ("b", "c", 3), ("a", "c", 3), ("x", "y", 3), ("y", "z", 3)]
    edges += [("x", "z", 3), ("c", "x", 1), ("p", "q", 5), ("b", "a", 1)]
    nodes = ["a", "b", "c", "x", "y", "z", "p", "q", "lone"]
    found = communities(nodes, edges)
    assert found == communities(reversed(nodes), reversed(edges))
    assert {found[n] for n in "abc"} == {0} and {found[n] for n in "xyz"} == {1}
    assert not {"p", "q", "lone"} & found.keys() and MIN_SIZE == 3


def test_the_overview_tells_each_node_its_community(built):
    page = (built / "index.html").read_text(encoding="utf-8")
    nodes = json.loads(re.search(r"new vis\.DataSet\((\[.*?\])\);", page).group(1))
    groups = {n["community"] for n in nodes if "community" in n}
    assert f"fold its {len(groups)} communities" in page and len(groups) >= 2
    assert groups == set(range(len(groups)))


def test_the_overviews_title_names_a_few_venues_or_counts_many(tmp_path):
    """A dump of 33 venue-years made a title of three lines; a file of one ICML 2024 record
    and two without venue was titled "ICML 2024 (3 papers)" (an HTML review, 2026-12-07)."""
    from kg.builder.pipeline import _title
    from kg.model import KnowledgeGraph, Paper

    def graph(*venues: tuple[str, int | None] | None) -> KnowledgeGraph:
        papers = [
            Paper(
                id=f"p{i}",
                text=f"Abstract {i}.",
                source="x",
                line=i,
                index=i,
                venue=v[0] if v else None,
                year=v[1] if v else None,
            )
            for i, v in enumerate(venues, 1)
        ]
        return KnowledgeGraph(papers=papers, entities=[], assertions=[])

    assert _title(graph(("ICML", 2026), ("ICML", 2026))) == "kg: ICML 2026 (2 papers)"
    assert _title(graph(("ICML", 2024), None, None)) == "kg: ICML 2024 and others (3 papers)"
    assert _title(graph(None)) == "kg: knowledge graph (1 paper)"
    many = graph(*[(venue, year) for venue in ("ACL", "ICML") for year in (2019, 2020, 2021)])
    assert _title(many) == "kg: 2 venues, 2019–2021 (6 papers)"
    one_year = graph(*[(venue, 2020) for venue in ("ACL", "ICML", "NAACL", "COLM")])
    assert _title(one_year) == "kg: 4 venues, 2020 (4 papers)"
    # a venue without its year is still a venue
    assert _title(graph(("ICML", None), ("ICML", 2024))) == "kg: ICML, ICML 2024 (2 papers)"


@pytest.mark.parametrize("top", [0.15, 0.013, 0.6, 1.0, 0.004, 0.37, 0.101, 0.41])
def test_a_trend_charts_gridlines_are_at_the_shares_they_name(top):
    """A top share of 15% drew lines at 3.75% labelled "4%" (an HTML review, 2026-12-07)."""
    from kg.export.views.trends import Chart, Line, svg

    counts = (0, round(top * 1000))
    line = Line(name="FooNet", url=None, colour="#000", counts=counts, total=sum(counts))
    chart = Chart(kind="Model", years=(2020, 2021), papers=(1000, 1000), lines=(line,))
    html = svg(chart)
    rows = re.findall(
        r'<line x1="\d+" x2="\d+" y1="([\d.]+)" y2="[\d.]+" stroke="#e4e4e4"/>'
        r"<text[^>]*>([\d.]+)%</text>",
        html,
    )
    assert 4 <= len(rows) <= 7
    (zero_y, _), (one_y, first) = rows[0], rows[1]
    per_step = float(zero_y) - float(one_y)
    for y, label in rows:  # each label is the share its line stands at, to the label's digits
        assert float(label) == pytest.approx(
            float(first) * (float(zero_y) - float(y)) / per_step, rel=2e-3, abs=1e-9
        )
    # the axis ends just above the highest share, 1% at least (it had gone up to twice it)
    floor = max(top, 0.01) * 100
    assert floor - 1e-9 <= float(rows[-1][1]) < floor * 1.5


def test_figures_of_no_metric_named_are_listed_not_ranked(tmp_path):
    """An FID of 2.72 was ranked #8 among accuracies in "(no metric named)" (a review)."""
    path = tmp_path / "boards.jsonl"
    texts = [
        "We propose FooNet, which achieves 81.2% accuracy on ImageNet.",
        "We propose BarNet, which achieves 79.5% accuracy on ImageNet.",
        "We propose BazNet, which reaches 2.72 on ImageNet.",
        "We propose QuxNet, which reaches 60.1 on ImageNet.",
    ]
    path.write_text("".join(json.dumps({"abstract": t}) + "\n" for t in texts))
    build([path], tmp_path / "out", cache=False)
    html = (tmp_path / "out" / "leaderboards" / "imagenet.html").read_text(encoding="utf-8")
    tables = dict(
        re.findall(r'<table class="leaderboard" data-metric="([^"]*)"(.*?)</table>', html, re.S)
    )
    assert re.findall(r"<tr data-value=\"[^\"]+\"><td>(\d+)</td>", tables["accuracy"]) == ["1", "2"]
    unnamed = tables["(no metric named)"]
    assert re.findall(r"<tr data-value=\"[^\"]+\"><td>([^<]+)</td>", unnamed) == ["–", "–"]
    assert "not ranked" in html
