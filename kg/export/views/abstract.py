"""A paper's abstract as its page shows it: the metadata line and the mentions highlighted."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from kg.export.views.data import COLOURS
from kg.links import Links, links
from kg.model import Extraction

#: a mention's markup: the padding and fonts in lib/kg-views.css, not in each mark (displaCy's
#: own template wrote 400 bytes of style into each, a ninth of a paper's page)
MARK = '<mark class="entity" style="background: {bg}">{text}<span>{label}{kb_link}</span></mark>'
#: the colours by label as displaCy looks them up, and its colour for any other label
_COLOURS = {kind.upper(): colour for kind, colour in COLOURS.items()}
DEFAULT_COLOUR = "#ddd"
#: displaCy's frame of the marked text (its TPL_ENTS, left to right, stripped)
ENTITIES = '<div class="entities" style="line-height: 2.5; direction: ltr">{content}</div>'


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
    """The abstract as HTML with every mention highlighted (no overlaps), as displaCy's entity
    renderer with `MARK` writes it, without spaCy: loading it took a second, and a rebuild
    whose every extraction comes from the cache gathers every paper's page."""
    return Marked.of(ex).__html__()


@dataclass(frozen=True)
class Marked:
    """An abstract and the mentions to mark in it, made into HTML (`highlight`) only when its
    page is drawn: a rebuild gathers every page's view to draw a few. Its repr, which
    `View.digest` reads, is that of what the HTML is made from."""

    text: str
    spans: tuple[tuple[int, int, str], ...]  #: (start, end, type), sorted

    @classmethod
    def of(cls, ex: Extraction) -> Marked:
        spans = sorted(
            ((m.start, m.end, e.type.value) for e in ex.entities for m in e.mentions),
            key=lambda s: (s[0], -s[1]),
        )
        return cls(ex.paper.text, tuple(spans))

    def __html__(self) -> str:
        """The HTML (what Jinja's `safe` filter and autoescaping take)."""
        text = self.text
        parts = []
        offset = 0
        for start, end, label in self.spans:
            if start < offset:  # displaCy draws no overlapping spans
                continue
            parts.append(_lines(text[offset:start]))
            colour = _COLOURS.get(label.upper(), DEFAULT_COLOUR)
            mark = MARK.format(bg=colour, text=_escape(text[start:end]), label=label, kb_link="")
            parts.append(mark)
            offset = end
        parts.append(_lines(text[offset:]))
        return ENTITIES.format(content="".join(parts))


@dataclass(frozen=True)
class LinksOf:
    """The code and project pages an abstract links to (`kg.links.links`), found only when
    its page is drawn; its repr is the abstract's."""

    text: str

    @cached_property
    def found(self) -> Links:
        return links(self.text)

    @property
    def code(self) -> tuple[str, ...]:
        return self.found.code

    @property
    def pages(self) -> tuple[str, ...]:
        return self.found.pages


def _lines(text: str) -> str:
    """Text between marks, escaped, its line breaks as <br> (as displaCy writes it)."""
    return "<br>".join(_escape(line) for line in text.split("\n"))


def _escape(text: str) -> str:
    """`spacy.util.escape_html`: &, <, > and " as entities (not ')."""
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )
