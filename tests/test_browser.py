"""Every kind of view in a real browser: Debian's chromium driven by Playwright, offline."""

from __future__ import annotations

import pytest
from conftest import SEED_PAPERS, need_module, need_tool

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    chromium = need_tool("chromium")
    playwright = need_module("playwright.sync_api")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium,
            headless=True,
            args=["--no-sandbox", "--disable-background-networking", "--disable-gpu"],
        )
        yield browser
        browser.close()


class View:
    """A page opened with the network blocked, its remote requests and console errors."""

    def __init__(self, browser, path):
        self.page = browser.new_page(viewport={"width": 1400, "height": 900})
        self.remote: list[str] = []
        self.errors: list[str] = []
        self.page.route("http://**/*", self._block)
        self.page.route("https://**/*", self._block)
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else 0)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(path.as_uri())
        self.page.wait_for_function("typeof window.kgDrawnAt === 'number'", timeout=60_000)

    def _block(self, route):
        self.remote.append(route.request.url)
        route.abort()

    def drawn(self) -> int:
        return self.page.evaluate("network.body.data.nodes.length")

    def intended(self) -> int:
        return int(self.page.get_attribute("body", "data-nodes"))

    def click_node(self, node_id: str) -> None:
        """A real mouse click where the node is drawn."""
        self.page.evaluate(f"network.focus({node_id!r}, {{scale: 1.5}})")
        pos = self.page.evaluate(f"network.canvasToDOM(network.getPosition({node_id!r}))")
        box = self.page.locator("#network").bounding_box()
        self.page.mouse.click(box["x"] + pos["x"], box["y"] + pos["y"])

    def clean(self) -> bool:
        return self.remote == [] and self.errors == []


def test_overview_draws_what_it_meant_and_finds_math500(browser, built, tmp_path):
    view = View(browser, built / "index.html")
    assert view.drawn() == view.intended() > 100
    view.page.fill("#search", "math-500")
    view.page.press("#search", "Enter")
    assert view.page.evaluate("network.getSelectedNodes()") == ["entity:math500"]
    assert "MATH500" in view.page.inner_text("#details")
    view.page.screenshot(path=str(tmp_path / "overview.png"))
    assert (tmp_path / "overview.png").stat().st_size > 10_000
    assert view.clean(), (view.remote, view.errors)


def test_click_on_an_entity_opens_its_page(browser, built):
    view = View(browser, built / "index.html")
    view.click_node("entity:math500")
    view.page.wait_for_url("**/entities/math500.html")
    view.page.wait_for_function("typeof window.kgDrawnAt === 'number'")
    assert view.drawn() == view.intended() >= 3
    assert view.clean(), (view.remote, view.errors)


def test_paper_page_and_click_back_to_an_entity(browser, built):
    paper = next(
        p
        for p in sorted((built / "papers").glob("*.html"))
        if "entity:math500" in p.read_text(encoding="utf-8")
    )
    view = View(browser, paper)
    assert view.drawn() == view.intended()
    assert view.page.locator("mark.entity").count() > 0
    view.click_node("entity:math500")
    view.page.wait_for_url("**/entities/math500.html")
    assert view.clean(), (view.remote, view.errors)


def test_filters_hide_a_type(browser, built):
    view = View(browser, built / "index.html")
    view.page.uncheck("[data-type=Paper]")
    hidden = view.page.evaluate("nodes.get({filter: n => n.hidden}).length")
    papers = view.page.evaluate("nodes.get({filter: n => n.group === 'Paper'}).length")
    assert hidden == papers == SEED_PAPERS
    assert view.clean()


def test_the_overviews_filters_hide_every_type_its_lists_share_a_name_with(browser, built):
    """Unticking Method or Benchmark on the overview hid nothing: the lists' tables carry the
    same data-type, and their (undefined) `checked` overwrote the box's (an HTML review,
    2026-12-07)."""
    view = View(browser, built / "index.html")
    for kind in ("Method", "Benchmark"):
        assert view.page.locator(f"table[data-type={kind}]").count() == 1  # the clash
        view.page.uncheck(f"input[data-type={kind}]")
        of_kind = view.page.evaluate(f"nodes.get({{filter: n => n.group === '{kind}'}}).length")
        hidden = view.page.evaluate(
            f"nodes.get({{filter: n => n.group === '{kind}' && n.hidden}}).length"
        )
        assert hidden == of_kind > 0, kind
    assert view.clean()


def one_of_each_view(built):
    """A page of every kind: the overview, a paper, an entity, a leaderboard."""
    return {
        "overview": built / "index.html",
        "paper": sorted((built / "papers").glob("*.html"))[0],
        "entity": built / "entities" / "math500.html",
        "leaderboard": built / "leaderboards" / "math500.html",
    }


