from __future__ import annotations

import re

from kg.build import build

URL_IN_TAG = re.compile(r"<(script|link)[^>]+(src|href)=\"https?://", re.IGNORECASE)


def test_overview_links_nothing_remote(built):
    html = (built / "index.html").read_text(encoding="utf-8")
    assert not URL_IN_TAG.search(html)
    assert 'src="lib/vis-network.min.js"' in html
    assert (built / "lib" / "vis-network.min.js").stat().st_size > 400_000
    assert "@import" not in html and "fonts.googleapis" not in html


def test_abstract_markup_is_escaped(tmp_path):
    source = tmp_path / "evil.txt"
    source.write_text(
        "Evil list 2026\n\nWe propose </script><script>alert(1)</script> "
        "FooNet <b>bold</b> on MATH500.\n",
        encoding="utf-8",
    )
    build([source], tmp_path / "out")
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in html
    assert "<b>bold</b>" not in html
    assert "\\u003cscript\\u003ealert(1)" in html  # kept as data, shown as text
    (page,) = (tmp_path / "out" / "papers").glob("*.html")
    html = page.read_text(encoding="utf-8")
    assert "<script>" not in html and "<b>bold</b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_every_paper_has_a_page_with_its_mentions(built):
    import json

    records = [json.loads(line) for line in (built / "extractions.jsonl").open()]
    pages = {p.stem for p in (built / "papers").glob("*.html")}
    assert pages == {r["paper"] for r in records}
    record = next(r for r in records if any(e["proposed"] for e in r["entities"]))
    html = (built / "papers" / f"{record['paper']}.html").read_text(encoding="utf-8")
    assert not URL_IN_TAG.search(html)
    assert html.count('<mark class="entity"') >= len(record["entities"])
    proposed = next(e for e in record["entities"] if e["proposed"])
    assert f"{proposed['name']} (proposed)" in html
