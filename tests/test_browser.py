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