@pytest.mark.parametrize("kind", ["overview", "paper", "entity", "leaderboard"])
def test_every_kind_of_view_opens_offline_without_error(browser, built, kind):
    view = View(browser, one_of_each_view(built)[kind])
    assert view.drawn() == view.intended() >= 2
    # labels are as large on screen as at 100% however far the layout is zoomed out
    size = view.page.evaluate(
        "network.body.nodes[nodes.getIds()[0]].options.font.size * network.getScale()"
    )
    assert size >= 13
    assert view.page.evaluate("edges.get().filter(e => e.label).length") == 0
    assert view.clean(), (view.remote, view.errors)


def cells(view, table: str, column: int) -> list[str]:
    return view.page.eval_on_selector_all(
        f"table[data-type={table}] tbody tr:not([hidden])",
        f"rows => rows.map(r => r.cells[{column}].textContent)",
    )


def test_the_lists_sort_filter_and_link(browser, built):
    view = View(browser, built / "index.html")
    papers = [int(n) for n in cells(view, "Benchmark", 1)]
    assert papers == sorted(papers, reverse=True) and len(papers) > 5
    view.page.click("table[data-type=Benchmark] th:nth-child(1)")
    names = cells(view, "Benchmark", 0)
    assert view.page.evaluate(
        "(n) => n.every((x, i) => i === 0 || n[i - 1].localeCompare(x) <= 0)", names
    )
    view.page.click("table[data-type=Benchmark] th:nth-child(2)")
    assert [int(n) for n in cells(view, "Benchmark", 1)] == papers
    view.page.click("table[data-type=Benchmark] th:nth-child(2)")
    assert [int(n) for n in cells(view, "Benchmark", 1)] == sorted(papers)
    view.page.fill("#list-search", "math-500")
    assert cells(view, "Benchmark", 0) == ["MATH500"]
    view.page.fill("#list-search", "zzzqqq")
    assert "nothing matches" in view.page.inner_text("#list-count")
    view.page.fill("#list-search", "")
    view.page.click("table[data-type=leaderboards] a >> text=MATH500")
    view.page.wait_for_url("**/leaderboards/math500.html")
    view.page.wait_for_function("typeof window.kgDrawnAt === 'number'")
    assert view.page.locator("table.leaderboard tr[data-value]").count() >= 1
    assert view.clean(), (view.remote, view.errors)


def test_search_says_when_nothing_matches_and_counts_follow_the_filters(browser, built):
    view = View(browser, built / "index.html")
    view.page.fill("#search", "math500")
    view.page.press("#search", "Enter")
    assert view.page.evaluate("network.getSelectedNodes()") == ["entity:math500"]
    view.page.fill("#search", "no such thing at all")
    view.page.press("#search", "Enter")
    assert view.page.evaluate("network.getSelectedNodes()") == []
    assert "No match" in view.page.inner_text("#details")
    total = view.intended()
    assert view.page.inner_text("#counts").startswith(f"{total} nodes")
    view.page.uncheck("[data-type=Paper]")
    assert view.page.inner_text("#counts").startswith(f"{total - SEED_PAPERS} of {total} nodes")
    assert view.clean(), (view.remote, view.errors)


def test_trends_open_offline_without_error(browser, tmp_path):
    from test_views import records_by_year

    from kg.builder.pipeline import build

    build([records_by_year(tmp_path / "years.jsonl")], tmp_path / "out")
    view = View(browser, tmp_path / "out" / "trends.html")
    assert view.page.locator("svg.trend polyline").count() >= 2
    assert view.page.locator("svg.trend circle title").count() >= 6
    assert view.clean(), (view.remote, view.errors)


def test_communities_fold_into_one_node_each_and_open_again(browser, built):
    view = View(browser, built / "index.html")
    groups = int(view.page.inner_text("label.fold").split()[2])
    assert groups >= 2
    clusters = "network.body.nodeIndices.filter(id => network.isCluster(id)).length"
    shown = "network.body.nodeIndices.length"
    before = view.page.evaluate(shown)
    view.page.check("#fold")
    assert view.page.evaluate(clusters) == groups
    assert view.page.evaluate(shown) < before
    assert f"{groups} communities folded" in view.page.inner_text("#counts")
    # a search for a folded node opens its community and selects it
    view.page.fill("#search", "math500")
    view.page.press("#search", "Enter")
    assert view.page.evaluate("network.getSelectedNodes()") == ["entity:math500"]
    assert view.page.evaluate(clusters) == groups - 1
    # filters keep the communities folded; unfolding draws every node again
    view.page.uncheck("[data-type=Paper]")
    assert view.page.evaluate(clusters) >= 1
    view.page.check("[data-type=Paper]")
    view.page.uncheck("#fold")
    assert view.page.evaluate(clusters) == 0 and view.page.evaluate(shown) == before
    assert view.clean(), (view.remote, view.errors)
