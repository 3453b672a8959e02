"""Take docs/overview.png: exports/index.html in headless chromium, network blocked.

python docs/screenshot.py   # after `kg build`; needs Debian's chromium and playwright
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]

with sync_playwright() as p:
    browser = p.chromium.launch(
        executable_path="/usr/bin/chromium",
        headless=True,
        args=["--no-sandbox", "--disable-background-networking"],
    )
    page = browser.new_page(viewport={"width": 1400, "height": 860})
    page.route("http*://**/*", lambda route: route.abort())
    page.goto((ROOT / "exports" / "index.html").as_uri())
    page.wait_for_function("network.body.data.nodes.length > 0")
    page.wait_for_timeout(6000)  # let the layout settle
    page.screenshot(path=str(ROOT / "docs" / "overview.png"))
    browser.close()
