"""The HTML view in a real browser: Debian's chromium driven by Playwright, network blocked."""

from __future__ import annotations

import networkx as nx
import pytest
from conftest import REQUIRE_TOOLS, need_tool

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    chromium = need_tool("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if REQUIRE_TOOLS:
            pytest.fail("playwright is required (KG_REQUIRE_TOOLS=1)")
        pytest.skip("playwright not installed")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium,
            headless=True,
            args=["--no-sandbox", "--disable-background-networking", "--disable-gpu"],
        )
        yield browser
        browser.close()


def open_view(browser, path):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    remote: list[str] = []
    errors: list[str] = []

    def block(route):
        remote.append(route.request.url)
        route.abort()

    page.route("http://**/*", block)
    page.route("https://**/*", block)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_function(
        "typeof network !== 'undefined' && network.body.data.nodes.length > 0", timeout=30_000
    )
    return page, remote, errors


def test_overview_draws_every_node_offline(browser, built):
    page, remote, errors = open_view(browser, built / "index.html")
    graph = nx.read_graphml(built / "kg.graphml")
    assert page.evaluate("network.body.data.nodes.length") == graph.number_of_nodes()
    page.wait_for_function("Object.keys(network.getPositions()).length > 0")
    assert remote == [] and errors == []


def test_paper_node_opens_its_page(browser, built):
    page, remote, errors = open_view(browser, built / "index.html")
    paper = page.evaluate("nodes.getIds().find(id => id.startsWith('paper:'))")
    page.evaluate(
        f"network.selectNodes(['{paper}']); "
        f"network.body.emitter.emit('click', {{nodes: ['{paper}'], edges: []}})"
    )
    page.click("#open-view")
    page.wait_for_load_state()
    assert page.url.endswith(f"papers/{paper.removeprefix('paper:')}.html")
    assert page.locator("mark.entity").count() > 0
    assert remote == [] and errors == []


def test_search_finds_math500(browser, built):
    page, _, _ = open_view(browser, built / "index.html")
    page.fill("#search", "MATH500")
    page.press("#search", "Enter")
    assert page.evaluate("network.getSelectedNodes()") == ["entity:math500"]
    assert "MATH500" in page.inner_text("#details")
