from __future__ import annotations

import json
import re

from conftest import write

from kg.builder import build

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
