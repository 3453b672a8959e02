"""A paper's abstract as its page shows it: the metadata line and the mentions highlighted."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from kg.export.views.data import COLOURS
from kg.model import Extraction

if TYPE_CHECKING:
    from spacy.displacy.render import EntityRenderer

#: a mention's markup: the padding and fonts in lib/kg-views.css, not in each mark (displaCy's
#: own template wrote 400 bytes of style into each, a ninth of a paper's page)
MARK = '<mark class="entity" style="background: {bg}">{text}<span>{label}{kb_link}</span></mark>'


def meta_line(ex: Extraction) -> str:
    """The line under a paper's title: authors, venue, identifiers, where it was read."""
    p = ex.paper
    parts = ["; ".join(p.authors)] if p.authors else []
    venue = f"{p.venue} {p.year}" if p.venue and p.year else (p.venue or p.collection)
    parts += [venue] if venue else []
    parts += [f"arXiv:{p.arxiv_id}"] if p.arxiv_id else []
    parts += [f"doi:{p.doi}"] if p.doi else []
    parts.append(f"{p.source}, line {p.line} · paper {p.id}")
    return " · ".join(parts)


def highlight(ex: Extraction) -> str:
    """The abstract as HTML with every mention highlighted by displaCy (no overlaps)."""
    spans = sorted(
        ((m.start, m.end, e.type.value) for e in ex.entities for m in e.mentions),
        key=lambda s: (s[0], -s[1]),
    )
    kept: list[dict[str, object]] = []
    last_end = -1
    for start, end, label in spans:  # displaCy draws no overlapping spans
        if start >= last_end:
            kept.append({"start": start, "end": end, "label": label})
            last_end = end
    page = {"text": ex.paper.text, "ents": kept, "title": None}
    return str(_displacy().render([page], page=False, minify=False)).strip()


@cache
def _displacy() -> EntityRenderer:
    """displaCy's entity renderer, made once: `displacy.render` makes one per call, and each
    reads every installed package's entry points for colours (40% of a paper page's time).
    Imported here: loading spaCy costs a second, and a rebuild may draw no paper page."""
    from spacy.displacy.render import EntityRenderer

    return EntityRenderer(
        options={
            "colors": {kind.upper(): colour for kind, colour in COLOURS.items()},
            "template": MARK,
        }
    )
