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
