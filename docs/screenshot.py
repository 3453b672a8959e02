"""Take docs/overview.png: exports/index.html in headless chromium, network blocked.

python docs/screenshot.py                       # after `kg build`: docs/overview.png
python docs/screenshot.py /tmp/icml2024 docs/overview-icml2024.png   # any build's overview

Needs Debian's chromium and playwright.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
exports = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "exports"
target = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "docs" / "overview.png"

with sync_playwright() as p:
    browser = p.chromium.launch(
        executable_path="/usr/bin/chromium",
        headless=True,
        args=["--no-sandbox", "--disable-background-networking"],
    )
    page = browser.new_page(viewport={"width": 1400, "height": 1100})
    page.route("http*://**/*", lambda route: route.abort())
    page.goto((exports / "index.html").resolve().as_uri())
    page.wait_for_function("typeof window.kgDrawnAt === 'number'", timeout=120_000)
    page.wait_for_timeout(500)
    page.screenshot(path=str(target))
    browser.close()
